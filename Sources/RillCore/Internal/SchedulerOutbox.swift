/// Serializes the events that scheduler actions hand to a downstream.
///
/// A concurrent scheduler may run two actions at once, yet a downstream must never be called concurrently.
/// Each action pushes its event; only the caller that finds the outbox idle delivers, and it then drains, in
/// order, whatever others pushed meanwhile. A re-entrant push (from inside the downstream) is queued too, so
/// the stack never grows. The outbox lives in an operator's `Locked` state.
struct SchedulerOutbox<Event> {
  private var queued: [Event] = []
  private var head = 0
  private var isDraining = false

  /// Returns the event when the caller must deliver it now; otherwise queues it for the current drainer.
  mutating func push(_ event: Event) -> Event? {
    guard !isDraining else {
      queued.append(event)
      return nil
    }
    isDraining = true
    return event
  }

  /// Returns the next event for the drainer to deliver, or `nil` when the drain is over.
  mutating func next() -> Event? {
    guard head < queued.count else {
      queued.removeAll()
      head = 0
      isDraining = false
      return nil
    }
    defer { head += 1 }
    return queued[head]
  }

  /// Drops the queued events; a drain in progress ends at its next call to ``next()``.
  mutating func removeAll() {
    queued.removeAll()
    head = 0
  }
}

/// The events that `ScheduledDeliveryInner` has scheduled and not yet delivered, in order, and who delivers them.
///
/// Each event is scheduled with one action, and each action that runs delivers the oldest queued event; so
/// every scheduled action is one delivery and no action needs to carry its event (no allocation per value).
/// An action that runs while another is delivering (a concurrent scheduler, or a re-entrant one) leaves its
/// turn to that deliverer (`turns`), so the downstream is never called concurrently and events stay in order.
@usableFromInline
struct ScheduledDeliveryQueue<Event> {
  @usableFromInline var events: [Event] = []
  @usableFromInline var head = 0
  @usableFromInline var isDelivering = false
  @usableFromInline var turns = 0

  @inlinable
  init() {}

  /// Queues an event whose action the caller schedules next.
  @inlinable
  mutating func append(_ event: Event) {
    events.append(event)
  }

  /// An action ran: returns the event it must deliver now, or `nil` when another caller is delivering (and
  /// will deliver one more event in its place) or nothing is queued.
  @inlinable
  mutating func actionRan() -> Event? {
    guard !isDelivering else {
      turns += 1
      return nil
    }
    guard let event = pop() else { return nil }
    isDelivering = true
    return event
  }

  /// The deliverer delivered an event: returns the next event it must deliver for an action that ran
  /// meanwhile, or `nil` when its delivery is over.
  @inlinable
  mutating func delivered() -> Event? {
    if turns > 0, let event = pop() {
      turns -= 1
      return event
    }
    turns = 0
    isDelivering = false
    return nil
  }

  /// Drops the queued events; a delivery in progress ends at its next call to ``delivered()``.
  @inlinable
  mutating func removeAll() {
    events.removeAll()
    head = 0
    turns = 0
  }

  @inlinable
  mutating func pop() -> Event? {
    guard head < events.count else { return nil }
    let event = events[head]
    head += 1
    if head == events.count {
      events.removeAll(keepingCapacity: true)
      head = 0
    }
    return event
  }
}

/// The subscription of `receive(on:)` and `delay(for:)`: hands each value and the completion to a scheduler,
/// which delivers them, one at a time and in order, to the downstream.
///
/// Each event is scheduled with its own action, as Combine does; the event waits in a queue, and each action
/// delivers the oldest one, so scheduling allocates nothing in Rill beyond what the scheduler itself needs.
/// Demand goes straight upstream; the demand the downstream returns from a scheduled value is requested
/// upstream after delivery. After a cancel, actions already scheduled deliver nothing.
// SAFETY: all mutable state is in `state`; downstream, upstream and the scheduler are called outside the lock.
@usableFromInline
final class ScheduledDeliveryInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  @usableFromInline typealias Input = Downstream.Input
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline
  enum Event {
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
  }

  @usableFromInline
  struct State {
    @usableFromInline var link = SubscriptionState.awaitingSubscription
    @usableFromInline var isFinished = false
    @usableFromInline var queue = ScheduledDeliveryQueue<Event>()

    @inlinable
    init() {}
  }

  @usableFromInline let downstream: Downstream
  @usableFromInline let schedule: (@escaping () -> Void) -> Void
  @usableFromInline let state = Locked(State())
  @usableFromInline let description: String

  /// Creates the subscription; `schedule` hands an action to the scheduler, now or after a delay.
  @inlinable
  init(downstream: Downstream, name: String, schedule: @escaping (@escaping () -> Void) -> Void) {
    self.downstream = downstream
    self.schedule = schedule
    self.description = name
  }

  @usableFromInline var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

  @usableFromInline var playgroundDescription: Any { description }

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
    let isQueued = state.withLock { state -> Bool in
      guard state.link.upstream != nil else { return false }
      state.queue.append(.value(input))
      return true
    }
    if isQueued {
      schedule { self.actionRan() }
    }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    let isQueued = state.withLock { state -> Bool in
      guard state.link.terminate() != nil else { return false }
      state.queue.append(.completion(completion))
      return true
    }
    if isQueued {
      schedule { self.actionRan() }
    }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(description): a subscriber requested \(demand); demand must be greater than zero")
    state.withLock { $0.link.upstream }?.request(demand)
  }

  @inlinable
  func cancel() {
    let upstream = state.withLock { state -> (any Subscription)? in
      state.isFinished = true
      state.queue.removeAll()
      return state.link.terminate()
    }
    upstream?.cancel()
  }

  /// One scheduled action: delivers the oldest queued event, and then any left by actions that ran meanwhile.
  @inlinable
  func actionRan() {
    var next = state.withLock { $0.isFinished ? nil : $0.queue.actionRan() }
    while let event = next {
      switch event {
      case .value(let value):
        let demand = downstream.receive(value)
        if demand > 0 {
          state.withLock { $0.link.upstream }?.request(demand)
        }
      case .completion(let completion):
        state.withLock { state in
          state.isFinished = true
          state.queue.removeAll()
        }
        downstream.receive(completion: completion)
      }
      next = state.withLock { $0.queue.delivered() }
    }
  }
}
