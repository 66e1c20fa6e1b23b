/// The state of one `collect(.byTime)` or `collect(.byTimeOrCount)` subscription: its phase, the values collected,
/// the downstream's demand, and the arrays and completion on their way downstream.
///
/// Each event is one mutating method that returns what the caller must do after unlocking. An array is taken only
/// when the downstream has demand for it; what the upstream leaves when it finishes waits for that demand, then the
/// completion follows. An array is queued for delivery in the same step that takes it from the buffer, so that a
/// tick of the clock racing with a value that fills the buffer cannot deliver their arrays out of order.
///
/// As in Combine, everything reaches the downstream through the scheduler: a tick delivers what it takes, and an
/// array completed by the count, the upstream's completion and what is left when it finishes are queued for a
/// scheduler action, each action releasing the oldest queued event.
@usableFromInline
struct CollectByTimeStateMachine<Value, Failure: Error>: DrainingStateMachine {
  /// Subscribed, and collecting.
  @usableFromInline
  struct Running {
    @usableFromInline
    var upstream: any Subscription
    @usableFromInline
    var buffer: [Value] = []
    /// The repeating clock's timer, once scheduled.
    @usableFromInline
    var timer: (any Cancellable)?

    @inlinable
    init(upstream: any Subscription, buffer: [Value] = [], timer: (any Cancellable)? = nil) {
      self.upstream = upstream
      self.buffer = buffer
      self.timer = timer
    }
  }

  @usableFromInline
  enum Phase {
    case awaitingSubscription
    case running(Running)
    /// The upstream finished while more was collected than the downstream had demand for: the rest waits for
    /// demand, then the completion follows. `buffer` is never empty.
    case holding(buffer: [Value], completion: Subscribers.Completion<Failure>)
    /// The upstream completed and nothing is left to emit; the completion is on its way downstream.
    case completing
    /// Cancelled, or the completion is being delivered. Also an upstream's completion before its subscription,
    /// after which nothing is taken in.
    case finished
  }

  /// What is handed downstream, one at a time and in order.
  @usableFromInline
  typealias Output = [Value]
  @usableFromInline
  typealias Event = DeliveryEvent<Output, Failure>

  /// What to do with a value from the upstream.
  @usableFromInline
  enum UpstreamValueAction {
    /// The value was not taken in: the subscription has not started or has ended.
    case ignored
    /// The value was collected.
    case collected
    /// The value completed an array, which is queued: schedule an action to release it.
    case scheduleDelivery
  }

  /// The most values an array holds: the count of `.byTimeOrCount`, unbounded for `.byTime`.
  @usableFromInline
  let limit: Int
  @usableFromInline
  var phase = Phase.awaitingSubscription
  @usableFromInline
  var demand = Subscribers.Demand.none
  @usableFromInline
  var outbox = DeliveryQueue<Event>()

  @inlinable
  init(limit: Int) {
    self.limit = limit
  }

