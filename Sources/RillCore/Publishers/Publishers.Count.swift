extension Publisher {
  /// Publishes the number of elements received from the upstream publisher.
  ///
  /// ```
  /// upstream: -a-b-c-|
  /// count():  -------[3|]
  /// ```
  ///
  /// - Returns: A publisher that consumes all elements until the upstream publisher finishes, then emits a single
  ///   value with the total number of elements received.
  @inlinable
  public func count() -> Publishers.Count<Self> {
    Publishers.Count(upstream: self)
  }
}

extension Publishers {
  /// A publisher that publishes the number of elements received from the upstream publisher.
  public struct Count<Upstream: Publisher>: Publisher {
    public typealias Output = Int
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that publishes the number of elements received from the upstream publisher.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Int {
      upstream.subscribe(
        ReducingSubscription(rule: CountRule<Upstream.Output, Failure>(), downstream: subscriber)
      )
    }
  }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

extension Publishers.Count: Sendable where Upstream: Sendable {}

@usableFromInline
struct CountRule<Input, Failure: Error>: ReducingRule {
  @inlinable
  init() {}

  @usableFromInline typealias UpstreamFailure = Failure

  @usableFromInline var name: String { "Count" }

  @usableFromInline var initial: Int { 0 }

  @inlinable
  func fold(_ partial: inout Int, _ input: Input) -> ReducingStep<Failure> {
    partial += 1
    return .proceed
  }

  @inlinable
  func result(_ partial: consuming Int) -> Int? { partial }
}
