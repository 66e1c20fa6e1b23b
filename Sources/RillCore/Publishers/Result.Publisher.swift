extension Result {
  /// A publisher that publishes an output to each subscriber exactly once then finishes, or fails immediately
  /// without producing any elements.
  ///
  /// ```
  /// Result.success(1).publisher: 1|
  /// Result.failure(e).publisher: ^
  /// ```
  public struct Publisher: RillCore.Publisher {
    public typealias Output = Success

    /// The result to deliver to each subscriber.
    public let result: Result<Output, Failure>

    /// Creates a publisher that delivers the specified result.
    public init(_ result: Result<Output, Failure>) {
      self.result = result
    }

    /// Creates a publisher that sends the specified output to all subscribers and finishes normally.
    public init(_ output: Output) {
      self.init(.success(output))
    }

    /// Creates a publisher that immediately terminates upon subscription with the given failure.
    public init(_ failure: Failure) {
      self.init(.failure(failure))
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Success == S.Input, Failure == S.Failure {
      switch result {
      case .success(let output):
        subscriber.receive(subscription: OneShotSubscription(downstream: subscriber, value: output, name: "Once"))
      case .failure(let error):
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
      }
    }
  }

  /// A publisher that publishes this result to each subscriber.
  public var publisher: Publisher {
    Publisher(self)
  }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}

extension Result.Publisher: Sendable where Success: Sendable, Failure: Sendable {}
