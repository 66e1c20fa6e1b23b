/// A function that schedules an action prepared once (``RepeatedActionScheduler``), in a struct rather than as a
/// bare function value (a closure in a struct: WritingAnOperator.md, "Hot-path idioms").
@usableFromInline
struct PreparedAction {
  @usableFromInline let schedule: () -> Void

  @inlinable
  init(schedule: @escaping () -> Void) {
    self.schedule = schedule
  }
}

/// Marks a ``ScheduledDeliveryInner`` as `receive(on:)`'s subscription, which describes itself as Combine's does.
@usableFromInline
enum ReceiveOnDelivery {}

/// Marks a ``ScheduledDeliveryInner`` as `delay(for:)`'s subscription, which, as in Combine, has no description,
/// mirror or playground description of its own.
@usableFromInline
enum DelayDelivery {}

/// The subscription of `receive(on:)` and `delay(for:)`: hands each value and the completion to a scheduler,
/// which delivers them, one at a time and in order, to the downstream.
///
/// Demand goes straight upstream; the demand the downstream returns from a scheduled value is requested
/// upstream after delivery, also while the upstream's completion waits to be delivered, as in Combine. After a
/// cancel, actions already scheduled deliver no value; as in Combine, an upstream completion already scheduled is
/// still delivered by its own action, and the subscription (with its downstream) lives until then. A cancel before
/// the upstream's subscription arrives does nothing, as in Combine: the subscription is then taken as usual.
///
/// `Kind` (``ReceiveOnDelivery`` or ``DelayDelivery``) only selects the conformances that describe the subscription.
// SAFETY: all mutable state is in `state`; downstream, upstream and the scheduler are called outside the lock.
@usableFromInline
final class ScheduledDeliveryInner<Downstream: Subscriber, Kind>: Subscriber, Subscription, @unchecked Sendable {
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  typealias Event = DeliveryEvent<Input, Failure>

  /// Where the subscription is on its way to its end.
  @usableFromInline
  enum Phase: UInt8 {
    /// Values and the completion are accepted from upstream.
    case running
    /// The upstream's completion is queued; the link lasts until it is delivered.
    case completing
    /// Downstream cancelled while the upstream's completion waited to be delivered: the values queued before it are
    /// released in turn but not delivered, and the completion is.
    case completingAfterCancel
    /// Cancelled before the upstream completed, or the completion was delivered: nothing more goes downstream.
    case finished
  }

  @usableFromInline
  struct State: DrainingStateMachine {
    @usableFromInline
    typealias Output = Input

    @usableFromInline var link = SubscriptionState.awaitingSubscription
    @usableFromInline var phase = Phase.running
    @usableFromInline var outbox = DeliveryQueue<Event>()
    /// The action prepared once for the scheduler (``RepeatedActionScheduler``), or `nil` if it offers none.
    @usableFromInline var prepared: PreparedAction?
    /// Actions scheduled and not yet run.
    @usableFromInline var scheduled = 0
    /// The subscription itself while actions are scheduled: the prepared action does not hold it, so that a
    /// pipeline that never ends is freed with its upstream, and this keeps it alive until they have run.
    @usableFromInline var keepAlive: ScheduledDeliveryInner?

    @inlinable
    init() {}

    /// Counts an action about to be scheduled; returns the prepared action to schedule, if any.
    @inlinable
    mutating func schedule(_ subscription: ScheduledDeliveryInner) -> PreparedAction? {
      scheduled += 1
      if keepAlive == nil { keepAlive = subscription }
      return prepared
    }

    /// Releases the oldest queued event for a scheduled action that has started to run; returns it when the action
    /// must deliver it now, and the subscription's hold on itself once no action is left, for the caller to release
    /// outside the lock.
    @inlinable
    mutating func release() -> (first: Event?, keptAlive: ScheduledDeliveryInner?) {
      scheduled -= 1
      let keptAlive = scheduled == 0 ? keepAlive.take() : nil
      guard phase != .finished, let event = outbox.release() else { return (nil, keptAlive) }
      return (skippingAfterCancel(event), keptAlive)
    }

    /// Returns the next event of a drain in progress.
    @inlinable
    mutating func next() -> Event? {
      guard let event = outbox.next() else { return nil }
      return skippingAfterCancel(event)
    }

