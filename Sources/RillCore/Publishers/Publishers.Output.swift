extension Publisher {
  /// Republishes elements up to the specified maximum count.
  ///
  /// ```
  /// upstream:    -1-2-3-4-|
  /// prefix(2):   -1-[2|]
  /// ```
  ///
  /// After the last element it cancels upstream and finishes, without waiting for upstream.
  ///
  /// - Parameter maxLength: The maximum number of elements to republish.
  /// - Returns: A publisher that publishes up to the specified number of elements before completing.
  public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
    precondition(maxLength >= 0, "prefix: maxLength must not be negative")
    return output(in: 0..<maxLength)
  }

  /// Publishes a specific element, indicated by its index in the sequence of published elements.
  ///
  /// ```
  /// upstream:      -a-b-c-d-|
  /// output(at: 1): ---[b|]
  /// ```
  ///
  /// Elements before the index are dropped, each asking upstream for one more.
  ///
  /// - Parameter index: The index that indicates the element to publish.
  /// - Returns: A publisher that publishes a specific indexed element.
  public func output(at index: Int) -> Publishers.Output<Self> {
    precondition(index >= 0 && index < .max, "output(at:): index must be in 0..<Int.max")
    return output(in: index..<(index + 1))
  }

  /// Publishes elements specified by their range in the sequence of published elements.
  ///
  /// ```
  /// upstream:          -a-b-c-d-e-|
  /// output(in: 1...2): ---b-[c|]
  /// ```
  ///
  /// - Parameter range: A range that indicates which elements to publish.
  /// - Returns: A publisher that publishes elements specified by a range.
  public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
    Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
  }
}

extension Publishers {
  /// A publisher that publishes elements specified by a range in the sequence of published elements.
  public struct Output<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// The range of elements to publish.
    public let range: CountableRange<Int>

    /// Creates a publisher that publishes elements specified by a range.
    public init(upstream: Upstream, range: CountableRange<Int>) {
      precondition(range.lowerBound >= 0, "Publishers.Output: the range's lower bound must not be negative")
      self.upstream = upstream
      self.range = range
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let (lower, last) = (range.lowerBound, range.upperBound - 1)
      upstream.subscribe(
        FilteringInner(
          "Output",
          downstream: subscriber,
          memory: 0,
          traits: .passThrough,
          convertFailure: { $0 }
        ) {
          index,
          input in
          defer { index &+= 1 }
          if index < lower { return .drop }
          if index < last { return .send(input) }
          return index == last ? .sendAndFinish(input) : .finish
        }
      )
    }
  }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publishers.Output: Sendable where Upstream: Sendable {}
