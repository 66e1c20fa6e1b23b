import RillCore

/// A publisher that only keeps its latest subscriber, so a test can reach the operator's own subscriber: send it
/// events before its subscription, or look at its description and mirror.
final class SubscriberHolder<Output, Failure: Error>: Publisher {
  private(set) var subscriber: AnySubscriber<Output, Failure>?
  /// The subscriber itself, as the operator passed it.
  private(set) var rawSubscriber: Any?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    self.subscriber = AnySubscriber(subscriber)
    rawSubscriber = subscriber
  }

  /// The subscriber as a subscription, for operators whose subscriber is also downstream's subscription.
  var subscriberAsSubscription: (any Subscription)? { rawSubscriber as? any Subscription }
}
