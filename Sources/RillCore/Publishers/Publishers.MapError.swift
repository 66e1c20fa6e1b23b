extension Publisher {
  /// Converts any failure from the upstream publisher into a new error.
  ///
  /// ```
  /// upstream:                      -1-2-^
  /// mapError { Wrapped($0) }:      -1-2-^
  /// ```
  ///
  /// - Parameter transform: A closure that takes the upstream failure as a parameter and returns a new error for
  ///   the publisher to terminate with.
  /// - Returns: A publisher that replaces any upstream failure with a new error produced by the `transform`
  ///   closure.
  public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
    Publishers.MapError(upstream: self, transform)
  }
}

extension Publishers {
  /// A publisher that converts any failure from the upstream publisher into a new error.
  public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
    public typealias Output = Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that converts the upstream failure into a new error.
    public let transform: (Upstream.Failure) -> Failure

    /// Creates a publisher that converts any failure from the upstream publisher into a new error.
    @inlinable
    public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
      self.upstream = upstream
      transform = map
    }

    /// Creates a publisher that converts any failure from the upstream publisher into a new error.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Upstream.Output == S.Input {
      upstream.subscribe(Inner(downstream: subscriber, transform: transform))
    }
  }
}

extension Publishers.MapError {
  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CombineDescribable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Upstream.Output

    @usableFromInline let downstream: Downstream
    @usableFromInline let transform: (Upstream.Failure) -> Failure
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(downstream: Downstream, transform: @escaping (Upstream.Failure) -> Failure) {
      self.downstream = downstream
      self.transform = transform
      combineIdentifier = CombineIdentifier()
    }

    @usableFromInline
    var description: String { "MapError" }

    @inlinable
    func receive(subscription: any Subscription) {
      downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      switch completion {
      case .finished: downstream.receive(completion: .finished)
      case .failure(let error): downstream.receive(completion: .failure(transform(error)))
      }
    }
  }
}
