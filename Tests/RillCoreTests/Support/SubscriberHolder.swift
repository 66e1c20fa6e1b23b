import RillCore

/// A publisher that keeps its latest subscriber without sending it a subscription, until the test sends one.
///
/// `TestPublisher` hands each subscriber its subscription at once; this one lets a test reach an operator before
/// its upstream subscription arrives: send it events or a subscription late, use the operator's own subscription
/// first, or look at its description and mirror. Given a subscription, it hands that one over on subscribe instead,
/// for tests that want a subscription of their own making.
// SAFETY: all mutable state is in `held`; the subscriber is called outside the lock.
final class SubscriberHolder<Output, Failure: Error>: Publisher, @unchecked Sendable {
  private let held = Locked<(erased: AnySubscriber<Output, Failure>, raw: any Subscriber)?>(nil)
  private let subscriptionOnSubscribe: (any Subscription)?

  /// Creates a holder that sends each subscriber `subscription` when it subscribes, or nothing if it is `nil`.
  init(subscription: (any Subscription)? = nil) {
    subscriptionOnSubscribe = subscription
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    held.withLock { $0 = (AnySubscriber(subscriber), subscriber) }
    if let subscriptionOnSubscribe { subscriber.receive(subscription: subscriptionOnSubscribe) }
  }

  /// The latest subscriber.
  var subscriber: AnySubscriber<Output, Failure>? { held.withLock { $0?.erased } }

  /// The latest subscriber itself, as the operator passed it.
  var rawSubscriber: Any? { held.withLock { $0?.raw } }

  /// The subscriber as a subscription, for operators whose subscriber is also downstream's subscription.
  var subscriberAsSubscription: (any Subscription)? { held.withLock { $0?.raw } as? any Subscription }

  /// Sends the latest subscriber a subscription.
  func send(subscription: any Subscription) {
    subscriber?.receive(subscription: subscription)
  }

  /// Sends a value to the latest subscriber, whatever its demand; returns the demand it returned.
  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    subscriber?.receive(value) ?? .none
  }

  /// Sends a completion to the latest subscriber.
  func send(completion: Subscribers.Completion<Failure>) {
    subscriber?.receive(completion: completion)
  }
}
