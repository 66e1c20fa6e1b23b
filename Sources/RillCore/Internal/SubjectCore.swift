/// The lock and state shared by a subject and its subscriptions: one lock per subject, none per subscriber.
///
/// Sends are serialised: while one call is delivering (on any thread, or re-entrantly from a subscriber), later
/// sends are queued and delivered by the delivering call, in order, once it has offered its value to every
/// subscriber. So every subscriber sees the values in the order they were sent, and no lock is held while
/// subscribers run. A value costs the delivering call one lock to claim the first subscriber's demand and one more
/// per subscriber to return the demand it asks for and claim the next.
// SAFETY: all mutable state is in `state`; subscribers, upstreams and entries that leave the table are called or
// released outside the lock. `subject` is written once, by the subject's initializer, before the core is shared.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  @usableFromInline
  typealias State = SubjectState<Output, Failure>

  @usableFromInline
  let state: Locked<State>

  /// The subject's name, for the subscriptions' descriptions and trap messages.
  @usableFromInline
  let name: String

  /// The subject, for the subscriptions' mirrors; set once by the subject's initializer.
  @usableFromInline
  weak var subject: AnyObject?

  @inlinable
  init(name: String, current: Output?) {
    self.name = name
    state = Locked(State(current: current))
  }

  /// Attaches a subscriber, or completes it at once if the subject has ended.
  @inlinable
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    // Made here, where the subscriber's type is known, so that delivery runs specialised code.
    let receiver = SubjectReceiver<Output, Failure> { signal in
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
      return (state.append(core: self, receiver: receiver, downstream: subscriber), nil)
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
      return state.start(value: value)
    }
    deliver(first)
  }

  /// Makes `value` the current value, even after completion, and sends it unless the subject has completed.
  @inlinable
  func setCurrent(_ value: Output) {
    let first = state.withLock { state -> State.Step in
      state.current = value
      guard state.completion == nil else { return .done }
      return state.start(value: value)
    }
    deliver(first)
  }

  /// The current value of a subject that keeps one.
  @inlinable
  var current: Output {
    state.withLock { state in
      guard let current = state.current else { preconditionFailure("\(name) keeps no current value") }
      return current
    }
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
      guard state.current != nil, state.entries[slot]?.latest != nil else { return .done }
      return state.start(.flush(slot: slot, id: id))
    }
    for upstream in upstreams { upstream.request(.unlimited) }
    deliver(first)
  }

  /// Ends the subscription in `slot`; a late call for a subscription that has already ended does nothing.
  @inlinable
  func cancel(slot: Int, id: UInt64) {
    // The entry that leaves the table, with the subscriber and its kept value, is released when this call
    // returns, outside the lock.
    var removed: State.Entry?
    state.withLock { $0.cancel(slot: slot, id: id, removed: &removed) }
  }

  /// Delivers steps until nothing is left to deliver.
  @inlinable
  func deliver(_ first: consuming State.Step) {
    var step = first
    while true {
      // Taken out of `step`, which is replaced next, so that the receiver is not retained twice.
      if let receiver = step.receiver.take(), let value = step.value.take() {
        let slot = step.slot
        let more = receiver(.value(value))
        // A subscriber cancelled while it was receiving the value leaves the table in `removed`, which is
        // released after the lock.
        var removed: State.Entry?
        step = state.withLock { $0.delivered(slot: slot, more: more, value: value, removed: &removed) }
      } else if let ending = step.ending, let completion = step.completion {
        for entry in ending { _ = entry.receiver(.completion(completion)) }
        step = state.withLock { $0.next() }
      } else {
        return
      }
    }
  }
}
