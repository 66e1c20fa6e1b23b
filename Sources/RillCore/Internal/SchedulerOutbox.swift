/// Serializes, in arrival order, the events that scheduler actions hand to a downstream.
///
/// A concurrent scheduler may run two actions at once, or in another order than they were scheduled, yet a
/// downstream must never be called concurrently, nor see events out of order. An event is queued when it
/// arrives (``enqueue(_:)``), and each action that runs releases one event (``release()``): the oldest one
/// not yet released, whichever action it is. Only the caller that finds the outbox idle delivers: it then
/// drains, in order, whatever others released meanwhile. A re-entrant release (from inside the downstream) is
/// left to the drain in progress, so the stack never grows. The outbox lives in an operator's `Locked` state.
///
/// Because an action carries no event of its own, it can capture nothing but its operator, which costs no
/// allocation.
@usableFromInline
struct SchedulerOutbox<Event> {
  /// `events[head...]` are queued in arrival order; the first `released` of them may be delivered.
  @usableFromInline var events: [Event?] = []
  @usableFromInline var head = 0
  @usableFromInline var released = 0
  @usableFromInline var isDraining = false

  /// Queues an event that has just arrived, fixing its place in the delivery order; an action releases it.
  @inlinable
  mutating func enqueue(_ event: Event) {
    events.append(event)
  }

  /// Releases the oldest queued event; returns the next event when the caller must deliver it now.
  @inlinable
  mutating func release() -> Event? {
    // Events dropped by `removeAll()` stay dropped: their actions find nothing left to release.
    guard head + released < events.count else { return nil }
    released += 1
    guard !isDraining else { return nil }
    return takeNext()
  }

  /// Queues and releases an event at once: its place in the order is the moment it is pushed.
  @inlinable
  mutating func push(_ event: Event) -> Event? {
    enqueue(event)
    return release()
  }

  /// Returns the next event for the drainer to deliver, or `nil` when the drain is over.
  @inlinable
  mutating func next() -> Event? {
    takeNext()
  }

  /// Drops the queued events; a drain in progress ends at its next call to ``next()``.
  @inlinable
  mutating func removeAll() {
    events.removeAll(keepingCapacity: true)
    head = 0
    released = 0
  }

  @inlinable
  mutating func takeNext() -> Event? {
    guard released > 0, let event = events[head] else {
      isDraining = false
      return nil
    }
    events[head] = nil
    head += 1
    released -= 1
    if head == events.count {
      events.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 64, head * 2 >= events.count {
      // Amortised: each compaction moves fewer events than were taken since the last one.
      events.removeFirst(head)
      head = 0
    }
    isDraining = true
    return event
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
  enum Event {
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
  }

  @usableFromInline
  struct State {
    @usableFromInline var link = SubscriptionState.awaitingSubscription
    /// Whether the upstream's completion has arrived; the link lasts until it is delivered.
    @usableFromInline var hasUpstreamCompleted = false
    @usableFromInline var isFinished = false
    /// Whether downstream cancelled while the upstream's completion waited to be delivered: the values queued before
    /// it are then released in turn but not delivered.
    @usableFromInline var isCancelled = false
    @usableFromInline var outbox = SchedulerOutbox<Event>()

    @inlinable
    init() {}

    /// Releases the oldest queued event for a scheduled action; returns it when the action must deliver it now, with
    /// whether downstream has cancelled.
    @inlinable
    mutating func release() -> (Event, isCancelled: Bool)? {
      guard !isFinished, let event = outbox.release() else { return nil }
      return (event, isCancelled)
    }

    /// Returns the next event of a drain in progress, with whether downstream has cancelled.
    @inlinable
    mutating func next() -> (Event, isCancelled: Bool)? {
      outbox.next().map { ($0, isCancelled) }
    }
  }

  @usableFromInline let downstream: Downstream
  @usableFromInline let schedule: (@escaping () -> Void) -> Void
  @usableFromInline let state = Locked(State())

  /// Schedules one delivery through an action prepared once, when the scheduler can prepare one
  /// (``RepeatedActionScheduler``); otherwise `nil`, and each delivery goes through `schedule`.
  ///
  /// Set in `init` only, before the subscription is shared, and only read afterwards.
  @exclusivity(unchecked)
  @usableFromInline var scheduleDelivery: (() -> Void)?

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
    // Each delivery scheduled holds this subscription (the `retain()` below) until its action has run and
    // released it, and the subscription holds the prepared action. Capturing `self` strongly instead would make
    // a cycle that nothing breaks for a pipeline that never terminates.
    let unretained = Unmanaged.passUnretained(self)
    let deliver = prepare { unretained.takeRetainedValue().deliverNext() }
    scheduleDelivery = {
      _ = unretained.retain()
      deliver()
    }
  }

  /// Schedules one action that delivers the oldest event not yet delivered.
  @inlinable
  func scheduleDeliverNext() {
    if let scheduleDelivery {
      scheduleDelivery()
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
    let isQueued = state.withLock { state in
      guard state.link.isSubscribed, !state.hasUpstreamCompleted else { return false }
      state.outbox.enqueue(.value(input))
      return true
    }
    if isQueued {
      scheduleDeliverNext()
    }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    let isQueued = state.withLock { state in
      guard state.link.isSubscribed, !state.hasUpstreamCompleted else { return false }
      state.hasUpstreamCompleted = true
      state.outbox.enqueue(.completion(completion))
      return true
    }
    if isQueued {
      scheduleDeliverNext()
    }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    state.withLock { $0.hasUpstreamCompleted ? nil : $0.link.upstream }?.request(demand)
  }

  @inlinable
  func cancel() {
    let upstream = state.withLock { state -> (any Subscription)? in
      guard !state.link.isAwaitingSubscription else { return nil }
      let upstream = state.link.terminate()
      // An upstream that has completed is not called again, and its completion, if not yet delivered, still is.
      if state.hasUpstreamCompleted {
        state.isCancelled = true
        return nil
      }
      state.isFinished = true
      state.outbox.removeAll()
      return upstream
    }
    upstream?.cancel()
  }

  /// One scheduled action: releases the oldest queued event, and delivers it unless a drain is in progress.
  @inlinable
  func deliverNext() {
    var next = state.withLock { $0.release() }
    while let (event, isCancelled) = next {
      switch event {
      case .value(let value):
        guard !isCancelled else { break }
        let demand = downstream.receive(value)
        if demand > 0 {
          state.withLock { $0.link.upstream }?.request(demand)
        }
      case .completion(let completion):
        state.withLock { state in
          state.isFinished = true
          state.outbox.removeAll()
          _ = state.link.terminate()
        }
        downstream.receive(completion: completion)
      }
      next = state.withLock { $0.next() }
    }
  }
}

extension ScheduledDeliveryInner: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Kind == ReceiveOnDelivery {
  @usableFromInline var description: String { "ReceiveOn" }

  @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline var playgroundDescription: Any { description }
}
