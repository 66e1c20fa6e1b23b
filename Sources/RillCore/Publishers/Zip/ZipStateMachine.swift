/// The state of one `zip` or `combineLatest` subscription over a fixed number of upstreams.
///
/// Upstream values are kept with their own types in `Buffers`, which also builds the downstream value. `zip`
/// queues every value and emits when each upstream has one queued, finishing as soon as an upstream has
/// finished with its queue empty; `combineLatest` keeps the latest value of each upstream, emits when each has
/// one and downstream has demand, and finishes when every upstream has finished. Either fails as soon as one
/// upstream fails. Downstream demand is passed to every upstream. Downstream is called by one thread at a time:
/// a value produced while another thread delivers is queued in a ``DeliveryQueue``, and that thread (the
/// drainer) delivers it.
@usableFromInline
package struct ZipStateMachine<Buffers: ZipBuffers, Failure: Error> {
  @usableFromInline
  typealias Value = Buffers.Output

  @usableFromInline
  package enum Mode: Sendable {
    case zip
    case combineLatest
  }

  /// Where the subscription is.
  @usableFromInline
  enum Phase {
    case running
    /// The outcome is known: the completion waits for the drainer to deliver the values before it.
    case completing(Subscribers.Completion<Failure>)
    /// The completion went downstream, or downstream cancelled.
    case terminated
  }

  @usableFromInline let mode: Mode
  @usableFromInline var phase = Phase.running
  @usableFromInline var subscriptions: [(any Subscription)?]
  @usableFromInline var isFinished: [Bool]
  /// How many upstreams have finished.
  @usableFromInline var finishedCount = 0
  @usableFromInline let count: Int
  @usableFromInline var buffers: Buffers
  @usableFromInline var demand = Subscribers.Demand.none
  @usableFromInline var requested = Subscribers.Demand.none
  /// Values waiting for the drainer; it is draining while a thread delivers downstream.
  @usableFromInline var outbox = DeliveryQueue<Value>()
  /// Demand downstream requested while a value was being delivered: as in Combine, it is handled with the demand
  /// that delivery returns once it is over (the upstream whose value completed the output gets it as its return
  /// value, the others as a request).
  @usableFromInline var requestedWhileDelivering = Subscribers.Demand.none

  @inlinable
  init(mode: Mode, count: Int, buffers: Buffers) {
    self.mode = mode
    self.count = count
    self.buffers = buffers
    subscriptions = Array(repeating: nil, count: count)
    isFinished = Array(repeating: false, count: count)
  }

  @usableFromInline
  enum SubscriptionAction {
    case request(any Subscription, Subscribers.Demand)
    case cancel(any Subscription)
    case none
  }

  @inlinable
  mutating func subscribed(_ index: Int, _ subscription: any Subscription) -> SubscriptionAction {
    guard case .running = phase, subscriptions[index] == nil, !isFinished[index] else {
      return .cancel(subscription)
    }
    subscriptions[index] = subscription
    return requested > 0 ? .request(subscription, requested) : .none
  }

  @usableFromInline
  enum DrainStep {
    case deliver(Value)
    case complete(Subscribers.Completion<Failure>, cancelling: [any Subscription])
    /// Cancel these upstreams; the drainer sends the completion.
    case cancel([any Subscription])
    case idle
  }

  /// A value from upstream `index`, which `store` adds to the buffers; `.deliver` makes the caller the drainer.
  @inlinable
  mutating func received(_ index: Int, _ store: (inout Buffers) -> Void) -> DrainStep {
    guard case .running = phase, !isFinished[index] else { return .idle }
    store(&buffers)
    let output: Value
    switch mode {
    case .zip:
      guard buffers.everyUpstreamHasAValue else { return .idle }
      output = buffers.removeFirst()
      demand -= 1
      if zipIsExhausted() { phase = .completing(.finished) }
    case .combineLatest:
      buffers.keepLatest(index)
      guard demand > 0, buffers.everyUpstreamHasAValue else { return .idle }
      output = buffers.latest()
      demand -= 1
    }
    guard let first = outbox.push(output) else { return .idle }
    return .deliver(first)
  }

  @inlinable
  mutating func completed(_ index: Int, _ completion: Subscribers.Completion<Failure>) -> DrainStep {
    guard case .running = phase, !isFinished[index] else { return .idle }
    isFinished[index] = true
    finishedCount += 1
    // As in Combine, a failure of `zip` cancels every upstream, the failed one included.
    if case .failure = completion, mode == .zip {
    } else {
      subscriptions[index] = nil
    }
    switch completion {
    case .failure:
      outbox.removeAll()
      phase = .completing(completion)
      if outbox.isDraining {
        defer { subscriptions = subscriptions.map { _ in nil } }
        return .cancel(subscriptions.compactMap { $0 })
      }
    case .finished:
      switch mode {
      case .zip: if buffers.isEmpty(index) { phase = .completing(.finished) }
      case .combineLatest: if finishedCount == count { phase = .completing(.finished) }
      }
    }
    guard case .completing = phase, !outbox.isDraining else { return .idle }
    return takeCompletion()
  }

  /// Adds downstream demand; returns the upstreams to pass it to.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) -> [any Subscription] {
    guard case .running = phase else { return [] }
    demand += more
    requested += more
    if outbox.isDraining {
      requestedWhileDelivering += more
      return []
    }
    return subscriptions.compactMap { $0 }
  }

  /// Records that the drainer delivered a value and downstream asked for `additional` more; returns the next
  /// step, the demand to pass on (`additional` and what downstream requested meanwhile), and the upstreams (by
  /// index) to pass it to.
  @inlinable
  mutating func delivered(
    _ additional: Subscribers.Demand
  ) -> (DrainStep, more: Subscribers.Demand, forward: [(Int, any Subscription)]) {
    var forward: [(Int, any Subscription)] = []
    let more = additional + requestedWhileDelivering
    requestedWhileDelivering = .none
    if more > 0, case .running = phase {
      demand += additional
      requested += additional
      forward = subscriptions.indices.compactMap { index in subscriptions[index].map { (index, $0) } }
    }
    if let next = outbox.next() { return (.deliver(next), more, forward) }
    guard case .completing = phase else { return (.idle, more, forward) }
    return (takeCompletion(), more, forward)
  }

  /// Terminates on downstream's cancel; returns the subscriptions to cancel.
  @inlinable
  mutating func cancel() -> [any Subscription] {
    if case .terminated = phase { return [] }
    phase = .terminated
    defer { release() }
    return subscriptions.compactMap { $0 }
  }

  @inlinable
  func zipIsExhausted() -> Bool {
    for index in 0..<count where isFinished[index] && buffers.isEmpty(index) { return true }
    return false
  }

  @inlinable
  mutating func takeCompletion() -> DrainStep {
    guard case .completing(let completion) = phase else { return .idle }
    phase = .terminated
    let cancelling = subscriptions.compactMap { $0 }
    release()
    return .complete(completion, cancelling: cancelling)
  }

  @inlinable
  mutating func release() {
    subscriptions = subscriptions.map { _ in nil }
    buffers.removeAll()
    outbox.removeAll()
  }
}
