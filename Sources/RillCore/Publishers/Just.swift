/// A publisher that emits an output to each subscriber just once, and then finishes.
///
/// ```
/// Just(1): 1|
/// ```
///
/// The value is delivered on the subscriber's first request, followed at once by `.finished`.
public struct Just<Output>: Publisher {
  public typealias Failure = Never

  /// The one element that the publisher emits.
  public let output: Output

  /// Initializes a publisher that emits the specified output just once.
  @inlinable
  public init(_ output: Output) {
    self.output = output
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
    subscriber.receive(subscription: OneShotSubscription(downstream: subscriber, value: output, name: "Just"))
  }
}

extension Just: Equatable where Output: Equatable {}

extension Just: Sendable where Output: Sendable {}
