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

  /// A value from upstream `index`, which `store` adds to the buffers.
  @inlinable
  mutating func upstreamValue(_ index: Int, _ store: (inout Buffers) -> Void) -> UpstreamValueAction {
    switch phase {
    case .running: break
    case .finishing, .terminated: return .none
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
      buffers.keepLatest(index)
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
    case .finishing, .terminated: nil
    }
  }

  /// What to do once a delivery has returned.
  @usableFromInline
  struct DeliveredAction {
    /// The demand to pass on: what downstream returned and what it requested meanwhile.
    @usableFromInline var more = Subscribers.Demand.none
    /// The upstreams (by index) to pass `more` to.
    @usableFromInline var forward: [(Int, any Subscription)] = []
    @usableFromInline var completion = CompletionAction.none

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
      // The delivery that was in progress when `zip` ran out of values is over: the completion follows it.
      action.completion = terminate(with: .finished)
    case .terminated:
      break
    }
    return action
  }

  @usableFromInline
  enum CompletionAction {
    /// Cancel these upstreams, then deliver the completion.
    case complete(Subscribers.Completion<Failure>, cancelling: [any Subscription])
    case none
  }

  /// A completion from upstream `index`.
  @inlinable
  mutating func upstreamCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) -> CompletionAction {
    switch phase {
    case .running: break
    case .finishing, .terminated: return .none
    }
    guard !isFinished[index] else { return .none }
    isFinished[index] = true
    finishedCount += 1
    switch (completion, mode) {
    case (.failure, .zip):
      // As in Combine, a failure of `zip` cancels every upstream, the failed one included.
      return terminate(with: completion)
    case (.failure, .combineLatest):
      subscriptions[index] = nil
      return terminate(with: completion)
    case (.finished, .zip):
      subscriptions[index] = nil
      guard buffers.isEmpty(index) else { return .none }
      // As in Combine, a finish that arrives while a value is delivered (from inside downstream) completes after
      // that delivery returns.
      guard deliveries == 0 else {
        phase = .finishing
        return .none
      }
      return terminate(with: .finished)
    case (.finished, .combineLatest):
      subscriptions[index] = nil
      return finishedCount == count ? terminate(with: .finished) : .none
    }
  }

  /// Adds downstream demand; returns the upstreams to pass it to.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) -> [any Subscription] {
    switch phase {
    case .running: break
    case .finishing, .terminated: return []
    }
    demand += more
    requested += more
    guard deliveries == 0 else {
      requestedWhileDelivering += more
      return []
    }
    return subscriptions.compactMap { $0 }
  }

  /// Terminates on downstream's cancel; returns the subscriptions to cancel.
  @inlinable
  mutating func cancel() -> [any Subscription] {
    switch phase {
    case .running, .finishing: break
    case .terminated: return []
    }
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
  mutating func terminate(with completion: Subscribers.Completion<Failure>) -> CompletionAction {
    phase = .terminated
    let cancelling = subscriptions.compactMap { $0 }
    release()
    return .complete(completion, cancelling: cancelling)
  }

  @inlinable
  mutating func release() {
    subscriptions = subscriptions.map { _ in nil }
    buffers.removeAll()
  }
}
