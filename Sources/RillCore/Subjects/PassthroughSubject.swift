/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject``, a `PassthroughSubject` has no initial value or buffer of the most recently
/// published element. It drops values if there are no subscribers, or if a subscriber has no current demand.
///
/// `send` may be called from any thread. Every subscriber receives the values in the order they were sent, one
/// call at a time. A `send` made while another is delivering (from another thread, or from inside a subscriber)
/// is queued and delivered by the call already delivering, right after it; it never deadlocks.
// SAFETY: all mutable state is in `state`; subscribers are called outside the lock.
public final class PassthroughSubject<Output, Failure: Error>: Subject, SubjectConduitParent,
  @unchecked Sendable
{
  @usableFromInline
  let state = Locked(SubjectState<Output, Failure>())

  /// Creates a subject with no subscribers.
  @inlinable
  public init() {}

  @inlinable
  public func send(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let conduit = SubjectConduit(
      parent: self,
      downstream: subscriber,
      latest: nil,
      keepsLatest: false,
      name: "PassthroughSubject"
    )
    if let completion = state.withLock({ $0.attach(conduit) }) {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
    } else {
      subscriber.receive(subscription: conduit)
    }
  }

  /// Sends a value to the subscribers.
  @inlinable
  public func send(_ input: Output) {
    deliver(state.withLock { $0.send(input) })
  }

  /// Sends a completion signal to the subscribers.
  ///
  /// Later sends are ignored.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    deliver(state.withLock { $0.send(completion: completion) })
  }

  @inlinable
  func deliver(_ first: SubjectState<Output, Failure>.Delivery?) {
    var delivery = first
    while let current = delivery {
      current.perform()
      delivery = state.withLock { $0.next() }
    }
  }

  @inlinable
  func disassociate(_ conduit: SubjectConduitBase<Output, Failure>) {
    _ = state.withLock { $0.detach(conduit) }
  }
}
