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

extension Publishers.Map {
  /// Fuses two maps into one.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
    let first = self.transform
    return Publishers.Map(upstream: upstream) { transform(first($0)) }
  }

  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
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

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

    @usableFromInline
    var playgroundDescription: Any { description }

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
