extension Publisher {
  /// Transforms all elements from the upstream publisher with a provided closure.
  ///
  /// ```
  /// upstream:        -1-2-3-|
  /// map { $0 * 2 }:  -2-4-6-|
  /// ```
  ///
  /// - Parameter transform: A closure that takes one element as its parameter and returns a new element.
  /// - Returns: A publisher that uses the provided closure to map elements from the upstream publisher to new
  ///   elements that it then publishes.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
    Publishers.Map(upstream: self, transform: transform)
  }

  /// Transforms all elements from the upstream publisher with a provided error-throwing closure.
  ///
  /// ```
  /// upstream:                     -1-2-3-|
  /// tryMap { try checked($0) }:   -1-2-^
  /// ```
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
  ///
  /// - Parameter transform: A closure that takes one element as its parameter and returns a new element. If the
  ///   closure throws an error, the publisher fails with the thrown error.
  /// - Returns: A publisher that uses the provided closure to map elements from the upstream publisher to new
  ///   elements that it then publishes.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
    Publishers.TryMap(upstream: self, transform: transform)
  }

  /// Replaces nil elements in the stream with the provided element.
  ///
  /// ```
  /// upstream:            -1-n-3-|
  /// replaceNil(with: 0): -1-0-3-|
  /// ```
  ///
  /// - Parameter output: The element to use when replacing `nil`.
  /// - Returns: A publisher that replaces `nil` elements from the upstream publisher with the provided element.
  @inlinable
  public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
    Publishers.Map(upstream: self) { $0 ?? output }
  }
}

extension Publishers {
  /// A publisher that transforms all elements from the upstream publisher with a provided closure.
  ///
  /// It adds no subscription of its own: demand and cancellation go straight to the upstream subscription.
  public struct Map<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that transforms elements from the upstream publisher.
    public let transform: (Upstream.Output) -> Output

    /// Creates a publisher that transforms all elements from the upstream publisher with a provided closure.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
      upstream.subscribe(Inner(downstream: subscriber, transform: transform))
    }
  }
}

extension Publishers {
  /// A publisher that transforms all elements from the upstream publisher with a provided error-throwing closure.
  public struct TryMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that transforms elements from the upstream publisher.
    public let transform: (Upstream.Output) throws -> Output

    /// Creates a publisher that transforms all elements from the upstream publisher with a provided
    /// error-throwing closure.
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
      let transform = self.transform
      upstream.subscribe(
        FilteringInner(
          "TryMap",
          downstream: subscriber,
          memory: (),
          traits: .passThrough,
          convertFailure: { $0 }
        ) { _, input in
          do { return .send(try transform(input)) } catch { return .fail(error) }
        }
      )
    }
  }
}

extension Publishers.Map {
  /// Fuses two maps into one.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
    let first = self.transform
    return Publishers.Map(upstream: upstream) { transform(first($0)) }
  }

  /// Fuses a map and a following error-throwing map into one error-throwing map.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
  }

  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CombineDescribable
  where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let transform: (Upstream.Output) -> Output
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
      self.downstream = downstream
      self.transform = transform
      combineIdentifier = CombineIdentifier()
    }

    @usableFromInline
    var description: String { "Map" }

    @inlinable
    func receive(subscription: any Subscription) {
      downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      downstream.receive(transform(input))
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      downstream.receive(completion: completion)
    }
  }
}

extension Publishers.TryMap {
  /// Fuses an error-throwing map and a following map into one error-throwing map.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
  }

  /// Fuses two error-throwing maps into one.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
  }
}
