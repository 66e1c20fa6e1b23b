/// The state of one `timeout` subscription: its phase, the running clock, and the events on their way downstream.
///
/// Each event is one mutating method that returns what the caller must do after unlocking. The clock's timer is
/// scheduled outside the lock, so each start of the clock gets a generation number, and the machine keeps the timer,
/// or lets it time the subscription out, only for the latest start while values are still awaited.
@usableFromInline
struct TimeoutStateMachine<Value, Failure: Error>: DrainingStateMachine {
  /// Subscribed, and awaiting values.
  @usableFromInline
  struct Running {
    @usableFromInline
    var upstream: any Subscription
    /// Whether a request has reached the upstream: the first one restarts the clock.
    @usableFromInline
    var hasRequested = false
    /// The running clock's timer, once scheduled.
    @usableFromInline
    var timer: (any Cancellable)?

    @inlinable
    init(upstream: any Subscription, hasRequested: Bool = false, timer: (any Cancellable)? = nil) {
      self.upstream = upstream
      self.hasRequested = hasRequested
      self.timer = timer
    }
  }

  @usableFromInline
  enum Phase {
    case awaitingSubscription
    case running(Running)
    /// The upstream completed, and the clock stopped; the completion is on its way to the scheduler. As in Combine,
    /// the link lasts until the completion is delivered: requests and a cancel meanwhile still reach the upstream.
    case completing(upstream: any Subscription, hasRequested: Bool)
    /// The clock ran out, and the caller is making the time-out's completion. A cancel meanwhile ends the
    /// subscription before that completion is queued, so it is never delivered.
    case timingOut
    /// Timed out, cancelled, or the upstream's completion is being delivered.
    case finished
  }

  /// What the scheduler hands downstream, one at a time and in order.
  @usableFromInline
  typealias Output = Value
  @usableFromInline
  typealias Event = DeliveryEvent<Output, Failure>

  @usableFromInline
  var phase = Phase.awaitingSubscription
  /// Counts the starts of the clock: a timer counts only while it belongs to the latest one.
  @usableFromInline
  var generation: UInt64 = 0
  @usableFromInline
  var outbox = DeliveryQueue<Event>()

  /// Whether values and the completion from upstream are still taken in.
  @inlinable
  var acceptsEvents: Bool {
    guard case .running = phase else { return false }
    return true
  }

  /// A value arrived: it takes its place in the delivery order now, and a scheduler action releases it.
  ///
  /// Returns `false` when the value is ignored (before the subscription, after the completion or the end).
  @inlinable
  mutating func upstreamValue(_ value: Value) -> Bool {
    guard acceptsEvents else { return false }
    outbox.enqueue(.value(value))
    return true
  }

  /// A scheduler action runs: releases the oldest queued event; returns it when the caller must deliver it now.
  @inlinable
  mutating func release() -> Event? {
    if case .finished = phase { return nil }
    return outbox.release()
  }

  /// The running clock's timer, if one is scheduled.
  @inlinable
  var timer: (any Cancellable)? {
    guard case .running(let running) = phase else { return nil }
    return running.timer
  }

  /// The upstream while the link lasts, for the demand a delivered value returns.
  @inlinable
  var upstream: (any Subscription)? {
    switch phase {
    case .running(let running): running.upstream
    case .completing(let upstream, _): upstream
    case .awaitingSubscription, .timingOut, .finished: nil
    }
  }

  /// Accepts the upstream subscription, after which the caller starts the clock.
  ///
  /// Returns `false` for a second one, or one after the subscription ended, which the caller cancels.
  @inlinable
  mutating func upstreamSubscribed(_ subscription: any Subscription) -> Bool {
    guard case .awaitingSubscription = phase else { return false }
    phase = .running(Running(upstream: subscription))
    return true
  }

  /// Starts the clock again, on the subscription, on the first request, and on each value.
  ///
  /// Returns the generation of the new start, for its timer, and the previous timer to cancel.
  @inlinable
  mutating func restartClock() -> (generation: UInt64, cancelling: (any Cancellable)?) {
    generation &+= 1
    switch phase {
    case .awaitingSubscription:
      preconditionFailure("Timeout: the clock started before the upstream subscribed")
    case .running(var running):
      let previous = running.timer.take()
      phase = .running(running)
      return (generation, previous)
    case .completing, .timingOut, .finished:
      return (generation, nil)
    }
  }

