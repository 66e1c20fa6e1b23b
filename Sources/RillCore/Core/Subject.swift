/// A publisher that exposes a method for outside callers to publish elements.
///
/// A subject broadcasts values to its subscribers, and can also act as the subscriber of an upstream
/// publisher through `subscribe(_:)`.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
  /// Sends a value to the subscribers.
  func send(_ value: Output)

  /// Sends a completion signal to the subscribers.
  func send(completion: Subscribers.Completion<Failure>)

  /// Provides this subject with a subscription.
  func send(subscription: any Subscription)
}

extension Subject where Output == Void {
  /// Sends a void value to the subscribers.
  public func send() {
    send(())
  }
}

extension Publisher {
  /// Attaches the specified subject to this publisher.
  ///
  /// - Parameter subject: The subject to attach.
  /// - Returns: A cancellable that cancels the subject's subscription to this publisher.
  @inlinable
  public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where Failure == S.Failure, Output == S.Output {
    let subscriber = SubjectSubscriber(subject)
    subscribe(subscriber)
    return AnyCancellable(subscriber)
  }
}
