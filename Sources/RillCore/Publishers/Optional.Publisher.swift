extension Optional {
  /// A publisher that publishes an optional value to each subscriber exactly once, if the optional has a value.
  ///
  /// ```
  /// Optional(1).publisher: 1|
  /// nil.publisher:         |
  /// ```
  public struct Publisher: RillCore.Publisher {
    public typealias Output = Wrapped
    public typealias Failure = Never

    /// The result to deliver to each subscriber.
    public let output: Wrapped?

    /// Creates a publisher to emit the value of the optional, or to finish immediately if the optional is nil.
    public init(_ output: Output?) {
      self.output = output
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Wrapped == S.Input, S.Failure == Never {
      if let output {
        subscriber.receive(subscription: OneShotSubscription(downstream: subscriber, value: output, name: "Optional"))
      } else {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
      }
    }
  }

  /// A publisher that publishes the wrapped value, if any, and then finishes.
  ///
  /// Disfavoured, so that a library's own back-port of `Optional.publisher` wins where both are visible,
  /// instead of making every use ambiguous.
  @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
  @_disfavoredOverload
  public var publisher: Publisher {
    Publisher(self)
  }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}

extension Optional.Publisher: Sendable where Wrapped: Sendable {}
