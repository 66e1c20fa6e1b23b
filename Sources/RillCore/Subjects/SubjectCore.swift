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
package final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  @usableFromInline
  typealias State = SubjectState<Output, Failure>

  @usableFromInline
  let state: Locked<State>

  /// The subject's name, for the subscriptions' descriptions and trap messages.
  @usableFromInline
  let name: String

  /// Whether a subscriber that has made a request gets every value, whatever demand it asked for, and its
  /// subscription's mirror shows the subscriber alone: `ObservableObjectPublisher`'s rules, as in Combine.
  @usableFromInline
  let signalsFromFirstRequest: Bool

  /// Runs a subscription's `request` and `cancel` (`.none`) in specialised code (a specialised entry:
  /// WritingAnOperator.md, "Hot-path idioms"); made here, where the subject's types are known, and shared by its
  /// subscriptions.
  @usableFromInline
  let conduitEntry: SpecializedEntry<AnyObject>

  /// Makes the engine of a subject named `name`: one that keeps a current value if `current` is set, or replays
  /// its latest `replay` values to each new subscriber and queues values for subscribers without demand if
  /// `replay` is set, or else drops what a subscriber without demand misses; with `signalsFromFirstRequest`, a
  /// subscriber's first request counts as a request for every value.
  @inlinable
  package init(name: String, current: Output?, replay: Int? = nil, signalsFromFirstRequest: Bool = false) {
    self.name = name
    self.signalsFromFirstRequest = signalsFromFirstRequest
    state = Locked(State(current: current, replay: replay))
    conduitEntry = SpecializedEntry { owner, demand in
      let conduit = unsafeDowncast(owner, to: SubjectConduit<Output, Failure>.self)
      let core = conduit.core
      if demand.rawValue != 0 { core.request(demand, for: conduit) } else { core.cancel(conduit) }
    }
  }

  /// Attaches a subscriber, or completes it at once if the subject has ended; `subject`, if any, is kept alive
  /// while it has subscribers.
  @inlinable
  package func receive<S: Subscriber>(
    subscriber: S,
    subject: AnyObject?
  ) where S.Input == Output, S.Failure == Failure {
    let conduit = SubjectConduit.make(core: self)
    // Made here, where the subscriber's type is known, so that delivery runs specialised code.
    let receiver = SubjectReceiver<Output, Failure> { conduit, signal in
      switch signal {
      case .value(let value):
        // A subscription that ended while this send waited for the lock gets nothing more.
        return conduit?.delivery.withLockIfOpen { subscriber.receive(value) } ?? Subscribers.Demand(rawValue: 0)
      case .completion(let completion):
        conduit?.delivery.withLock { subscriber.receive(completion: completion) }
        return Subscribers.Demand(rawValue: 0)
      case .describe(let probe):
        probe.downstream = subscriber
        return Subscribers.Demand(rawValue: 0)
      }
    }
    // The subscription is handed over under the delivery lock, so that nothing reaches the subscriber before it.
    let (completion, replays) = conduit.delivery.withLock { () -> (Subscribers.Completion<Failure>?, Bool) in
      let (completion, replays) = state.withLock { state -> (Subscribers.Completion<Failure>?, Bool) in
        // A replay subject's late subscriber gets the replayed values its demand covers, then the completion.
        if let completion = state.completion, state.replay == nil { return (completion, false) }
        state.append(receiver: receiver, conduit: conduit, subject: subject)
        return (nil, state.completion != nil)
      }
      if completion == nil { subscriber.receive(subscription: conduit) }
      return (completion, replays)
    }
    if let completion {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
    } else if replays {
      drain(conduit, receiver)
    }
  }

  /// Sends a value, making it the current value when the subject keeps one and `updatingCurrent` is set.
  @inlinable
  package func send(_ value: Output, updatingCurrent: Bool = true) {
    var evicted: Output?
    let first = state.withLock { $0.startValue(value, updatingCurrent: updatingCurrent, evicted: &evicted) }
    // The value replaced, or one that left a replay buffer, goes here, outside the lock.
    evicted = nil
    deliver(value, from: first)
  }

  /// Makes `value` the current value, even after completion, and sends it unless the subject has completed.
  @inlinable
  func setCurrent(_ value: Output) {
    var evicted: Output?
    let first = state.withLock { state -> State.Step in
      guard state.completion == nil else {
        evicted = state.current.take()
        state.current = value
        return State.Step()
      }
      return state.startValue(value, evicted: &evicted)
    }
    evicted = nil
    deliver(value, from: first)
  }

  /// Makes `value` the current value without sending it.
  @inlinable
  package func replaceCurrent(with value: Output) {
    let replaced = state.withLock { state in
      defer { state.current = value }
      return state.current.take()
    }
    // Released here, outside the lock.
    _ = replaced
  }

  /// Calls the subscribers each step claimed, with `value`, then claims the next ones, until none is left.
  @inlinable
  func deliver(_ value: Output, from first: consuming State.Step) {
    var step = consume first
    // Taken out of the step, not copied: the table is retained once per send, by the step that claimed it.
    while let entries = step.entries.take() {
      var claimed = step.claimed
      while claimed != 0 {
        let offset = step.base &+ claimed.trailingZeroBitCount
        claimed &= claimed &- 1
        let more = entries[offset].receive(.value(value)) ?? Subscribers.Demand(rawValue: 0)
        if more.rawValue != 0, let conduit = entries[offset].conduit, state.withLock({ $0.add(more, to: conduit) }),
          let receiver = entries[offset].receiver
        {
          drain(conduit, receiver)
        }
      }
      var draining = step.draining
      while draining != 0 {
        let offset = step.base &+ draining.trailingZeroBitCount
        draining &= draining &- 1
        if let conduit = entries[offset].conduit, let receiver = entries[offset].receiver { drain(conduit, receiver) }
      }
      let next = step.base &+ State.Step.width
      guard next < entries.count else { return }
      step = state.withLock { $0.claim(value, for: entries, from: next, generation: step.generation) }
    }
  }

  /// Delivers a replay subscriber's backlog as far as its demand goes, then its completion if the subject has
  /// completed; under its delivery lock, so that the backlog goes out in order whichever thread drains it.
  ///
  /// A thread that finds another draining waits for it on the delivery lock. A drain nested in one (a request or a
  /// send from inside the subscriber) leaves its demand and values to the one in progress, so a backlog of any
  /// length is delivered at constant stack depth.
  @inlinable
  func drain(_ conduit: SubjectConduit<Output, Failure>, _ receiver: SubjectReceiver<Output, Failure>) {
    let ended = conduit.delivery.withLock { () -> State.Ended? in
      guard state.withLock({ $0.beginDrain(conduit) }) else { return nil }
      var more = Subscribers.Demand(rawValue: 0)
      while true {
        let next = state.withLock { $0.nextBacklogged(for: conduit, adding: more) }
        if let value = next.value {
          more = receiver(conduit, .value(value))
        } else {
          if let completion = next.completion { _ = receiver(conduit, .completion(completion)) }
          return next.ended
        }
      }
    }
    // The subscriber, the dropped values and maybe the subject are released here, after the delivery lock.
    withExtendedLifetime(ended) {}
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
  package func send(completion: Subscribers.Completion<Failure>) {
    let (completed, backlogged, subject) = state.withLock { state in
      state.completion == nil ? state.complete(completion) : ([], [], nil)
    }
    for index in completed.indices { _ = completed[index].receive(.completion(completion)) }
    for entry in backlogged {
      if let conduit = entry.conduit, let receiver = entry.receiver { drain(conduit, receiver) }
    }
    // Released after the completions: the subject may go now, and cancel its upstreams.
    withExtendedLifetime(subject) {}
  }

  /// Keeps an upstream subscription until it completes or is cancelled; requests unlimited values from it if
  /// `hasDownstreamDemand` is set.
  @inlinable
  package func send(subscription: any Subscription) {
    let upstream = SubjectUpstream(subscription)
    let demanded = state.withLock { state in
      state.upstreams.append(upstream)
      return state.hasDownstreamDemand
    }
    if demanded { subscription.request(.unlimited) }
  }

  /// Forgets the upstream subscription `upstream`, which has completed or been cancelled; it is released here,
  /// outside the lock.
  package func forget(upstream: AnyObject) {
    let identity = ObjectIdentifier(upstream)
    let forgotten = state.withLock { state -> SubjectUpstream? in
      guard let index = state.upstreams.firstIndex(where: { $0.identity == identity }) else { return nil }
      return state.upstreams.remove(at: index)
    }
    _ = forgotten
  }

  /// How many upstream subscriptions the subject keeps: those that have neither completed nor been cancelled.
  package var upstreamCount: Int {
    state.withLock { $0.upstreams.count }
  }

  /// Cancels the upstream subscriptions; the subject is going away.
  @inlinable
  package func cancelUpstreams() {
    let upstreams = state.withLock { state in
      defer { state.upstreams = [] }
      return state.upstreams
    }
    for upstream in upstreams { upstream.subscription.cancel() }
  }

  /// Adds demand for a subscription, sending the current value if the subscriber is owed it.
  ///
  /// The first demand from any subscriber also asks the upstream subscriptions for unlimited values.
  @inlinable
  func request(_ demand: Subscribers.Demand, for conduit: SubjectConduit<Output, Failure>) {
    let demand = signalsFromFirstRequest ? Subscribers.Demand.unlimited : demand
    var upstreams: [SubjectUpstream] = []
    let (receiver, owesCurrent, drains) = state.withLock { $0.request(demand, for: conduit, upstreams: &upstreams) }
    for upstream in upstreams { upstream.subscription.request(.unlimited) }
    guard let receiver else { return }
    if drains { drain(conduit, receiver) }
    if owesCurrent { deliverCurrent(to: conduit) }
  }

  /// Delivers the current value a subscriber is owed, taken under its delivery lock: a send that claims the
  /// subscriber's demand after the value was taken waits for the lock, and reaches it after the value.
  @inlinable
  func deliverCurrent(to conduit: SubjectConduit<Output, Failure>) {
    conduit.delivery.withLock {
      guard let (receiver, value) = state.withLock({ $0.takeCurrent(for: conduit) }) else { return }
      let more = receiver(conduit, .value(value))
      if more.rawValue != 0 { _ = state.withLock { $0.add(more, to: conduit) } }
    }
  }

  /// Ends a subscription; a late call for a subscription that has already ended does nothing.
  @inlinable
  func cancel(_ conduit: SubjectConduit<Output, Failure>) {
    // The receiver, with the subscriber, and the subject are released when this call returns, outside the lock.
    let ended = state.withLock { $0.cancel(conduit) }
    withExtendedLifetime(ended) {}
  }
}
