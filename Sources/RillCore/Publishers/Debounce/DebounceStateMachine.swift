/// The state of one `debounce` subscription: its phase, the value waiting for its timer, downstream demand, and the
/// events on their way downstream.
///
/// Each event is one mutating method that returns what the caller must do after unlocking. The timer of a
/// pending value is scheduled outside the lock, so the machine hands out a generation number with each value and
/// accepts the timer, or a timer firing, only for the value still pending with that number.
@usableFromInline
struct DebounceStateMachine<Value, Failure: Error>: DrainingStateMachine {
  /// A value waiting for its due time.
  @usableFromInline
  struct Pending {
    @usableFromInline
    var value: Value
    @usableFromInline
    var generation: UInt64
    /// Its timer, once scheduled.
    @usableFromInline
    var timer: (any Cancellable)?

    @inlinable
    init(value: Value, generation: UInt64, timer: (any Cancellable)? = nil) {
      self.value = value
      self.generation = generation
      self.timer = timer
    }
  }

  @usableFromInline
  enum Phase {
    case awaitingSubscription
    /// Subscribed; `pending` is the latest value, waiting for its due time.
    case running(upstream: any Subscription, pending: Pending?)
    /// The upstream completed; its completion is on its way to the scheduler.
    case completing
    /// Cancelled, or the completion was delivered.
    case finished
  }

  /// What the scheduler hands downstream, one at a time and in order.
  @usableFromInline
  typealias Output = Value
  @usableFromInline
  typealias Event = DeliveryEvent<Output, Failure>

  @usableFromInline
  enum TimerFiredAction {
    /// The value is queued for delivery: cancel its timer, whose interval would fire again, then deliver `first`
    /// and what follows it, unless `first` is `nil` because another call is delivering (it delivers the value).
    case deliver(first: Event?, cancelling: (any Cancellable)?)
    /// No demand: the value is dropped; cancel its timer, and release the value after unlocking.
    case drop(Value, cancelling: (any Cancellable)?)
    /// A stale timer: nothing to do.
    case none
  }

  @usableFromInline
  var phase = Phase.awaitingSubscription
  @usableFromInline
  var demand = Subscribers.Demand.none
  @usableFromInline
  var generation: UInt64 = 0
  @usableFromInline
  var outbox = DeliveryQueue<Event>()

  /// The value waiting for its due time, if any.
  @inlinable
  var pendingValue: Value? {
    guard case .running(_, let pending) = phase else { return nil }
    return pending?.value
  }

  /// Accepts the upstream subscription; `false` for a second one, or one after a cancel, which the caller cancels.
  @inlinable
  mutating func upstreamSubscribed(_ subscription: any Subscription) -> Bool {
    guard case .awaitingSubscription = phase else { return false }
    phase = .running(upstream: subscription, pending: nil)
    return true
  }

  /// Makes `value` the pending one.
  ///
  /// Returns its generation, for its timer, and the previous pending value with its timer to cancel, to release
  /// after unlocking; `nil` when the value is ignored.
  @inlinable
  mutating func upstreamValue(_ value: Value) -> (generation: UInt64, replaced: Pending?)? {
    guard case .running(let upstream, let previous) = phase else { return nil }
    generation &+= 1
    phase = .running(upstream: upstream, pending: Pending(value: value, generation: generation, timer: nil))
    return (generation, previous)
  }

  /// Keeps the timer scheduled for the value of `generation`; returns it to cancel if that value is no longer
  /// pending.
  @inlinable
  mutating func timerScheduled(_ timer: any Cancellable, for generation: UInt64) -> (any Cancellable)? {
    guard case .running(let upstream, var pending?) = phase, pending.generation == generation else { return timer }
    pending.timer = timer
    phase = .running(upstream: upstream, pending: pending)
    return nil
  }

  /// The timer of the value of `generation` fired.
  ///
  /// The value takes its place in the delivery order now, under the lock that makes it due, so a value made due
  /// later on another thread of the scheduler cannot overtake it.
  @inlinable
  mutating func timerFired(_ generation: UInt64) -> TimerFiredAction {
    guard case .running(let upstream, let pending?) = phase, pending.generation == generation else { return .none }
    phase = .running(upstream: upstream, pending: nil)
    guard demand > 0 else { return .drop(pending.value, cancelling: pending.timer) }
    demand -= 1
    return .deliver(first: outbox.push(.value(pending.value)), cancelling: pending.timer)
  }

  /// The upstream completed; as in Combine, a pending value is dropped.
  ///
  /// Returns whether to schedule the completion, and what the machine let go of: the upstream's subscription, and
  /// the pending value with its timer to cancel.
  @inlinable
  mutating func upstreamCompleted() -> (schedules: Bool, released: (upstream: any Subscription, pending: Pending?)?) {
    guard case .running(let upstream, let pending) = phase else { return (false, nil) }
    phase = .completing
    return (true, (upstream, pending))
  }

  @inlinable
  mutating func request(_ more: Subscribers.Demand) {
    demand += more
  }

  /// Downstream cancelled; returns the upstream and the timer to cancel, and what waited to be delivered, to release
  /// after unlocking.
  @inlinable
  mutating func cancel() -> (upstream: (any Subscription)?, pending: Pending?, released: FIFO<Event>) {
    let released = outbox.removeAll()
    guard case .running(let upstream, let pending) = phase else {
      phase = .finished
      return (nil, nil, released)
    }
    phase = .finished
    return (upstream, pending, released)
  }

  /// Queues an event that a scheduler action hands over; returns the next event when the caller must deliver it
  /// now, or `nil` when another call is delivering (it delivers this one too) or the subscription has finished.
  @inlinable
  mutating func push(_ event: Event) -> Event? {
    if case .finished = phase { return nil }
    return outbox.push(event)
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
}
