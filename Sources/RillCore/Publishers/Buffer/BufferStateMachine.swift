/// The state of one `buffer` subscription: the queued values, downstream demand and upstream's completion.
///
/// Each event returns what `Publishers.Buffer`'s `Inner` must do once it has released the lock.
///
/// Combine's buffer has a few habits that this machine keeps:
/// - `.finished` waits behind the buffered values and for demand: with an empty buffer it reaches downstream only
///   with demand outstanding.
/// - Values that arrive after `.finished`, before it is delivered, are still buffered and delivered.
/// - A failure waits behind the values that the demand covers when a delivery starts, and then ends the
///   subscription. A failure that arrives while values are being delivered goes out before the next value, and the
///   delivery still hands out the values its demand covers.
@usableFromInline
struct BufferStateMachine<Output, Failure: Error> {
  @usableFromInline
  enum FullAction {
    case dropNewest
    case dropOldest
    case fail
  }

  @usableFromInline
  enum UpstreamValueAction {
    /// The value was ignored (no upstream, or already ending).
    case ignore
    /// The value was queued or dropped; run the drain loop.
    case drain
    /// The buffer is full and the strategy is a custom error: make the error and call ``failWhenFull(_:)``.
    case makeError
  }

  @usableFromInline
  enum Step {
    case deliver(Output)
    case complete(Subscribers.Completion<Failure>)
    /// The drain is over; release what the machine let go of, if anything, after unlocking.
    case stop(released: Released?)
  }

  /// What the machine lets go of when the subscription ends, for `Inner` to release after unlocking: a value's or a
  /// subscription's deinit may call back into the subscription.
  @usableFromInline
  struct Released {
    @usableFromInline
    var values: FIFO<Output>
    @usableFromInline
    var batch: FIFO<Output>
    @usableFromInline
    var overflowedUpstream: (any Subscription)?

    @inlinable
    init(values: FIFO<Output>, batch: FIFO<Output>, overflowedUpstream: (any Subscription)? = nil) {
      self.values = values
      self.batch = batch
      self.overflowedUpstream = overflowedUpstream
    }
  }

  /// Where upstream's completion is on its way downstream.
  @usableFromInline
  enum Ending {
    /// Upstream has not completed.
    case open
    /// Upstream completed; the completion waits for its turn.
    case pending(Subscribers.Completion<Failure>)
    /// A failure that arrived while a drain was delivering values: it goes out at the drain's next step.
    case interrupting(Failure)
    /// Downstream has the completion; a drain still running may deliver the values its demand covers.
    case delivered(Subscribers.Completion<Failure>)
  }

  @usableFromInline
  let size: Int
  @usableFromInline
  let keepsFull: Bool
  @usableFromInline
  let whenFull: FullAction

  @usableFromInline
  var link = SubscriptionState.awaitingSubscription
  /// Where downstream is.
  @usableFromInline
  enum DownstreamPhase {
    /// It has not received its subscription yet: nothing is delivered before.
    case awaitingSubscription
    case ready
    /// It cancelled, or has its completion and no drain runs any more.
    case done
  }

  @usableFromInline
  var downstreamPhase = DownstreamPhase.awaitingSubscription

  /// Whether downstream has cancelled, or has its completion and no drain runs any more.
  @inlinable
  var isDone: Bool {
    if case .done = downstreamPhase { return true }
    return false
  }
  @usableFromInline
  var isDraining = false
  @usableFromInline
  var demand = Subscribers.Demand.none
  @usableFromInline
  var ending = Ending.open
  /// The upstream cancelled when the buffer overflowed.
  ///
  /// As in Combine, the drain that delivers the failure still asks it to refill what that drain delivered.
  @usableFromInline
  var overflowedUpstream: (any Subscription)?
  @usableFromInline
  var values = FIFO<Output>()
  /// The values the running drain has taken out of the buffer and not delivered yet.
  @usableFromInline
  var batch = FIFO<Output>()

  @inlinable
  init(size: Int, keepsFull: Bool, whenFull: FullAction) {
    self.size = Swift.max(size, 0)
    self.keepsFull = keepsFull
    self.whenFull = whenFull
  }

  @inlinable
  var count: Int { values.count }

  /// The values waiting for demand, oldest first.
  @inlinable
  var buffered: [Output] { values.elements }

  /// Upstream's completion once it has arrived (what a debugger shows as the buffer's terminal event).
  @inlinable
  var completion: Subscribers.Completion<Failure>? {
    switch ending {
    case .open: nil
    case .pending(let completion), .delivered(let completion): completion
    case .interrupting(let failure): .failure(failure)
    }
  }

  /// Downstream has received its subscription: values may be delivered from now on.
  @inlinable
  mutating func downstreamSubscribed() {
    if case .awaitingSubscription = downstreamPhase { downstreamPhase = .ready }
  }

  /// Records the upstream subscription; returns what to request from it, or `nil` to cancel it.
  @inlinable
  mutating func upstreamSubscribed(_ subscription: any Subscription) -> Subscribers.Demand? {
    guard !isDone, link.subscribe(subscription) else { return nil }
    return keepsFull ? .max(size) : .unlimited
  }

