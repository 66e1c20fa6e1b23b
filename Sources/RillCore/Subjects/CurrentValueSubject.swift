/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A new subscriber receives the current value as soon as it requests one. While a subscriber has no demand,
/// it keeps only the latest value for it, and delivers that when demand arrives. Once the subject completes,
/// further sends, and writes to ``value``, are ignored.
// SAFETY: all mutable state is in `state`; subscribers are called outside the lock.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, SubjectConduitParent,
  @unchecked Sendable
{
  struct State {
    var value: Output
    var conduits: [SubjectConduitBase<Output, Failure>] = []
    var completion: Subscribers.Completion<Failure>?

    init(value: Output) {
      self.value = value
    }
  }

  let state: Locked<State>

  /// The value wrapped by this subject, published as a new element whenever it changes.
  public var value: Output {
    get { state.withLock { $0.value } }
    set { send(newValue) }
  }

  /// Creates a current value subject with the given initial value.
  public init(_ value: Output) {
    state = Locked(State(value: value))
  }

  public func send(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let (completion, conduit) = state.withLock { state -> (Subscribers.Completion<Failure>?, SubjectConduit<S>?) in
      if let completion = state.completion { return (completion, nil) }
      let conduit = SubjectConduit(
        parent: self,
        downstream: subscriber,
        latest: state.value,
        keepsLatest: true,
        name: "CurrentValueSubject"
      )
      state.conduits.append(conduit)
      return (nil, conduit)
    }
    if let conduit {
      subscriber.receive(subscription: conduit)
    } else if let completion {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
    }
  }

  /// Sends a value to the subscribers, and makes it the current value.
  public func send(_ input: Output) {
    let conduits = state.withLock { state -> [SubjectConduitBase<Output, Failure>] in
      guard state.completion == nil else { return [] }
      state.value = input
      return state.conduits
    }
    for conduit in conduits {
      conduit.offer(input)
    }
  }

  /// Sends a completion signal to the subscribers.
  ///
  /// Later sends are ignored.
  public func send(completion: Subscribers.Completion<Failure>) {
    let conduits = state.withLock { state -> [SubjectConduitBase<Output, Failure>] in
      guard state.completion == nil else { return [] }
      state.completion = completion
      defer { state.conduits = [] }
      return state.conduits
    }
    for conduit in conduits {
      conduit.finish(completion)
    }
  }

  func disassociate(_ conduit: SubjectConduitBase<Output, Failure>) {
    let removed = state.withLock { state -> SubjectConduitBase<Output, Failure>? in
      guard let index = state.conduits.firstIndex(where: { $0 === conduit }) else { return nil }
      return state.conduits.remove(at: index)
    }
    _ = removed
  }
}
