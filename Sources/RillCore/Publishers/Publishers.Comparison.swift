extension Publisher where Output: Comparable {
  /// Publishes the minimum value received from the upstream publisher, after it finishes.
  ///
  /// ```
  /// upstream: -3-1-2-|
  /// min():    -------[1|]
  /// ```
  ///
  /// - Returns: A publisher that publishes the minimum value received from the upstream publisher, after the
  ///   upstream publisher finishes.
  @inlinable
  public func min() -> Publishers.Comparison<Self> {
    min(by: <)
  }

  /// Publishes the maximum value received from the upstream publisher, after it finishes.
  ///
  /// ```
  /// upstream: -1-3-2-|
  /// max():    -------[3|]
  /// ```
  ///
  /// - Returns: A publisher that publishes the maximum value received from the upstream publisher, after the
  ///   upstream publisher finishes.
  @inlinable
  public func max() -> Publishers.Comparison<Self> {
    max(by: <)
  }
}

extension Publisher {
  /// Publishes the minimum value received from the upstream publisher, after it finishes, using the provided
  /// ordering closure.
  ///
  /// ```
  /// upstream:      -3-1-2-|
  /// min(by: (<)):  -------[1|]
  /// ```
  ///
  /// An upstream that finishes without elements makes this publisher finish without a value.
  ///
  /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns `true` if they're in
  ///   increasing order.
  /// - Returns: A publisher that publishes the minimum value received from the upstream publisher, after the
  ///   upstream publisher finishes.
  @inlinable
  public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
    Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
  }

  /// Publishes the maximum value received from the upstream publisher, using the provided ordering closure.
  ///
  /// ```
  /// upstream:      -1-3-2-|
  /// max(by: (<)):  -------[3|]
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns `true` if they're in
  ///   increasing order.
  /// - Returns: A publisher that publishes the maximum value received from the upstream publisher, after the
  ///   upstream publisher finishes.
  @inlinable
  public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
    Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }

  /// Publishes the minimum value received from the upstream publisher, using the provided error-throwing closure
  /// to order the items.
  ///
  /// ```
  /// upstream:                 -3-1-2-|
  /// tryMin(by: (<)):          -------[1|]
  /// tryMin { _, _ in throw e }: ---^
  /// ```
  ///
  /// When the closure throws, the operator cancels upstream and fails with the thrown error.
  ///
  /// - Parameter areInIncreasingOrder: A throwing closure that receives two elements and returns `true` if they're
  ///   in increasing order.
  /// - Returns: A publisher that publishes the minimum value received from the upstream publisher, after the
  ///   upstream publisher finishes.
  @inlinable
  public func tryMin(
    by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
  ) -> Publishers.TryComparison<Self> {
    Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
  }

  /// Publishes the maximum value received from the upstream publisher, using the provided error-throwing closure
  /// to order the items.
  ///
  /// ```
  /// upstream:                 -1-3-2-|
  /// tryMax(by: (<)):          -------[3|]
  /// tryMax { _, _ in throw e }: ---^
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: A throwing closure that receives two elements and returns `true` if they're
  ///   in increasing order.
  /// - Returns: A publisher that publishes the maximum value received from the upstream publisher, after the
  ///   upstream publisher finishes.
  @inlinable
  public func tryMax(
    by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
  ) -> Publishers.TryComparison<Self> {
    Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }
}

extension Publishers {
  /// A publisher that republishes items from another publisher only if each new item is in increasing order from
  /// the previously-published item.
  ///
  /// It keeps the greatest element according to `areInIncreasingOrder` and publishes it when upstream finishes;
  /// `min(by:)` passes the closure with its arguments swapped.
  public struct Comparison<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// A closure that receives two elements and returns true if they're in increasing order.
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

    /// Creates a publisher that republishes items from another publisher only if each new item is in increasing
    /// order from the previously-published item.
    @inlinable
    public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      let rule = ComparisonRule<Output, Failure, Failure>(
        name: "Comparison",
        mapFailure: { $0 },
        areInIncreasingOrder: { .success(areInIncreasingOrder($0, $1)) }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }

  /// A publisher that republishes items from another publisher only if each new item is in increasing order from
  /// the previously-published item, and fails if the ordering logic throws an error.
  public struct TryComparison<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// A closure that receives two elements and returns true if they're in increasing order.
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

    /// Creates a publisher that republishes items from another publisher only if each new item is in increasing
    /// order from the previously-published item, and fails if the ordering logic throws an error.
    @inlinable
    public init(
      upstream: Upstream,
      areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
    ) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
      let rule = ComparisonRule<Output, Upstream.Failure, any Error>(
        name: "TryComparison",
        mapFailure: { $0 },
        areInIncreasingOrder: { lhs, rhs in Result { try areInIncreasingOrder(lhs, rhs) } }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }
}

/// Keeps the greatest element: a new element replaces the kept one when `(kept, new)` are in increasing order.
@usableFromInline
struct ComparisonRule<Input, UpstreamFailure: Error, Failure: Error>: ReducingRule {
  @usableFromInline let name: String
  @usableFromInline let mapFailure: (UpstreamFailure) -> Failure
  @usableFromInline let areInIncreasingOrder: (Input, Input) -> Result<Bool, Failure>

  @inlinable
  init(
    name: String,
    mapFailure: @escaping (UpstreamFailure) -> Failure,
    areInIncreasingOrder: @escaping (Input, Input) -> Result<Bool, Failure>
  ) {
    self.name = name
    self.mapFailure = mapFailure
    self.areInIncreasingOrder = areInIncreasingOrder
  }

  @usableFromInline var initial: Input? { nil }

  @inlinable
  func fold(_ partial: inout Input?, _ input: Input) -> ReducingStep<Failure> {
    guard let kept = partial else {
      partial = input
      return .proceed
    }
    switch areInIncreasingOrder(kept, input) {
    case .success(true):
      partial = input
      return .proceed
    case .success(false):
      return .proceed
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func result(_ partial: consuming Input?) -> Input? { partial }

  @inlinable
  func failure(_ error: UpstreamFailure) -> Failure { mapFailure(error) }
}
