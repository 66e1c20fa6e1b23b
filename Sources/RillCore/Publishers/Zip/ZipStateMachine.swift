/// The state of one `zip` or `combineLatest` subscription over a fixed number of upstreams.
///
/// Upstream values are kept with their own types in `Buffers`, which also builds the downstream value. `zip`
/// queues every value and emits when each upstream has one queued, finishing as soon as an upstream has
/// finished with its queue empty; `combineLatest` keeps the latest value of each upstream, emits when each has
/// one and downstream has demand, and finishes when every upstream has finished. Either fails as soon as one
/// upstream fails. Downstream demand is passed to every upstream.
///
/// `ZipSubscription` calls downstream under its delivery lock, as Combine does. `zip` handles each upstream event
/// under that lock, so an event from another thread waits for a delivery in progress, and one from inside
/// downstream is handled at once, nested: a delivery in progress while an event is handled is always one on the
/// same thread. `combineLatest` decides under this machine's lock alone: a value that arrives while a combination
/// is being delivered, on any thread, becomes its upstream's latest without being emitted.
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
    /// `zip` only: the outcome is `.finished`, which waits for the delivery in progress to return.
    case finishing
    /// The completion went downstream, or downstream cancelled.
    case terminal
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
  /// The deliveries of values in progress: nested ones for `zip`, at most one for `combineLatest`.
  @usableFromInline var deliveries = 0
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
  enum UpstreamSubscribedAction {
    case request(any Subscription, Subscribers.Demand)
    case cancel(any Subscription)
    case none
  }

  @inlinable
  mutating func upstreamSubscribed(_ index: Int, _ subscription: any Subscription) -> UpstreamSubscribedAction {
    guard case .running = phase, subscriptions[index] == nil, !isFinished[index] else {
      return .cancel(subscription)
    }
    subscriptions[index] = subscription
    return requested > 0 ? .request(subscription, requested) : .none
  }

  @usableFromInline
  enum UpstreamValueAction {
    /// `zip`: deliver this output now, then report with `delivered(_:)`.
    case deliver(Value)
    /// `combineLatest`: a combination is owed; take it with `combination()` under the delivery lock, deliver it,
    /// then report with `delivered(_:)`.
    case claimed
    case none
  }

  /// A value from upstream `index`, which `store` adds to the buffers: queued for `zip`, replacing the latest for
  /// `combineLatest` (whose subscriber takes out the value it replaces, to release it after unlocking).
  @inlinable
  mutating func upstreamValue(_ index: Int, _ store: (inout Buffers) -> Void) -> UpstreamValueAction {
    switch phase {
    case .running: break
    case .finishing, .terminal: return .none
    }
    guard !isFinished[index] else { return .none }
    store(&buffers)
    switch mode {
    case .zip:
      // As in Combine, a complete tuple goes downstream whatever the demand: upstreams are asked for no more.
      guard buffers.everyUpstreamHasAValue else { return .none }
      let output = buffers.removeFirst()
      demand -= 1
      deliveries += 1
      if zipIsExhausted() { phase = .finishing }
      return .deliver(output)
    case .combineLatest:
      guard deliveries == 0, demand > 0, buffers.everyUpstreamHasAValue else { return .none }
      demand -= 1
      deliveries += 1
      return .claimed
    }
  }

  /// The combination a `.claimed` value owes, or `nil` if the subscription ended before its delivery began.
  @inlinable
  func combination() -> Value? {
    switch phase {
    case .running: buffers.latest()
    case .finishing, .terminal: nil
    }
  }

  /// What to do once a delivery has returned.
  @usableFromInline
  struct DeliveredAction {
    /// The demand to pass on: what downstream returned and what it requested meanwhile.
    @usableFromInline var more = Subscribers.Demand.none
    /// The upstreams (by index) to pass `more` to.
    @usableFromInline var forward: [(Int, any Subscription)] = []
    /// `zip` ran out of values while this delivery was in progress: end the subscription with
    /// ``finishAfterDelivery()``.
    @usableFromInline var finishes = false

    @inlinable
    init() {}
  }

  /// Records that a value was delivered and downstream asked for `additional` more.
  @inlinable
  mutating func delivered(_ additional: Subscribers.Demand) -> DeliveredAction {
    deliveries -= 1
    var action = DeliveredAction()
    switch phase {
    case .running:
      action.more = additional + requestedWhileDelivering
      requestedWhileDelivering = .none
      guard action.more > 0 else { return action }
      demand += additional
      requested += additional
      action.forward = subscriptions.indices.compactMap { index in subscriptions[index].map { (index, $0) } }
    case .finishing:
      action.finishes = true
    case .terminal:
      break
    }
    return action
  }

  /// The delivery that was in progress when `zip` ran out of values is over: the completion follows it.
  ///
  /// Returns, besides the action, the buffers, to release after unlocking.
  @inlinable
  mutating func finishAfterDelivery() -> (action: CompletionAction, released: Buffers?) {
    guard case .finishing = phase else { return (.none, nil) }
    return terminate(with: .finished)
  }

  @usableFromInline
  enum CompletionAction {
    /// Cancel these upstreams, then deliver the completion.
    case complete(Subscribers.Completion<Failure>, cancelling: [any Subscription])
    case none
  }

  /// What a completion lets go of, for the subscription to release after unlocking: the subscription of the
  /// upstream that completed, and the buffers once the stream ends.
  @usableFromInline
  struct Released {
    @usableFromInline var subscription: (any Subscription)?
    @usableFromInline var buffers: Buffers?

    @inlinable
    init(subscription: (any Subscription)?, buffers: Buffers?) {
      self.subscription = subscription
      self.buffers = buffers
    }
  }

  /// A completion from upstream `index`.
  ///
  /// Returns, besides the action, what the machine let go of, to release after unlocking.
  @inlinable
  mutating func upstreamCompleted(
    _ index: Int,
    _ completion: Subscribers.Completion<Failure>
  ) -> (action: CompletionAction, released: Released) {
    switch phase {
    case .running: break
    case .finishing, .terminal: return (.none, Released(subscription: nil, buffers: nil))
    }
    guard !isFinished[index] else { return (.none, Released(subscription: nil, buffers: nil)) }
    isFinished[index] = true
    finishedCount += 1
    // As in Combine, a failure of `zip` cancels every upstream, the failed one included.
    let subscription: (any Subscription)? =
      switch (completion, mode) {
      case (.failure, .zip): nil
      case (.failure, .combineLatest), (.finished, _): subscriptions[index].take()
      }
    let ends: Bool
    switch (completion, mode) {
    case (.failure, _):
      ends = true
    case (.finished, .zip):
      guard buffers.isEmpty(index) else { return (.none, Released(subscription: subscription, buffers: nil)) }
      // As in Combine, a finish that arrives while a value is delivered (from inside downstream) completes after
      // that delivery returns.
      guard deliveries == 0 else {
        phase = .finishing
        return (.none, Released(subscription: subscription, buffers: nil))
      }
      ends = true
    case (.finished, .combineLatest):
      ends = finishedCount == count
    }
    guard ends else { return (.none, Released(subscription: subscription, buffers: nil)) }
    let (action, buffers) = terminate(with: completion)
    return (action, Released(subscription: subscription, buffers: buffers))
  }

  /// Adds downstream demand; returns the upstreams to pass it to.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) -> [any Subscription] {
    switch phase {
    case .running: break
    case .finishing, .terminal: return []
    }
    demand += more
    requested += more
    guard deliveries == 0 else {
      requestedWhileDelivering += more
      return []
    }
    return subscriptions.compactMap { $0 }
  }

  /// Terminates on downstream's cancel; returns the subscriptions to cancel, and the buffers, to release after
  /// unlocking.
  @inlinable
  mutating func cancel() -> (cancelling: [any Subscription], released: Buffers?) {
    switch phase {
    case .running, .finishing: break
    case .terminal: return ([], nil)
    }
    phase = .terminal
    return release()
  }

  @inlinable
  func zipIsExhausted() -> Bool {
    for index in 0..<count where isFinished[index] && buffers.isEmpty(index) { return true }
    return false
  }

  /// Ends the stream with `completion`; returns the action, and the buffers, to release after unlocking.
  @inlinable
  mutating func terminate(
    with completion: Subscribers.Completion<Failure>
  ) -> (action: CompletionAction, released: Buffers) {
    phase = .terminal
    let (cancelling, released) = release()
    return (.complete(completion, cancelling: cancelling), released)
  }

  /// Forgets the upstreams and the buffers; returns the subscriptions, and the buffers, for the caller to cancel and
  /// release after unlocking.
  @inlinable
  mutating func release() -> (cancelling: [any Subscription], released: Buffers) {
    let cancelling = subscriptions.compactMap { $0 }
    subscriptions = subscriptions.map { _ in nil }
    return (cancelling, buffers.takeAll())
  }
}
