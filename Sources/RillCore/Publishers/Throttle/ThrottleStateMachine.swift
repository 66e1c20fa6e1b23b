/// The state of one `throttle` subscription: its phase, the value waiting for its emission, the downstream's demand,
/// and the emissions on their way downstream.
///
/// Each event is one mutating method that returns what the caller must do after unlocking. At most one emission is
/// scheduled at a time: a value taken in while none is pending schedules one, and so does the upstream's completion
/// when no value is pending. The emission delivers the pending value, then the completion if the upstream has
/// completed. The scheduler's clock is read outside the lock, so the caller passes the time in.
///
/// The subscriber is part of the phase: the subscription lets go of it once it has ended, when cancelled or once the
/// completion is on its way.
@usableFromInline
struct ThrottleStateMachine<Value, Failure: Error, Time: Strideable, Downstream>: DrainingStateMachine {
  /// Subscribed, and taking values in.
  @usableFromInline
  struct Running {
    @usableFromInline
    var upstream: any Subscription
    @usableFromInline
    var downstream: Downstream
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// When the last value that no completion followed was emitted: the next interval starts there.
    @usableFromInline
    var lastEmission: Time?
    /// The value the scheduled emission delivers; `nil` when no emission is scheduled.
    @usableFromInline
    var pending: Value?

    @inlinable
    init(
      upstream: any Subscription,
      downstream: Downstream,
      demand: Subscribers.Demand = Subscribers.Demand.none,
      lastEmission: Time? = nil,
      pending: Value? = nil
    ) {
      self.upstream = upstream
      self.downstream = downstream
      self.demand = demand
      self.lastEmission = lastEmission
      self.pending = pending
    }
  }

  /// The upstream completed; its completion waits for the scheduled emission, after the pending value if any.
  @usableFromInline
  struct Completing {
    /// Kept until the emission: as in Combine, a cancel meanwhile still reaches the upstream.
    @usableFromInline
    var upstream: any Subscription
    @usableFromInline
    var downstream: Downstream
    @usableFromInline
    var pending: Value?
    @usableFromInline
    var completion: Subscribers.Completion<Failure>

    @inlinable
    init(
      upstream: any Subscription,
      downstream: Downstream,
      pending: Value? = nil,
      completion: Subscribers.Completion<Failure>
    ) {
      self.upstream = upstream
      self.downstream = downstream
      self.pending = pending
      self.completion = completion
    }
  }

  @usableFromInline
  enum Phase {
    case awaitingSubscription(downstream: Downstream)
    case running(Running)
    case completing(Completing)
    /// Cancelled, or the completion is on its way downstream; the subscriber is no longer held.
    case finished
  }

  /// What an emission hands downstream, one at a time and in order.
  @usableFromInline
  typealias Output = Value
  @usableFromInline
  typealias Event = DeliveryEvent<Output, Failure>

  /// What to do about a value taken in.
  @usableFromInline
  enum UpstreamValueAction: Equatable {
    /// Dropped (no demand, or an emission is already pending), or made the pending value of the emission already
    /// scheduled.
    case none
    /// Schedule its emission now: an interval has passed since the last one.
    case emitNow
    /// Schedule its emission at this time, when the interval since the last one ends.
    case emit(at: Time)
  }

  /// The time between emissions.
  @usableFromInline
  let interval: Time.Stride
  /// Whether a value arriving while an emission is pending replaces the pending one.
  @usableFromInline
  let latest: Bool
  @usableFromInline
  var phase: Phase
  @usableFromInline
  var outbox = DeliveryQueue<Event>()

  @inlinable
  init(downstream: Downstream, interval: Time.Stride, latest: Bool) {
    self.phase = .awaitingSubscription(downstream: downstream)
    self.interval = interval
    self.latest = latest
  }

  /// Whether values and the completion from upstream are still taken in.
  @inlinable
  var acceptsEvents: Bool {
    guard case .running = phase else { return false }
    return true
  }

  /// The value the scheduled emission delivers, if any.
  @inlinable
  var pendingValue: Value? {
    switch phase {
    case .running(let running): running.pending
    case .completing(let completing): completing.pending
    case .awaitingSubscription, .finished: nil
    }
  }

  /// The demand left for values not yet taken in.
  @inlinable
  var demand: Subscribers.Demand {
    guard case .running(let running) = phase else { return .none }
    return running.demand
  }

