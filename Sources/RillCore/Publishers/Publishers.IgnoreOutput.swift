extension Publisher {
  /// Ignores all upstream elements, but passes along the upstream publisher's completion state (finished or
  /// failed).
  ///
  /// ```
  /// upstream:        -1-2-3-|
  /// ignoreOutput():  -------|
  /// ```
  ///
  /// It asks upstream for unlimited elements as soon as it is subscribed, as Combine does.
  ///
  /// - Returns: A publisher that ignores all upstream elements.
  @inlinable
  public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
    Publishers.IgnoreOutput(upstream: self)
  }
}

extension Publishers {
  /// A publisher that ignores all upstream elements, but passes along the upstream publisher's completion state
  /// (finished or failed).
  public struct IgnoreOutput<Upstream: Publisher>: Publisher {
    public typealias Output = Never

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that ignores all upstream elements, but passes along the upstream publisher's
    /// completion state (finished or failed).
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, Upstream.Failure == S.Failure {
      upstream.subscribe(Inner(downstream: subscriber))
    }
  }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publishers.IgnoreOutput {
  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CombineDescribable
  where Downstream.Input == Never, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream) {
      self.downstream = downstream
    }

    @usableFromInline var description: String { "IgnoreOutput" }

    @inlinable
    func receive(subscription: any Subscription) {
      downstream.receive(subscription: subscription)
      subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      downstream.receive(completion: completion)
    }
  }
}

extension Publishers.IgnoreOutput: Sendable where Upstream: Sendable {}
