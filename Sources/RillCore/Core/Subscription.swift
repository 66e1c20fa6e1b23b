/// A protocol representing the connection of a subscriber to a publisher.
///
/// Subscriptions are class-bound: each has an identity and lives as long as the link it represents.
/// Cancelling a subscription must be thread-safe, and can be done only once; cancelling frees the resources
/// held by the link.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
  /// Tells a publisher that it may send more values to the subscriber.
  func request(_ demand: Subscribers.Demand)
}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {}

extension Subscriptions {
  /// Returns the "empty" subscription: it ignores requests and cancellation.
  ///
  /// Use it to satisfy the subscription-first rule when a publisher completes or fails right away.
  public static var empty: any Subscription {
    EmptySubscription.singleton
  }
}

// SAFETY: stateless.
private final class EmptySubscription: Subscription, CombineDescribable, @unchecked Sendable {
  static let singleton = EmptySubscription()

  let combineIdentifier = CombineIdentifier()

  func request(_ demand: Subscribers.Demand) {}

  func cancel() {}

  var description: String { "Empty" }

}