  /// Accepts the upstream subscription and returns the subscriber to hand it to; `nil` for a second one, or one
  /// after a cancel, which the caller cancels.
  @inlinable
  mutating func upstreamSubscribed(_ subscription: any Subscription) -> Downstream? {
    guard case .awaitingSubscription(let downstream) = phase else { return nil }
    phase = .running(Running(upstream: subscription, downstream: downstream))
    return downstream
  }

  /// A value taken in at `now`.
  ///
  /// The demand is spent when its emission is scheduled, not when it is delivered. Returns the pending value that
  /// `value` replaced, if any, to release after unlocking.
  @inlinable
  mutating func upstreamValue(_ value: Value, at now: Time) -> (action: UpstreamValueAction, replaced: Value?) {
    guard case .running(var running) = phase, running.demand > 0 else { return (.none, nil) }
    guard running.pending == nil else {
      guard latest else { return (.none, nil) }
      let replaced = running.pending.take()
      running.pending = value
      phase = .running(running)
      return (.none, replaced)
    }
    running.demand -= 1
    running.pending = value
    phase = .running(running)
    guard let earliest = running.lastEmission?.advanced(by: interval), earliest > now else { return (.emitNow, nil) }
    return (.emit(at: earliest), nil)
  }

  /// The upstream completed; returns whether to schedule an emission for it, which is when none is pending.
  @inlinable
  mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Bool {
    guard case .running(let running) = phase else { return false }
    phase = .completing(
      Completing(
        upstream: running.upstream,
        downstream: running.downstream,
        pending: running.pending,
        completion: completion
      )
    )
    return running.pending == nil
  }

  /// Adds downstream demand, requested or returned from a value; once the upstream has completed it is not needed.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) {
    guard case .running(var running) = phase else { return }
    running.demand += more
    phase = .running(running)
  }

  /// Whether the scheduled emission that is starting must read the clock, which it does for a value that no
  /// completion follows; `nil` when there is nothing to emit.
  @inlinable
  func emissionReadsClock() -> Bool? {
    switch phase {
    case .awaitingSubscription:
      preconditionFailure("Throttle: an emission ran before the upstream subscribed")
    case .running(let running):
      running.pending == nil ? nil : true
    case .completing:
      false
    case .finished:
      nil
    }
  }

  /// The scheduled emission runs; `now` is the clock it read, which starts the next interval.
  ///
  /// Queues the pending value, then the completion if the upstream has completed; returns the subscriber and the
  /// first event when the caller must deliver them now, or `nil` when another call is delivering (it delivers
  /// these too) or there is nothing to emit; and, once the upstream has completed, what the machine let go of, to
  /// release after unlocking.
  @inlinable
  mutating func emit(at now: Time?) -> (delivery: (downstream: Downstream, first: Event)?, released: Completing?) {
    switch phase {
    case .awaitingSubscription:
      preconditionFailure("Throttle: an emission ran before the upstream subscribed")
    case .running(var running):
      guard let value = running.pending.take() else { return (nil, nil) }
      if let now { running.lastEmission = now }
      phase = .running(running)
      return (outbox.push(.value(value)).map { (running.downstream, $0) }, nil)
    case .completing(let completing):
      phase = .finished
      let first = completing.pending.flatMap { outbox.push(.value($0)) }
      let completion = outbox.push(.completion(completing.completion))
      return ((first ?? completion).map { (completing.downstream, $0) }, completing)
    case .finished:
      return (nil, nil)
    }
  }

  /// The next event for the delivering call, or `nil` when it is done.
  @inlinable
  mutating func next() -> Event? {
    outbox.next()
  }

  /// The completion is being delivered, so nothing else will be; the emission that queued it ended the phase.
  ///
  /// Returns what the machine let go of.
  @inlinable
  mutating func deliveringCompletion() -> (Phase, FIFO<Event>) {
    defer { phase = .finished }
    return (phase, outbox.removeAll())
  }

  /// Downstream cancelled: returns the upstream to cancel and the subscriber to release, and what else the machine let
  /// go of (the pending value, what waited to be delivered), all to release after unlocking.
  @inlinable
  mutating func cancel() -> (upstream: (any Subscription)?, downstream: Downstream?, released: (Phase, FIFO<Event>)) {
    let released = (phase, outbox.removeAll())
    phase = .finished
    switch released.0 {
    case .awaitingSubscription(let downstream):
      return (nil, downstream, released)
    case .running(let running):
      return (running.upstream, running.downstream, released)
    case .completing(let completing):
      return (completing.upstream, completing.downstream, released)
    case .finished:
      return (nil, nil, released)
    }
  }
}
