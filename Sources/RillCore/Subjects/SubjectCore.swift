/// The engine of `PassthroughSubject`, `CurrentValueSubject` and `@Published`: the lock and state shared by a
/// subject and its subscriptions.
///
/// Delivery follows Combine's model. A send is delivered on the sending thread, before `send` returns, to each
/// subscriber that had demand when the value reached it, in subscription order. Each call to a subscriber is made
/// under that subscriber's ``DeliveryLock``: a send from another thread waits until the subscriber has returned,
/// then delivers its own value on its own thread, and a send from inside the subscriber is delivered at once,
/// nested. The subject's own lock is never held while a subscriber runs.
// SAFETY: all mutable state is in `state`; subscribers are called, and receivers and subjects released, outside
// the lock.
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

  /// Attaches a subscriber, or completes it at once if the subject has ended; `subject` is kept alive while it
  /// has subscribers.
  @inlinable
  func receive<S: Subscriber>(subscriber: S, subject: AnyObject) where S.Input == Output, S.Failure == Failure {
    let conduit = SubjectConduit(core: self)
    // Made here, where the subscriber's type is known, so that delivery runs specialised code.
    let receiver = SubjectReceiver<Output, Failure> { signal in
      switch signal {
      case .value(let value):
        return conduit.delivery.withLock {
          // A subscription that ended while this send waited for the lock gets nothing more.
          conduit.isLive ? subscriber.receive(value) : Subscribers.Demand(rawValue: 0)
        }
      case .completion(let completion):
        conduit.delivery.withLock { subscriber.receive(completion: completion) }
        return Subscribers.Demand(rawValue: 0)
      case .describe(let probe):
        probe.downstream = subscriber
        return Subscribers.Demand(rawValue: 0)
      }
    }
    // The subscription is handed over under the delivery lock, so that nothing reaches the subscriber before it.
    let completion = conduit.delivery.withLock { () -> Subscribers.Completion<Failure>? in
      let completion = state.withLock { state -> Subscribers.Completion<Failure>? in
        if let completion = state.completion { return completion }
        state.append(receiver: receiver, conduit: conduit, subject: subject)
        return nil
      }
      if completion == nil { subscriber.receive(subscription: conduit) }
      return completion
    }
    if let completion {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
    }
  }

  /// Sends a value, making it the current value when the subject keeps one.
  @inlinable
  func send(_ value: Output) {
    deliver(value, from: state.withLock { $0.startValue(value) })
  }

  /// Makes `value` the current value, even after completion, and sends it unless the subject has completed.
  @inlinable
  func setCurrent(_ value: Output) {
    let first = state.withLock { state -> State.Step in
      state.current = value
      return state.startValue(value)
    }
    deliver(value, from: first)
  }

  /// Calls the subscribers each step claimed, with `value`, then claims the next ones, until none is left.
  @inlinable
  func deliver(_ value: Output, from first: consuming State.Step) {
    var step = first
    while let entries = step.entries {
      var claimed = step.claimed
      while claimed != 0 {
        let offset = step.base &+ claimed.trailingZeroBitCount
        claimed &= claimed &- 1
        let more = entries[offset].receiver?(.value(value)) ?? Subscribers.Demand(rawValue: 0)
        if more.rawValue != 0, let conduit = entries[offset].conduit {
          state.withLock { $0.add(more, to: conduit) }
        }
      }
      let next = step.base &+ State.Step.width
      guard next < entries.count else { return }
      step = state.withLock { $0.claim(entries, from: next) }
    }
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
    let (receivers, subject) = state.withLock { state in
      state.completion == nil ? state.complete(completion) : ([], nil)
    }
    for receiver in receivers { _ = receiver(.completion(completion)) }
    // Released after the completions: the subject may go now, and cancel its upstreams.
    withExtendedLifetime(subject) {}
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

  /// Adds demand for a subscription, sending the current value if the subscriber is owed it.
  ///
  /// The first demand from any subscriber also asks the upstream subscriptions for unlimited values.
  @inlinable
  func request(_ demand: Subscribers.Demand, for conduit: SubjectConduit<Output, Failure>) {
    var upstreams: [any Subscription] = []
    let (receiver, value) = state.withLock { $0.request(demand, for: conduit, upstreams: &upstreams) }
    for upstream in upstreams { upstream.request(.unlimited) }
    guard let receiver, let value else { return }
    let more = receiver(.value(value))
    if more.rawValue != 0 { state.withLock { $0.add(more, to: conduit) } }
  }

  /// Ends a subscription; a late call for a subscription that has already ended does nothing.
  @inlinable
  func cancel(_ conduit: SubjectConduit<Output, Failure>) {
    // The receiver, with the subscriber, and the subject are released when this call returns, outside the lock.
    let ended = state.withLock { $0.cancel(conduit) }
    withExtendedLifetime(ended) {}
  }
}