  /// Keeps the timer scheduled for the start of `generation`; returns it to cancel if the clock has restarted or
  /// stopped since.
  @inlinable
  mutating func timerScheduled(_ timer: any Cancellable, for generation: UInt64) -> (any Cancellable)? {
    guard generation == self.generation, case .running(var running) = phase else { return timer }
    running.timer = timer
    phase = .running(running)
    return nil
  }

  /// A request from downstream: returns the upstream to forward it to, if the link lasts, and whether it is the
  /// first request to reach the upstream, which restarts the clock.
  @inlinable
  mutating func request() -> (upstream: (any Subscription)?, restartsClock: Bool) {
    switch phase {
    case .awaitingSubscription, .timingOut, .finished:
      return (nil, false)
    case .running(var running):
      let isFirst = !running.hasRequested
      running.hasRequested = true
      phase = .running(running)
      return (running.upstream, isFirst)
    case .completing(let upstream, let hasRequested):
      phase = .completing(upstream: upstream, hasRequested: true)
      return (upstream, !hasRequested)
    }
  }

  /// The upstream completed: the clock stops.
  ///
  /// Returns whether to schedule the completion's delivery, and the clock's timer to cancel.
  @inlinable
  mutating func upstreamCompleted(
    _ completion: Subscribers.Completion<Failure>
  ) -> (schedules: Bool, cancelling: (any Cancellable)?) {
    guard case .running(let running) = phase else { return (false, nil) }
    phase = .completing(upstream: running.upstream, hasRequested: running.hasRequested)
    outbox.enqueue(.completion(completion))
    return (true, running.timer)
  }

  /// The timer of the clock's start `generation` fired.
  ///
  /// Returns, if the subscription timed out, the upstream and the timer to cancel, and the values not yet delivered,
  /// which are dropped, to release after unlocking; the caller then queues the time-out's completion with
  /// ``timedOut(with:)``.
  @inlinable
  mutating func timerFired(
    _ generation: UInt64
  ) -> (upstream: any Subscription, timer: (any Cancellable)?, released: FIFO<Event>)? {
    guard generation == self.generation, case .running(let running) = phase else { return nil }
    phase = .timingOut
    return (running.upstream, running.timer, outbox.removeAll())
  }

  /// Queues the completion of a time-out; returns it when the caller must deliver it now.
  ///
  /// Queues nothing if a cancel came since the timer fired: as with any cancel, nothing reaches the downstream
  /// after it, except a value a delivering call already holds.
  @inlinable
  mutating func timedOut(with completion: Subscribers.Completion<Failure>) -> Event? {
    guard case .timingOut = phase else { return nil }
    phase = .finished
    return outbox.push(.completion(completion))
  }

  /// Downstream cancelled: returns the upstream and the timer to cancel, and what waits to be delivered, which is
  /// dropped, to release after unlocking.
  ///
  /// As in Combine, a cancel before the upstream subscribes does nothing.
  @inlinable
  mutating func cancel() -> (upstream: (any Subscription)?, timer: (any Cancellable)?, released: FIFO<Event>) {
    switch phase {
    case .awaitingSubscription:
      return (nil, nil, FIFO())
    case .running(let running):
      phase = .finished
      return (running.upstream, running.timer, outbox.removeAll())
    case .completing(let upstream, _):
      phase = .finished
      return (upstream, nil, outbox.removeAll())
    case .timingOut, .finished:
      phase = .finished
      return (nil, nil, outbox.removeAll())
    }
  }

  /// The next event for the delivering call, or `nil` when it is done.
  @inlinable
  mutating func next() -> Event? {
    outbox.next()
  }

  /// A completion is being delivered: nothing else will be, and the link ends.
  ///
  /// Returns what the machine let go of.
  @inlinable
  mutating func deliveringCompletion() -> (Phase, FIFO<Event>) {
    defer { phase = .finished }
    return (phase, outbox.removeAll())
  }
}
