extension Publisher where Failure == Never {
  /// Changes the failure type declared by the upstream publisher.
  ///
  /// ```
  /// upstream:                             -1-2-|
  /// setFailureType(to: MyError.self):     -1-2-|
  /// ```
  ///
  /// - Parameter failureType: The `Failure` type presented by this publisher.
  /// - Returns: A publisher that appears to send the specified failure type.
  public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
    Publishers.SetFailureType(upstream: self)
  }
}

extension Publishers {
  /// A publisher that appears to send a specified failure type.
  ///
  /// The upstream never fails, so the new failure type is never sent: values and completion pass through
  /// unchanged, and demand and cancellation go straight to the upstream subscription.
  public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
    public typealias Output = Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that appears to send a specified failure type.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Upstream.Output == S.Input {
      upstream.subscribe(Inner(downstream: subscriber))
    }

    /// Changes the failure type again, without adding another stage.
    public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
      Publishers.SetFailureType(upstream: upstream)
    }
  }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publishers.SetFailureType {
  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CombineDescribable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Upstream.Output

    @usableFromInline let downstream: Downstream
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(downstream: Downstream) {
      self.downstream = downstream
      combineIdentifier = CombineIdentifier()
    }

    @usableFromInline
    var description: String { "SetFailureType" }

    @inlinable
    func receive(subscription: any Subscription) {
      downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Never>) {
      downstream.receive(completion: .finished)
    }
  }
}

extension Publishers.SetFailureType: Sendable where Upstream: Sendable {}
