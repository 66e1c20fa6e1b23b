/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject``, a `PassthroughSubject` has no initial value or buffer of the most recently
/// published element. It drops values if there are no subscribers, or if a subscriber has no current demand.
///
/// `send` may be called from any thread. Each subscriber receives one call at a time, in the order the values
/// were sent; a `send` from inside a subscriber's own `receive` is delivered right after that call returns.
// SAFETY: all mutable state is in `state`; subscribers are called outside the lock.
public final class PassthroughSubject<Output, Failure: Error>: Subject, SubjectConduitParent,
  @unchecked Sendable
{
  struct State {
    var conduits: [SubjectConduitBase<Output, Failure>] = []
    var completion: Subscribers.Completion<Failure>?

    init() {}
  }

  let state = Locked(State())

  /// Creates a subject with no subscribers.
  public init() {}

  public func send(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let conduit = SubjectConduit(
      parent: self,
      downstream: subscriber,
      latest: nil,
      keepsLatest: false,
      name: "PassthroughSubject"
    )
    let completion = state.withLock { state -> Subscribers.Completion<Failure>? in
      if state.completion == nil { state.conduits.append(conduit) }
      return state.completion
    }
    if let completion {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
    } else {
      subscriber.receive(subscription: conduit)
    }
  }

  /// Sends a value to the subscribers.
  public func send(_ input: Output) {
    let conduits = state.withLock { $0.completion == nil ? $0.conduits : [] }
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
