/// The state of one `buffer` subscription: the queued values, downstream demand and the pending completion.
///
/// Each event returns what `Publishers.Buffer`'s `Inner` must do once it has released the lock.
struct BufferStateMachine<Output, Failure: Error> {
  enum FullAction {
    case dropNewest
    case dropOldest
    case fail
  }

  enum ReceiveAction {
    /// The value was ignored (no upstream, or already ending).
    case ignore
    /// The value was queued or dropped; run the drain loop.
    case drain
    /// The buffer is full and the strategy is a custom error: make the error and call ``failWhenFull(_:)``.
    case makeError
  }

  enum Step {
    case deliver(Output)
    case complete(Subscribers.Completion<Failure>)
    case stop
  }

  let size: Int
  let keepsFull: Bool
  let whenFull: FullAction

  var link = SubscriptionState.awaitingSubscription
  /// Set once downstream has received its subscription: nothing is delivered before.
  var isDownstreamReady = false
  /// Set once downstream has completed or cancelled.
  var isDone = false
  var isDraining = false
  var demand = Subscribers.Demand.none
  var completion: Subscribers.Completion<Failure>?
  /// The upstream cancelled when the buffer overflowed.
  ///
  /// As in Combine, the drain that delivers the failure still asks it to refill what that drain delivered.
  private var overflowedUpstream: (any Subscription)?
  private var values: [Output] = []
  private var head = 0

  init(size: Int, keepsFull: Bool, whenFull: FullAction) {
    self.size = Swift.max(size, 0)
    self.keepsFull = keepsFull
    self.whenFull = whenFull
  }

  var count: Int { values.count - head }

  /// The values waiting for demand, oldest first.
  var buffered: ArraySlice<Output> { values[head...] }

  /// Records the upstream subscription; returns what to request from it, or `nil` to cancel it.
  mutating func subscribe(_ subscription: any Subscription) -> Subscribers.Demand? {
    guard !isDone, link.subscribe(subscription) else { return nil }
    return keepsFull ? .max(size) : .unlimited
  }

  mutating func receive(_ value: Output) -> ReceiveAction {
    guard link.isSubscribed, completion == nil, !isDone else { return .ignore }
    if count >= size {
      switch whenFull {
      case .dropNewest:
        return .drain
      case .dropOldest:
        if count > 0 { _ = removeFirst() } else { return .drain }
      case .fail:
        return .makeError
      }
    }
    values.append(value)
    return .drain
  }

  /// Ends the upstream with `error` after the buffer overflowed; returns the upstream subscription to cancel.
  mutating func failWhenFull(_ error: Failure) -> (any Subscription)? {
    guard completion == nil, !isDone, let upstream = link.terminate() else { return nil }
    completion = .failure(error)
    overflowedUpstream = upstream
    return upstream
  }

  /// Hands over the upstream cancelled on overflow, once, for the refill that follows the failure.
  mutating func takeOverflowedUpstream() -> (any Subscription)? {
    overflowedUpstream.take()
  }

  /// Records upstream's completion; returns whether to run the drain loop.
  mutating func complete(_ completion: Subscribers.Completion<Failure>) -> Bool {
    guard link.terminate() != nil, self.completion == nil, !isDone else { return false }
    self.completion = completion
    return true
  }

  /// Adds downstream demand; returns whether to run the drain loop.
  mutating func request(_ demand: Subscribers.Demand) -> Bool {
    guard !isDone else { return false }
    self.demand += demand
    return true
  }

  /// Ends the subscription on downstream's behalf; returns the upstream subscription to cancel.
  mutating func cancel() -> (any Subscription)? {
    isDone = true
    clear()
    overflowedUpstream = nil
    return link.terminate()
  }

  /// Claims the drain loop; returns `false` when another call is already draining and will pick up the change.
  mutating func startDraining() -> Bool {
    guard !isDraining, isDownstreamReady, !isDone else { return false }
    isDraining = true
    return true
  }

  /// Adds the demand downstream returned for a delivered value.
  mutating func delivered(more: Subscribers.Demand) {
    demand += more
  }

  /// The next thing the drain loop delivers: a queued value if there is demand, else the completion once it is
  /// due (a finish after the last value; a failure as soon as no value can be delivered), else nothing, which
  /// releases the loop.
  mutating func nextStep() -> Step {
    guard !isDone else {
      isDraining = false
      return .stop
    }
    if count > 0, demand > 0 {
      demand -= 1
      return .deliver(removeFirst())
    }
    if let completion {
      let isDue: Bool
      switch completion {
      case .finished: isDue = count == 0
      case .failure: isDue = true
      }
      if isDue {
        isDone = true
        isDraining = false
        clear()
        return .complete(completion)
      }
    }
    isDraining = false
    return .stop
  }

  private mutating func removeFirst() -> Output {
    let value = values[head]
    head += 1
    if head == values.count {
      values.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64, head * 2 >= values.count {
      values.removeFirst(head)
      head = 0
    }
    return value
  }

  private mutating func clear() {
    values = []
    head = 0
  }
}