  /// A value from upstream; returns what to do, and the oldest value when `.dropOldest` drops it, to release after
  /// unlocking.
  @inlinable
  mutating func upstreamValue(_ value: Output) -> (action: UpstreamValueAction, dropped: Output?) {
    guard !isDone else { return (.ignore, nil) }
    switch ending {
    case .open:
      guard link.isSubscribed else { return (.ignore, nil) }
    case .pending(.finished):
      // Combine goes on buffering what a finished upstream still sends.
      break
    case .pending(.failure), .interrupting, .delivered:
      return (.ignore, nil)
    }
    var dropped: Output?
    if count >= size {
      switch whenFull {
      case .dropNewest:
        return (.drain, nil)
      case .dropOldest:
        guard count > 0 else { return (.drain, nil) }
        dropped = values.removeFirst()
      case .fail:
        return (.makeError, nil)
      }
    }
    values.append(value)
    return (.drain, dropped)
  }

  /// Ends the upstream with `error` after the buffer overflowed; returns the upstream subscription to cancel.
  ///
  /// After `.finished`, the error replaces it, as in Combine.
  @inlinable
  mutating func failWhenFull(_ error: Failure) -> (any Subscription)? {
    guard !isDone else { return nil }
    switch ending {
    case .open:
      guard let upstream = link.terminate() else { return nil }
      ending = .pending(.failure(error))
      overflowedUpstream = upstream
      return upstream
    case .pending(.finished):
      ending = .pending(.failure(error))
      return nil
    case .pending(.failure), .interrupting, .delivered:
      return nil
    }
  }

  /// Hands over the upstream cancelled on overflow, once, for the refill that follows the failure.
  @inlinable
  mutating func takeOverflowedUpstream() -> (any Subscription)? {
    overflowedUpstream.take()
  }

  /// Records upstream's completion; returns whether to run the drain loop, and the upstream's subscription, to
  /// release after unlocking.
  @inlinable
  mutating func upstreamCompleted(
    _ completion: Subscribers.Completion<Failure>
  ) -> (drains: Bool, released: (any Subscription)?) {
    guard case .open = ending else { return (false, nil) }
    let upstream = link.endForCompletion()
    guard upstream != nil, !isDone else { return (false, upstream) }
    switch completion {
    case .failure(let error) where isDraining:
      ending = .interrupting(error)
    case .finished, .failure:
      ending = .pending(completion)
    }
    return (true, upstream)
  }

  /// Adds downstream demand; returns whether to run the drain loop.
  @inlinable
  mutating func request(_ demand: Subscribers.Demand) -> Bool {
    guard !isDone else { return false }
    self.demand += demand
    return true
  }

  /// Ends the subscription on downstream's behalf; returns whether downstream is to be released, the upstream
  /// subscription to cancel, and what the machine let go of, to release after unlocking.
  ///
  /// As in Combine, a cancel before the upstream subscription arrives or after downstream has its completion
  /// changes nothing.
  @inlinable
  mutating func cancel() -> (releasesDownstream: Bool, upstream: (any Subscription)?, released: Released?) {
    if link.isAwaitingSubscription { return (false, nil, nil) }
    if case .delivered = ending {
      return (false, nil, clear(releasingOverflowedUpstream: false))
    }
    downstreamPhase = .done
    let released = clear(releasingOverflowedUpstream: true)
    return (true, link.terminate(), released)
  }

  /// Claims the drain loop; returns `false` when another call is already draining and will pick up the change.
  @inlinable
  mutating func startDraining() -> Bool {
    guard !isDraining, case .ready = downstreamPhase else { return false }
    isDraining = true
    return true
  }

  /// Adds the demand downstream returned for a delivered value.
  @inlinable
  mutating func delivered(_ more: Subscribers.Demand) {
    demand += more
  }

  /// The next thing the drain loop delivers, or `.stop`, which releases the loop.
  ///
  /// Like Combine's, the loop takes the values that downstream's demand covers out of the buffer as one batch,
  /// and delivers the whole batch before it looks at the buffer again.
  @inlinable
  mutating func nextStep() -> Step {
    guard !isDone else {
      isDraining = false
      return .stop(released: nil)
    }
    if case .interrupting(let failure) = ending {
      ending = .delivered(.failure(failure))
      return .complete(.failure(failure))
    }
    if !batch.isEmpty {
      return .deliver(batch.removeFirst())
    }
    switch ending {
    case .interrupting:
      preconditionFailure("BufferStateMachine: an interrupting failure is delivered before any value")
    case .pending(.failure(let failure)) where count == 0 || demand == .none:
      ending = .delivered(.failure(failure))
      return .complete(.failure(failure))
    case .pending(.finished) where count == 0 && demand > 0:
      ending = .delivered(.finished)
      return .complete(.finished)
    case .delivered:
      isDraining = false
      downstreamPhase = .done
      return .stop(released: clear(releasingOverflowedUpstream: false))
    case .open, .pending:
      break
    }
    guard count > 0, demand > 0 else {
      isDraining = false
      return .stop(released: nil)
    }
    let taken = demand.max.map { Swift.min($0, count) } ?? count
    demand -= taken
    for _ in 0..<taken { batch.append(values.removeFirst()) }
    return .deliver(batch.removeFirst())
  }

  /// Takes the values and the batch out, and the upstream cancelled on overflow if `releasingOverflowedUpstream`.
  @inlinable
  mutating func clear(releasingOverflowedUpstream: Bool) -> Released {
    Released(
      values: values.take(),
      batch: batch.take(),
      overflowedUpstream: releasingOverflowedUpstream ? overflowedUpstream.take() : nil
    )
  }
}
