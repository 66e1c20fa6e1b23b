public import Synchronization

/// The lock and state shared by a subject and its subscriptions: one lock per subject, none per subscriber.
///
/// Sends are serialised: while one call is delivering (on any thread, or re-entrantly from a subscriber), later
/// sends are queued and delivered by the delivering call, in order, once it has offered its value to every
/// subscriber. So every subscriber sees the values in the order they were sent, and no lock is held while
/// subscribers run. A value costs the delivering call one lock to claim the first subscriber's demand and one more
/// per subscriber to return the demand it asks for and claim the next.
// SAFETY: all mutable state is in `state`; subscribers, upstreams and released entries are called or released
// outside the lock.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  @usableFromInline
  typealias State = SubjectState<Output, Failure>

  @usableFromInline
  let state: Locked<State>

  /// The subject's name, for the subscriptions' descriptions and trap messages.
  @usableFromInline
  let name: String

  @inlinable
  init(name: String, current: Output?) {
    self.name = name
    state = Locked(State(current: current))
  }

  /// Records the subject, for its subscriptions' mirrors; called once by the subject's initializer.
  @inlinable
  func setSubject(_ subject: AnyObject) {
    state.withLock { $0.subject = subject }
  }

  /// Attaches a subscriber, or completes it at once if the subject has ended.
  @inlinable
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let deliver = SubjectReceiver<Output, Failure> { signal in
      switch signal {
      case .value(let value):
        return subscriber.receive(value)
      case .completion(let completion):
        subscriber.receive(completion: completion)
        return .none
      }
    }
    let (attached, completion) = state.withLock {
      state -> (SubjectConduit<Output, Failure>?, Subscribers.Completion<Failure>?) in
      if let completion = state.completion { return (nil, completion) }
      return (state.append(core: self, deliver: deliver, downstream: subscriber), nil)
    }
    if let attached {
      subscriber.receive(subscription: attached)
    } else if let completion {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
    }
  }

  /// Sends a value, making it the current value when the subject keeps one.
  @inlinable
  func send(_ value: Output) {
    let first = state.withLock { state -> State.Step in
      guard state.completion == nil else { return .done }
      if state.current != nil { state.current = value }
      return state.start(.value(value))
    }
    deliver(first)
  }

  /// Makes `value` the current value, even after completion, and sends it unless the subject has completed.
  @inlinable
  func setCurrent(_ value: Output) {
    let first = state.withLock { state -> State.Step in
      state.current = value
      guard state.completion == nil else { return .done }
      return state.start(.value(value))
    }
    deliver(first)
  }

  /// Sends the completion; later sends are ignored.
  @inlinable
  func send(completion: Subscribers.Completion<Failure>) {
    let first = state.withLock { state -> State.Step in
      guard state.completion == nil else { return .done }
      state.completion = completion
      return state.start(.completion(completion))
    }
    deliver(first)
  }

  /// Keeps an upstream subscription; requests unlimited values from it if `hasDownstreamDemand` is set.
  @inlinable
  func send(subscription: any Subscription) {
    let demanded = state.withLock { state in
      state.upstreams.append(subscription)
      return state.hasDownstreamDemand
    }
    if demanded { subscription.request(.unlimited) }
  }

  /// Cancels the upstream subscriptions; the subject is going away.
  @inlinable
  func cancelUpstreams() {
    let upstreams = state.withLock { state in
      defer { state.upstreams = [] }
      return state.upstreams
    }
    for upstream in upstreams { upstream.cancel() }
  }

  /// Adds demand for the subscriber in `slot`, delivering a kept value if it was waiting for it.
  ///
  /// The first demand from any subscriber also asks the upstream subscriptions for unlimited values.
  @inlinable
  func request(_ demand: Subscribers.Demand, slot: Int, id: UInt64) {
    var upstreams: [any Subscription] = []
    let first = state.withLock { state -> State.Step in
      guard state.holds(slot: slot, id: id), state.links[slot].phase != .cancelledWhileBusy else { return .done }
      state.links[slot].demand += demand
      if !state.hasDownstreamDemand {
        state.hasDownstreamDemand = true
        upstreams = state.upstreams
      }
      guard state.slots[slot]!.latest != nil else { return .done }
      return state.start(.flush(slot: slot, id: id))
    }
    for upstream in upstreams { upstream.request(.unlimited) }
    deliver(first)
  }

  /// Ends the subscription in `slot`.
  @inlinable
  func cancel(slot: Int, id: UInt64) {
    let removed = state.withLock { $0.cancel(slot: slot, id: id) }
    // The subscriber and its kept value, if any, are let go here, outside the lock.
    _ = removed
  }

  /// Delivers steps until nothing is left to deliver.
  @inlinable
  func deliver(_ first: State.Step) {
    var step = first
    while true {
      switch step {
      case .done:
        return
      case .value(let deliver, let slot, let value):
        let more = deliver(.value(value))
        let (next, removed) = state.withLock { $0.delivered(slot: slot, more: more, value: value) }
        _ = removed
        step = next
      case .completion(let entries, let completion):
        for entry in entries { _ = entry.deliver(.completion(completion)) }
        step = state.withLock { $0.next() }
      }
    }
  }
}

/// A subscriber's subscription to a subject: the slot of its entry in the subject's table.
///
/// It holds nothing mutable but the demand left when it ended, which its mirror shows, as Combine's does.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, Sendable
{
  @usableFromInline
  let core: SubjectCore<Output, Failure>

  @usableFromInline
  let slot: Int

  @usableFromInline
  let id: UInt64

  /// The demand left when the subscription ended, as `Subscribers.Demand.rawValue`; written under the subject's
  /// lock as the entry leaves the table.
  @usableFromInline
  let demandAtEnd = Atomic<UInt>(0)

  @inlinable
  init(core: SubjectCore<Output, Failure>, slot: Int, id: UInt64) {
    self.core = core
    self.slot = slot
    self.id = id
  }

  /// Records the demand left as the subscription's entry leaves the subject's table, under the subject's lock.
  @inlinable
  func recordEnd(demand: Subscribers.Demand) {
    demandAtEnd.store(demand.rawValue, ordering: .relaxed)
  }

  @usableFromInline
  var description: String { core.name }

  /// As in Combine: the subject twice (as `parent` and `subject`), the subscriber and the demand left; the subject
  /// and the subscriber are `nil` once the subscription has ended.
  @usableFromInline
  var customMirror: Mirror {
    let (subject, downstream, demand) = core.state.withLock { state -> (AnyObject?, Any?, Subscribers.Demand) in
      guard state.holds(slot: slot, id: id) else {
        return (nil, nil, Subscribers.Demand(rawValue: demandAtEnd.load(ordering: .relaxed)))
      }
      let link = state.links[slot]
      guard link.phase != .cancelledWhileBusy else { return (nil, nil, link.demand) }
      return (state.subject, state.slots[slot]!.downstream, link.demand)
    }
    return Mirror(
      self,
      children: [
        "parent": subject as Any, "downstream": downstream as Any, "demand": demand, "subject": subject as Any,
      ]
    )
  }

  @usableFromInline
  var playgroundDescription: Any { description }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(core.name): a subscriber requested \(demand); demand must be greater than zero")
    core.request(demand, slot: slot, id: id)
  }

  @inlinable
  func cancel() {
    core.cancel(slot: slot, id: id)
  }
}
