/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A new subscriber receives the current value as soon as it requests one. While a subscriber has no demand,
/// the subject keeps only the latest value for it, and delivers that when demand arrives. Once the subject
/// completes, further sends, and writes to ``value``, are ignored. Sends are serialised as in
/// ``PassthroughSubject``.
// SAFETY: all mutable state is in `state`; subscribers are called outside the lock.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, SubjectConduitParent,
  @unchecked Sendable
{
  @usableFromInline
  struct State {
    @usableFromInline
    var value: Output
    @usableFromInline
    var subject = SubjectState<Output, Failure>()

    @inlinable
    init(value: Output) {
      self.value = value
    }
  }

  @usableFromInline
  let state: Locked<State>

  /// The value wrapped by this subject, published as a new element whenever it changes.
  @inlinable
  public var value: Output {
    get { state.withLock { $0.value } }
    set { send(newValue) }
  }

  /// Creates a current value subject with the given initial value.
  @inlinable
  public init(_ value: Output) {
    state = Locked(State(value: value))
  }

  @inlinable
  public func send(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let (conduit, completion) = state.withLock { state -> (SubjectConduit<S>, Subscribers.Completion<Failure>?) in
      let conduit = SubjectConduit(
        parent: self,
        downstream: subscriber,
        latest: state.value,
        keepsLatest: true,
        name: "CurrentValueSubject"
      )
      return (conduit, state.subject.attach(conduit))
    }
    if let completion {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
    } else {
      subscriber.receive(subscription: conduit)
    }
  }

  /// Sends a value to the subscribers, and makes it the current value.
  @inlinable
  public func send(_ input: Output) {
    deliver(
      state.withLock { state in
        guard state.subject.completion == nil else { return nil }
        state.value = input
        return state.subject.send(input)
      }
    )
  }

  /// Sends a completion signal to the subscribers.
  ///
  /// Later sends are ignored.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    deliver(state.withLock { $0.subject.send(completion: completion) })
  }

  @inlinable
  func deliver(_ first: SubjectState<Output, Failure>.Delivery?) {
    var delivery = first
    while let current = delivery {
      current.perform()
      delivery = state.withLock { $0.subject.next() }
    }
  }

  @inlinable
  func disassociate(_ conduit: SubjectConduitBase<Output, Failure>) {
    _ = state.withLock { $0.subject.detach(conduit) }
  }
}
