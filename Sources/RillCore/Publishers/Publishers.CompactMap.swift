extension Publisher {
  /// Calls a closure with each received element and publishes any returned optional that has a value.
  ///
  /// ```
  /// upstream:                  -a-1-b-2-|
  /// compactMap { Int($0) }:    ---1---2-|
  /// ```
  ///
  /// Each `nil` result asks upstream for one more element in its place.
  ///
  /// - Parameter transform: A closure that receives a value and returns an optional value.
  /// - Returns: Any non-`nil` optional results of the calling the supplied closure.
  public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
    Publishers.CompactMap(upstream: self, transform: transform)
  }

  /// Calls an error-throwing closure with each received element and publishes any returned optional that has a
  /// value.
  ///
  /// ```
  /// upstream:                       -a-1-b-2-|
  /// tryCompactMap { try parse($0) }: ---1-^
  /// ```
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
  ///
  /// - Parameter transform: An error-throwing closure that receives a value and returns an optional value.
  /// - Returns: Any non-`nil` optional results of calling the supplied closure.
  public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
    Publishers.TryCompactMap(upstream: self, transform: transform)
  }
}

extension Publishers {
  /// A publisher that republishes all non-`nil` results of calling a closure with each received element.
  public struct CompactMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that receives values from the upstream publisher and returns optional values.
    public let transform: (Upstream.Output) -> Output?

    /// Creates a publisher that republishes all non-`nil` results of calling a closure with each received
    /// element.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
      upstream.subscribe(Inner(downstream: subscriber, transform: transform))
    }
  }

  /// A publisher that republishes all non-`nil` results of calling an error-throwing closure with each received
  /// element.
  public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// An error-throwing closure that receives values from the upstream publisher and returns optional values.
    ///
    /// If this closure throws an error, the publisher fails.
    public let transform: (Upstream.Output) throws -> Output?

    /// Creates a publisher that republishes all non-`nil` results of calling an error-throwing closure with each
    /// received element.
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
      let transform = self.transform
      upstream.subscribe(
        FilteringInner("TryCompactMap", downstream: subscriber, memory: (), convertFailure: { $0 }) {
          _,
          input in
          do { return try transform(input).map { .send($0) } ?? .drop } catch { return .fail(error) }
        }
      )
    }
  }
}

extension Publishers.CompactMap {
  /// Fuses two compact maps into one.
  public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
    let first = self.transform
    return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
  }

  /// Fuses a compact map and a following map into one compact map.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
    let first = self.transform
    return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
  }

  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CombineDescribable
  where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let transform: (Upstream.Output) -> Output?
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output?) {
      self.downstream = downstream
      self.transform = transform
      combineIdentifier = CombineIdentifier()
    }

    @usableFromInline
    var description: String { "CompactMap" }

    @inlinable
    func receive(subscription: any Subscription) {
      downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      guard let output = transform(input) else { return .max(1) }
      return downstream.receive(output)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      downstream.receive(completion: completion)
    }
  }
}

extension Publishers.TryCompactMap {
  /// Fuses two error-throwing compact maps into one.
  public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
  }
}
