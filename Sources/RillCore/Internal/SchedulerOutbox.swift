/// Serializes, in arrival order, the events that scheduler actions hand to a downstream.
///
/// A concurrent scheduler may run two actions at once, or in another order than they were scheduled, yet a
/// downstream must never be called concurrently, nor see events out of order. Each event takes a ticket when it
/// arrives; each action pushes its event with that ticket, and only the caller that finds the outbox idle, with
/// the next ticket's event present, delivers: it then drains, in ticket order, whatever others pushed
/// meanwhile. An event that runs ahead of an earlier one waits for it. A re-entrant push (from inside the
/// downstream) is queued too, so the stack never grows. The outbox lives in an operator's `Locked` state.
@usableFromInline
struct SchedulerOutbox<Event> {
  /// `slots[i]` holds the event with ticket `base + i` once its action has run; `head` is the next to deliver.
  @usableFromInline var slots: [Event?] = []
  @usableFromInline var head = 0
  @usableFromInline var base = 0
  @usableFromInline var nextTicket = 0
  @usableFromInline var isDraining = false

  /// The ticket of an event that has just arrived, fixing its place in the delivery order.
  @inlinable
  mutating func ticket() -> Int {
    defer { nextTicket += 1 }
    return nextTicket
  }

  /// Returns the next event in order when the caller must deliver it now; otherwise keeps `event` for the drainer.
  @inlinable
  mutating func push(_ event: Event, ticket: Int) -> Event? {
    let index = ticket - base
    guard index >= head else { return nil }
    while slots.count <= index { slots.append(nil) }
    slots[index] = event
    guard !isDraining else { return nil }
    return takeNext()
  }

  /// Pushes an event whose place in the order is the moment it is pushed.
  @inlinable
  mutating func push(_ event: Event) -> Event? {
    push(event, ticket: ticket())
  }

  /// Returns the next event for the drainer to deliver, or `nil` when the drain is over.
  @inlinable
  mutating func next() -> Event? {
    takeNext()
  }

  /// Drops the queued events; a drain in progress ends at its next call to ``next()``.
  @inlinable
  mutating func removeAll() {
    base += slots.count
    slots.removeAll()
    head = 0
  }

  @inlinable
  mutating func takeNext() -> Event? {
    guard head < slots.count, let event = slots[head] else {
      if head > 0, head == slots.count || head > 64 {
        slots.removeFirst(head)
        base += head
        head = 0
      }
      isDraining = false
      return nil
    }
    slots[head] = nil
    head += 1
    isDraining = true
    return event
  }
}

/// The subscription of `receive(on:)` and `delay(for:)`: hands each value and the completion to a scheduler,
/// which delivers them, one at a time and in order, to the downstream.
///
/// Demand goes straight upstream; the demand the downstream returns from a scheduled value is requested
/// upstream after delivery. After a cancel, actions already scheduled deliver nothing.
// SAFETY: all mutable state is in `state`; downstream, upstream and the scheduler are called outside the lock.
@usableFromInline
final class ScheduledDeliveryInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
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
    @usableFromInline var isFinished = false
    @usableFromInline var outbox = SchedulerOutbox<Event>()

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
    guard let ticket = state.withLock({ $0.link.upstream != nil ? $0.outbox.ticket() : nil }) else { return .none }
    schedule { self.deliver(.value(input), ticket: ticket) }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    guard let ticket = state.withLock({ $0.link.terminate() != nil ? $0.outbox.ticket() : nil }) else { return }
    schedule { self.deliver(.completion(completion), ticket: ticket) }
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
      state.outbox.removeAll()
      return state.link.terminate()
    }
    upstream?.cancel()
  }

  @inlinable
  func deliver(_ event: Event, ticket: Int) {
    var next = state.withLock { $0.isFinished ? nil : $0.outbox.push(event, ticket: ticket) }
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
          state.outbox.removeAll()
        }
        downstream.receive(completion: completion)
      }
      next = state.withLock { $0.outbox.next() }
    }
  }
}
