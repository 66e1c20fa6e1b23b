extension Publisher where Output: Equatable {
  /// Publishes only elements that don't match the previous element.
  ///
  /// ```
  /// upstream:            -1-1-2-2-1-|
  /// removeDuplicates():  -1---2---1-|
  /// ```
  ///
  /// Each duplicate that is dropped asks upstream for one more.
  ///
  /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
  @inlinable
  public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: ==)
  }
}

extension Publisher {
  /// Publishes only elements that don't match the previous element, as evaluated by a provided closure.
  ///
  /// ```
  /// upstream:                                 -1-3-2-4-|
  /// removeDuplicates { $0 % 2 == $1 % 2 }:    -1---2---|
  /// ```
  ///
  /// - Parameter predicate: A closure to evaluate whether two elements are equivalent, for purposes of filtering.
  ///   Return `true` from this closure to indicate that the second element is a duplicate of the first.
  /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
  @inlinable
  public func removeDuplicates(
    by predicate: @escaping (Output, Output) -> Bool
  ) -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
  }

  /// Publishes only elements that don't match the previous element, as evaluated by a provided error-throwing
  /// closure.
  ///
  /// ```
  /// upstream:                                 -1-1-2-|
  /// tryRemoveDuplicates { try same($0, $1) }: -1---^
  /// ```
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
  ///
  /// - Parameter predicate: A closure to evaluate whether two elements are equivalent, for purposes of filtering.
  ///   Return `true` from this closure to indicate that the second element is a duplicate of the first. If this
  ///   closure throws an error, the publisher terminates with the thrown error.
  /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
  @inlinable
  public func tryRemoveDuplicates(
    by predicate: @escaping (Output, Output) throws -> Bool
  ) -> Publishers.TryRemoveDuplicates<Self> {
    Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that publishes only elements that don't match the previous element.
  public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure to evaluate whether two elements are equivalent, for purposes of filtering.
    public let predicate: (Output, Output) -> Bool

    /// Creates a publisher that publishes only elements that don't match the previous element, as evaluated by
    /// a provided closure.
    public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let isDuplicate = predicate
      upstream.subscribe(
        FilteringInner(
          "RemoveDuplicates",
          downstream: subscriber,
          memory: Output?.none,
          traits: FilteringTraits { downstream, last, _ in [("downstream", downstream), ("last", last as Any)] },
          convertFailure: { $0 }
        ) {
          previous,
          input in
          defer { previous = input }
          if let previous, isDuplicate(previous, input) { return .drop }
          return .send(input)
        }
      )
    }
  }

  /// A publisher that publishes only elements that don't match the previous element, as evaluated by a provided
  /// error-throwing closure.
  public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// An error-throwing closure to evaluate whether two elements are equivalent, for purposes of filtering.
    public let predicate: (Output, Output) throws -> Bool

    /// Creates a publisher that publishes only elements that don't match the previous element, as evaluated by
    /// a provided error-throwing closure.
    public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
      let isDuplicate = predicate
      upstream.subscribe(
        FilteringInner(
          "TryRemoveDuplicates",
          downstream: subscriber,
          memory: Output?.none,
          traits: FilteringTraits { downstream, last, _ in [("downstream", downstream), ("last", last as Any)] },
          convertFailure: { $0 }
        ) {
          previous,
          input in
          defer { previous = input }
          do {
            if let previous, try isDuplicate(previous, input) { return .drop }
            return .send(input)
          } catch {
            return .fail(error)
          }
        }
      )
    }
  }
}
