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

/// The subscription of `receive(on:)` and `delay(for:)`: hands each value and the completion to a scheduler,
/// which delivers them, one at a time and in order, to the downstream.
///
/// Events wait in arrival order, and each scheduled action delivers the oldest waiting one, not necessarily its
/// own: on a concurrent scheduler two actions due at the same time may run in either order, yet the completion
/// never overtakes a value. Every event is scheduled with the same delay, so none is delivered early.
/// Demand goes straight upstream; the demand the downstream returns from a scheduled value is requested
/// upstream after delivery. After a cancel, actions already scheduled deliver nothing.
// SAFETY: all mutable state is in `state`; downstream, upstream and the scheduler are called outside the lock.
final class ScheduledDeliveryInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  enum Event {
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
  }

  struct State {
    var link = SubscriptionState.awaitingSubscription
    var isFinished = false
    /// Events handed to the scheduler and not yet delivered, in arrival order, from `waitingHead` on.
    var waiting: [Event] = []
    var waitingHead = 0
    var outbox = SchedulerOutbox<Event>()

    /// Takes the oldest waiting event, for the scheduled action that just ran.
    mutating func takeOldest() -> Event? {
      guard waitingHead < waiting.count else { return nil }
      let event = waiting[waitingHead]
      waitingHead += 1
      if waitingHead == waiting.count {
        waiting.removeAll(keepingCapacity: true)
        waitingHead = 0
      }
      return event
    }
  }

  private let downstream: Downstream
  private let schedule: (@escaping () -> Void) -> Void
  private let state = Locked(State())
  let description: String

  /// Creates the subscription; `schedule` hands an action to the scheduler, now or after a delay.
  init(downstream: Downstream, name: String, schedule: @escaping (@escaping () -> Void) -> Void) {
    self.downstream = downstream
    self.schedule = schedule
    self.description = name
  }

  var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

  var playgroundDescription: Any { description }

  func receive(subscription: any Subscription) {
    guard state.withLock({ $0.link.subscribe(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let accepted = state.withLock { state -> Bool in
      guard state.link.upstream != nil else { return false }
      state.waiting.append(.value(input))
      return true
    }
    if accepted { schedule { self.deliverOldest() } }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let accepted = state.withLock { state -> Bool in
      guard state.link.terminate() != nil else { return false }
      state.waiting.append(.completion(completion))
      return true
    }
    if accepted { schedule { self.deliverOldest() } }
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(description): a subscriber requested \(demand); demand must be greater than zero")
    state.withLock { $0.link.upstream }?.request(demand)
  }

  func cancel() {
    let upstream = state.withLock { state -> (any Subscription)? in
      state.isFinished = true
      state.waiting = []
      state.waitingHead = 0
      state.outbox.removeAll()
      return state.link.terminate()
    }
    upstream?.cancel()
  }

  private func deliverOldest() {
    var next = state.withLock { state -> Event? in
      guard !state.isFinished, let event = state.takeOldest() else { return nil }
      return state.outbox.push(event)
    }
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
