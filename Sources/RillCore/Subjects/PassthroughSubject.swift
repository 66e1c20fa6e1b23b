/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject``, a `PassthroughSubject` has no initial value or buffer of the most recently
/// published element. It drops values if there are no subscribers, or if a subscriber has no current demand.
///
/// `send` may be called from any thread. Every subscriber receives the values in the order they were sent, one
/// call at a time. A `send` made while another is delivering (from another thread, or from inside a subscriber)
/// is queued and delivered by the call already delivering, right after it; it never deadlocks.
// SAFETY: all mutable state is in `core`.
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  @usableFromInline
  let core: SubjectCore<Output, Failure>

  /// Creates a subject with no subscribers.
  @inlinable
  public init() {
    core = SubjectCore(name: "PassthroughSubject", current: nil)
  }

  deinit {
    core.cancelUpstreams()
  }

  /// Keeps an upstream subscription, and requests unlimited values from it once any subscriber has asked for
  /// values.
  ///
  /// The subject cancels the upstream subscriptions it keeps when it is deinitialized.
  @inlinable
  public func send(subscription: any Subscription) {
    core.send(subscription: subscription)
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    core.receive(subscriber: subscriber, subject: self)
  }

  /// Sends a value to the subscribers.
  @inlinable
  public func send(_ input: Output) {
    core.send(input)
  }

  /// Sends a completion signal to the subscribers.
  ///
  /// Later sends are ignored.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    core.send(completion: completion)
  }
}
