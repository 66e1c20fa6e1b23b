/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// ```
/// Empty():                          |
/// Empty(completeImmediately: false): -------
/// ```
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
  /// A Boolean value that indicates whether the publisher immediately sends a completion.
  public let completeImmediately: Bool

  /// Creates an empty publisher.
  ///
  /// - Parameter completeImmediately: Whether the publisher finishes right after sending the subscription.
  public init(completeImmediately: Bool = true) {
    self.completeImmediately = completeImmediately
  }

  /// Creates an empty publisher with the given completion behavior and output and failure types.
  public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
    self.init(completeImmediately: completeImmediately)
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    subscriber.receive(subscription: Subscriptions.empty)
    if completeImmediately {
      subscriber.receive(completion: .finished)
    }
  }

  public static func == (lhs: Empty, rhs: Empty) -> Bool {
    lhs.completeImmediately == rhs.completeImmediately
  }
}
