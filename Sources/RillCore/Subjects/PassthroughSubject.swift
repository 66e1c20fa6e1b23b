/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject``, a `PassthroughSubject` has no initial value or buffer of the most recently
/// published element. It drops values if there are no subscribers, or if a subscriber has no current demand.
///
/// `send` may be called from any thread, and delivers as Combine's does: on the calling thread, to each subscriber
/// that has demand at that moment, before it returns. Each subscriber is called one call at a time: a `send` from
/// another thread waits while the subscriber is busy, and a `send` from inside a subscriber is delivered at once,
/// nested. A subscription keeps the subject alive until it is cancelled or completes.
///
/// The subject is `Sendable` when its `Output` is: it hands values to subscribers on any thread.
public final class PassthroughSubject<Output, Failure: Error>: Subject {
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

// SAFETY: all mutable state is in `core`; the values it hands to subscribers on other threads are `Sendable`.
extension PassthroughSubject: @unchecked Sendable where Output: Sendable {}