  /// The values collected and not yet emitted.
  @inlinable
  var buffer: [Value] {
    switch phase {
    case .running(let running): running.buffer
    case .holding(let buffer, _): buffer
    case .awaitingSubscription, .completing, .finished: []
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

  /// Keeps the clock's timer; returns it to cancel if the subscription has ended meanwhile.
  @inlinable
  mutating func timerScheduled(_ timer: any Cancellable) -> (any Cancellable)? {
    guard var running = takeRunning() else { return timer }
    running.timer = timer
    phase = .running(running)
    return nil
  }

  /// Collects a value; when the buffer is full and the downstream has demand, queues an array for a scheduler action.
  @inlinable
  mutating func upstreamValue(_ value: Value) -> UpstreamValueAction {
    guard var running = takeRunning() else { return .ignored }
    defer { phase = .running(running) }
    running.buffer.append(value)
    guard running.buffer.count >= limit, let batch = takeBatch(from: &running.buffer) else { return .collected }
    outbox.enqueue(.value(batch))
    return .scheduleDelivery
  }

  /// A scheduler action runs: releases the oldest queued event; returns it when the caller must deliver it now.
  @inlinable
  mutating func release() -> Event? {
    outbox.release()
  }

  /// The clock ticked; queues an array if anything was collected and the downstream has demand, and returns it if the
  /// caller must deliver it now.
  @inlinable
  mutating func timerFired() -> Event? {
    switch phase {
    case .awaitingSubscription:
      preconditionFailure("CollectByTime: the clock ticked before the upstream subscribed")
    case .running:
      guard var running = takeRunning() else { return nil }
      defer { phase = .running(running) }
      return queue(takeBatch(from: &running.buffer), then: nil)
    case .holding, .completing, .finished:
      return nil
    }
  }

  /// The upstream completed; returns the clock's timer to cancel and how many scheduler actions to schedule, one per
  /// queued event (the last array if there is demand for it, then the completion unless it is held with what is
  /// left), with what the machine let go of (the upstream's subscription, what a failure drops) to release after
  /// unlocking; or `nil` when the upstream had completed already or the subscription has ended.
  ///
  /// A failure drops what was collected. On `.finished`, what is left is queued first, as far as demand allows;
  /// the rest is held, with the completion, until the downstream requests more.
  @inlinable
  mutating func upstreamCompleted(
    _ completion: Subscribers.Completion<Failure>
  ) -> (timer: (any Cancellable)?, actions: Int, released: Running)? {
    switch phase {
    case .awaitingSubscription:
      phase = .finished
      return nil
    case .running:
      guard var running = takeRunning() else { return nil }
      guard case .finished = completion, !running.buffer.isEmpty else {
        phase = .completing
        outbox.enqueue(.completion(completion))
        return (running.timer, 1, running)
      }
      var actions = 0
      while let batch = takeBatch(from: &running.buffer) {
        outbox.enqueue(.value(batch))
        actions += 1
      }
      guard running.buffer.isEmpty else {
        phase = .holding(buffer: running.buffer, completion: completion)
        running.buffer = []
        return (running.timer, actions, running)
      }
      phase = .completing
      outbox.enqueue(.completion(completion))
      return (running.timer, actions + 1, running)
    case .holding, .completing, .finished:
      return nil
    }
  }

  /// Downstream requested more arrays; returns the upstream, which the caller asks for `count` values per array
  /// with `.byTimeOrCount`, then releases what is held with ``flushHeld()``.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
    demand += more
    guard case .running(let running) = phase else { return nil }
    return running.upstream
  }

  /// Demand a delivered array returned; returns the upstream, as ``request(_:)`` does, and whether something is
  /// held for want of demand, which the caller then releases with ``flushHeld()``.
  @inlinable
  mutating func delivered(_ more: Subscribers.Demand) -> (upstream: (any Subscription)?, isHolding: Bool) {
    let upstream = request(more)
    guard case .holding = phase else { return (upstream, false) }
    return (upstream, true)
  }

  /// Queues what is held for want of demand, as far as demand allows: an array per value of demand, then, once
  /// nothing is left, the completion; returns the first event when the caller must deliver it now.
  @inlinable
  mutating func flushHeld() -> Event? {
    guard case .holding(var buffer, let completion) = phase else { return nil }
    // Leaves the phase first, so that the buffer is changed in place, not copied.
    phase = .completing
    var first: Event?
    while let batch = takeBatch(from: &buffer) {
      let event = queue(batch, then: nil)
      if first == nil { first = event }
    }
    guard buffer.isEmpty else {
      phase = .holding(buffer: buffer, completion: completion)
      return first
    }
    let event = queue(nil, then: completion)
    return first ?? event
  }

  /// Downstream cancelled: returns the upstream and the clock's timer to cancel, and what was collected and what
  /// waits to be delivered, which are dropped, to release after unlocking.
  @inlinable
  mutating func cancel() -> (upstream: (any Subscription)?, timer: (any Cancellable)?, released: (Phase, FIFO<Event>)) {
    let released = (phase, outbox.removeAll())
    phase = .finished
    guard case .running(let running) = released.0 else { return (nil, nil, released) }
    return (running.upstream, running.timer, released)
  }

  /// The next event for the delivering call, or `nil` when it is done.
  @inlinable
  mutating func next() -> Event? {
    outbox.next()
  }

  /// The completion is being delivered: nothing else will be.
  ///
  /// Returns what the machine let go of.
  @inlinable
  mutating func deliveringCompletion() -> (Phase, FIFO<Event>) {
    defer { phase = .finished }
    return (phase, outbox.removeAll())
  }

  /// Queues an array, then a completion, each if any; returns the first event when the caller must deliver it now,
  /// or `nil` when another call is delivering (it delivers these too).
  @inlinable
  mutating func queue(_ batch: [Value]?, then completion: Subscribers.Completion<Failure>?) -> Event? {
    let first = batch.flatMap { outbox.push(.value($0)) }
    let second = completion.flatMap { outbox.push(.completion($0)) }
    return first ?? second
  }

  /// Moves the running phase's payload out, leaving the phase `.finished` until the caller puts it back, so that the
  /// buffer is changed in place, not copied.
  @inlinable
  mutating func takeRunning() -> Running? {
    guard case .running(let running) = phase else { return nil }
    phase = .finished
    return running
  }

  /// Takes an array of up to `limit` values from `buffer` when the downstream has demand for it.
  @inlinable
  mutating func takeBatch(from buffer: inout [Value]) -> [Value]? {
    guard !buffer.isEmpty, demand > 0 else { return nil }
    demand -= 1
    guard buffer.count > limit else {
      defer { buffer = [] }
      return buffer
    }
    defer { buffer.removeFirst(limit) }
    return Array(buffer.prefix(limit))
  }
}