    /// The upstream's completion is being delivered: nothing follows it, and the link ends.
    ///
    /// Returns the events still queued and the upstream's subscription, for the drainer to release after unlocking.
    @inlinable
    mutating func deliveringCompletion() -> (FIFO<Event>, (any Subscription)?) {
      phase = .finished
      return (outbox.removeAll(), link.terminate())
    }

    /// `event`, or, for a value released after downstream cancelled, the same value marked as not to be delivered.
    @inlinable
    func skippingAfterCancel(_ event: Event) -> Event {
      guard phase == .completingAfterCancel, case .value(let value) = event else { return event }
      return .dropped(value)
    }

    /// Downstream cancelled: returns the upstream to cancel, and what the state let go of (the queued events, the
    /// upstream's subscription when it has completed), to release after unlocking.
    @inlinable
    mutating func cancel() -> (cancelling: (any Subscription)?, released: (FIFO<Event>, (any Subscription)?)) {
      guard !link.isAwaitingSubscription else { return (nil, (FIFO(), nil)) }
      let upstream = link.terminate()
      switch phase {
      case .running:
        phase = .finished
        return (upstream, (outbox.removeAll(), nil))
      case .completing:
        // An upstream that has completed is not called again, and its completion, if not yet delivered, still is.
        phase = .completingAfterCancel
        return (nil, (FIFO(), upstream))
      case .completingAfterCancel, .finished:
        return (nil, (FIFO(), upstream))
      }
    }
  }

  @usableFromInline let downstream: Downstream
  @usableFromInline let schedule: (@escaping () -> Void) -> Void
  @usableFromInline let state = Locked(State())

  /// Creates the subscription; `schedule` hands an action to the scheduler, now or after a delay; `prepare`,
  /// when the scheduler offers it, turns the one action this subscription ever schedules into a function that
  /// schedules it again.
  @inlinable
  init(
    downstream: Downstream,
    kind: Kind.Type,
    schedule: @escaping (@escaping () -> Void) -> Void,
    prepare: ((@escaping () -> Void) -> () -> Void)? = nil
  ) {
    self.downstream = downstream
    self.schedule = schedule
    guard let prepare else { return }
    // Unowned, so that the action does not keep the subscription alive. The action runs only when scheduled, and
    // `State.schedule(_:)` keeps the subscription alive until every scheduled action has run. A weak reference
    // would move the subscription's reference counts to a side table, which makes every retain and release of it
    // slower.
    unowned let subscription = self
    let prepared = PreparedAction(schedule: prepare { subscription.deliverNext() })
    state.withLock { $0.prepared = prepared }
  }

  /// Schedules one action that delivers the oldest event not yet delivered; `prepared` is the state's prepared
  /// action, taken with ``State/schedule(_:)``.
  @inlinable
  func scheduleDeliverNext(_ prepared: PreparedAction?) {
    if let prepared {
      prepared.schedule()
    } else {
      schedule { self.deliverNext() }
    }
  }

  @inlinable
  func receive(subscription: any Subscription) {
    guard state.withLock({ $0.link.subscribe(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    let (isQueued, prepared) = state.withLock { state -> (Bool, PreparedAction?) in
      guard state.link.isSubscribed, state.phase == .running else { return (false, nil) }
      state.outbox.enqueue(.value(input))
      return (true, state.schedule(self))
    }
    if isQueued {
      scheduleDeliverNext(prepared)
    }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    let (isQueued, prepared) = state.withLock { state -> (Bool, PreparedAction?) in
      guard state.link.isSubscribed, state.phase == .running else { return (false, nil) }
      state.phase = .completing
      state.outbox.enqueue(.completion(completion))
      return (true, state.schedule(self))
    }
    if isQueued {
      scheduleDeliverNext(prepared)
    }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    state.withLock { $0.phase == .running ? $0.link.upstream : nil }?.request(demand)
  }

  @inlinable
  func cancel() {
    let (upstream, released) = state.withLock { $0.cancel() }
    upstream?.cancel()
    _ = released
  }

  /// One scheduled action: releases the oldest queued event, and delivers it unless a drain is in progress.
  @inlinable
  func deliverNext() {
    let (first, keptAlive) = state.withLock { $0.release() }
    // This call holds the subscription; the hold it had on itself goes here, outside the lock.
    _ = keptAlive
    state.drain(first, to: downstream) { demand in state.withLock { $0.link.upstream }?.request(demand) }
  }
}

extension ScheduledDeliveryInner: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  CombineDescribable
where Kind == ReceiveOnDelivery {
  @usableFromInline var description: String { "ReceiveOn" }
}
