extension Publisher {
  /// Republishes all elements that match a provided closure.
  ///
  /// ```
  /// upstream:               -1-2-3-4-|
  /// filter { $0 % 2 == 0 }: ---2---4-|
  /// ```
  ///
  /// Each element that is dropped asks upstream for one more, so downstream's demand is met by elements that
  /// pass the filter.
  ///
  /// - Parameter isIncluded: A closure that takes one element and returns whether to republish it.
  /// - Returns: A publisher that republishes all elements that satisfy the closure.
  @inlinable
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
    Publishers.Filter(upstream: self, isIncluded: isIncluded)
  }

  /// Republishes all elements that match a provided error-throwing closure.
  ///
  /// ```
  /// upstream:                    -1-2-3-4-|
  /// tryFilter { try even($0) }:  ---2-^
  /// ```
  ///
  /// Each element that is dropped asks upstream for one more. If the closure throws, the publisher cancels
  /// upstream and fails with the thrown error.
  ///
  /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value that indicates whether
  ///   to republish the element.
  /// - Returns: A publisher that republishes all elements that satisfy the closure.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
    Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
  }
}

extension Publishers {
  /// A publisher that republishes all elements that match a provided closure.
  public struct Filter<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that indicates whether to republish an element.
    public let isIncluded: (Upstream.Output) -> Bool

    /// Creates a publisher that republishes all elements that match a provided closure.
    @inlinable
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      upstream.subscribe(Inner(downstream: subscriber, isIncluded: isIncluded))
    }
  }
}

extension Publishers {
  /// A publisher that republishes all elements that match a provided error-throwing closure.
  public struct TryFilter<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// An error-throwing closure that indicates whether to republish an element.
    public let isIncluded: (Upstream.Output) throws -> Bool

    /// Creates a publisher that republishes all elements that match a provided error-throwing closure.
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
      let isIncluded = self.isIncluded
      upstream.subscribe(
        FilteringInner("TryFilter", downstream: subscriber, memory: (), convertFailure: { $0 }) {
          _,
          input in
          do { return try isIncluded(input) ? .send(input) : .drop } catch { return .fail(error) }
        }
      )
    }
  }
}

extension Publishers.Filter {
  /// Fuses two filters into one.
  @inlinable
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
    let first = self.isIncluded
    return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
  }

  /// Fuses a filter and a following error-throwing filter into one error-throwing filter.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }

  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CombineDescribable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let isIncluded: (Upstream.Output) -> Bool
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(downstream: Downstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
      self.downstream = downstream
      self.isIncluded = isIncluded
      combineIdentifier = CombineIdentifier()
    }

    @usableFromInline
    var description: String { "Filter" }

    @inlinable
    func receive(subscription: any Subscription) {
      downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      isIncluded(input) ? downstream.receive(input) : .max(1)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      downstream.receive(completion: completion)
    }
  }
}

extension Publishers.TryFilter {
  /// Fuses an error-throwing filter and a following filter into one error-throwing filter.
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }

  /// Fuses two error-throwing filters into one.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }
}
