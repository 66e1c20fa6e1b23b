// Combine's eager specializations of `Publishers.Sequence` that reduce the sequence to one value when the operator
// is applied, returning a `Result.Publisher`, `Optional.Publisher`, `Just` or `Empty`.

extension Publishers.Sequence where Failure == Never {
  /// Publishes the minimum element according to `areInIncreasingOrder`, or finishes empty.
  ///
  /// ```
  /// [3, 1, 2].publisher.min(by: <): [1|]
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument is ordered before its second.
  /// - Returns: An optional publisher of the minimum element.
  public func min(
    by areInIncreasingOrder: (
      Publishers.Sequence<Elements, Failure>.Output, Publishers.Sequence<Elements, Failure>.Output
    )
      -> Bool
  ) -> Optional<Publishers.Sequence<Elements, Failure>.Output>.Publisher {
    Optional.Publisher(sequence.min(by: areInIncreasingOrder))
  }

  /// Publishes the maximum element according to `areInIncreasingOrder`, or finishes empty.
  ///
  /// ```
  /// [1, 3, 2].publisher.max(by: <): [3|]
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument is ordered before its second.
  /// - Returns: An optional publisher of the maximum element.
  public func max(
    by areInIncreasingOrder: (
      Publishers.Sequence<Elements, Failure>.Output, Publishers.Sequence<Elements, Failure>.Output
    )
      -> Bool
  ) -> Optional<Publishers.Sequence<Elements, Failure>.Output>.Publisher {
    Optional.Publisher(sequence.max(by: areInIncreasingOrder))
  }

  /// Publishes the first element that satisfies `predicate`, or finishes empty.
  ///
  /// ```
  /// [1, 2, 3].publisher.first { $0 > 1 }: [2|]
  /// ```
  ///
  /// - Parameter predicate: A closure that takes an element and returns whether it is the one.
  /// - Returns: An optional publisher of the first matching element.
  public func first(
    where predicate: (Publishers.Sequence<Elements, Failure>.Output) -> Bool
  ) -> Optional<Publishers.Sequence<Elements, Failure>.Output>.Publisher {
    Optional.Publisher(sequence.first(where: predicate))
  }
}

extension Publishers.Sequence {
  /// Publishes whether every element satisfies `predicate`.
  ///
  /// ```
  /// [1, 2, 3].publisher.allSatisfy { $0 > 0 }: [true|]
  /// ```
  ///
  /// - Parameter predicate: A closure that evaluates each element.
  /// - Returns: A result publisher of the answer.
  public func allSatisfy(
    _ predicate: (Publishers.Sequence<Elements, Failure>.Output) -> Bool
  ) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
  }

  /// Publishes whether every element satisfies the throwing `predicate`, or fails with its error.
  ///
  /// ```
  /// [1, 2, 3].publisher.tryAllSatisfy { $0 > 0 }: [true|]
  /// ```
  ///
  /// - Parameter predicate: A throwing closure that evaluates each element.
  /// - Returns: A result publisher of the answer or the thrown error.
  public func tryAllSatisfy(
    _ predicate: (Publishers.Sequence<Elements, Failure>.Output) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
  }

  /// Publishes all elements as one array.
  ///
  /// ```
  /// [1, 2, 3].publisher.collect(): ['[1, 2, 3]'|]
  /// ```
  ///
  /// - Returns: A result publisher of the array of elements.
  public func collect() -> Result<[Publishers.Sequence<Elements, Failure>.Output], Failure>.Publisher {
    Result<[Elements.Element], Failure>.Publisher(Array(sequence))
  }

  /// Publishes whether any element satisfies `predicate`.
  ///
  /// ```
  /// [1, 2, 3].publisher.contains { $0 > 2 }: [true|]
  /// ```
  ///
  /// - Parameter predicate: A closure that evaluates each element.
  /// - Returns: A result publisher of the answer.
  public func contains(
    where predicate: (Publishers.Sequence<Elements, Failure>.Output) -> Bool
  ) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
  }

  /// Publishes whether any element satisfies the throwing `predicate`, or fails with its error.
  ///
  /// ```
  /// [1, 2, 3].publisher.tryContains { $0 > 2 }: [true|]
  /// ```
  ///
  /// - Parameter predicate: A throwing closure that evaluates each element.
  /// - Returns: A result publisher of the answer or the thrown error.
  public func tryContains(
    where predicate: (Publishers.Sequence<Elements, Failure>.Output) throws -> Bool
  ) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
  }

  /// Publishes no elements and finishes.
  ///
  /// ```
  /// [1, 2, 3].publisher.ignoreOutput(): |
  /// ```
  ///
  /// - Returns: An empty publisher.
  public func ignoreOutput() -> Empty<Publishers.Sequence<Elements, Failure>.Output, Failure> {
    Empty()
  }

  /// Publishes the result of folding every element with `nextPartialResult`.
  ///
  /// ```
  /// [1, 2, 3].publisher.reduce(0, +): [6|]
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the first element.
  ///   - nextPartialResult: A closure that takes the accumulated value and the next element.
  /// - Returns: A result publisher of the accumulated value.
  public func reduce<T>(
    _ initialResult: T,
    _ nextPartialResult: @escaping (T, Publishers.Sequence<Elements, Failure>.Output) -> T
  ) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
  }

  /// Publishes the result of folding every element with the throwing `nextPartialResult`, or fails with its error.
  ///
  /// ```
  /// [1, 2, 3].publisher.tryReduce(0, +): [6|]
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the first element.
  ///   - nextPartialResult: A throwing closure that takes the accumulated value and the next element.
  /// - Returns: A result publisher of the accumulated value or the thrown error.
  public func tryReduce<T>(
    _ initialResult: T,
    _ nextPartialResult: @escaping (T, Publishers.Sequence<Elements, Failure>.Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  /// Publishes whether the sequence contains `output`.
  ///
  /// ```
  /// [1, 2, 3].publisher.contains(2): [true|]
  /// ```
  ///
  /// - Parameter output: The element to look for.
  /// - Returns: A result publisher of the answer.
  public func contains(_ output: Publishers.Sequence<Elements, Failure>.Output) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.contains(output))
  }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
  /// Publishes the minimum element, or finishes empty.
  ///
  /// ```
  /// [3, 1, 2].publisher.min(): [1|]
  /// ```
  ///
  /// - Returns: An optional publisher of the minimum element.
  public func min() -> Optional<Publishers.Sequence<Elements, Failure>.Output>.Publisher {
    Optional.Publisher(sequence.min())
  }

  /// Publishes the maximum element, or finishes empty.
  ///
  /// ```
  /// [1, 3, 2].publisher.max(): [3|]
  /// ```
  ///
  /// - Returns: An optional publisher of the maximum element.
  public func max() -> Optional<Publishers.Sequence<Elements, Failure>.Output>.Publisher {
    Optional.Publisher(sequence.max())
  }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
  /// Publishes the first element, or finishes empty.
  ///
  /// ```
  /// [1, 2, 3].publisher.first(): [1|]
  /// ```
  ///
  /// - Returns: An optional publisher of the first element.
  public func first() -> Optional<Publishers.Sequence<Elements, Failure>.Output>.Publisher {
    Optional.Publisher(sequence.first)
  }

  /// Publishes the element at `index`, or finishes empty when the index is out of bounds.
  ///
  /// ```
  /// [1, 2, 3].publisher.output(at: 1): [2|]
  /// ```
  ///
  /// - Parameter index: An index of the collection.
  /// - Returns: An optional publisher of the element at the index.
  public func output(at index: Elements.Index) -> Optional<Publishers.Sequence<Elements, Failure>.Output>.Publisher {
    Optional.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
  }
}

extension Publishers.Sequence where Elements: Collection {
  /// Publishes the number of elements.
  ///
  /// ```
  /// [1, 2, 3].publisher.count(): [3|]
  /// ```
  ///
  /// - Returns: A result publisher of the count.
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(sequence.count)
  }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
  /// Publishes the last element, or finishes empty.
  ///
  /// ```
  /// [1, 2, 3].publisher.last(): [3|]
  /// ```
  ///
  /// - Returns: An optional publisher of the last element.
  public func last() -> Optional<Publishers.Sequence<Elements, Failure>.Output>.Publisher {
    Optional.Publisher(sequence.last)
  }

  /// Publishes the last element that satisfies `predicate`, or finishes empty.
  ///
  /// ```
  /// [1, 2, 3].publisher.last { $0 < 3 }: [2|]
  /// ```
  ///
  /// - Parameter predicate: A closure that takes an element and returns whether it matches.
  /// - Returns: An optional publisher of the last matching element.
  public func last(
    where predicate: (Publishers.Sequence<Elements, Failure>.Output) -> Bool
  ) -> Optional<Publishers.Sequence<Elements, Failure>.Output>.Publisher {
    Optional.Publisher(sequence.last(where: predicate))
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
  /// Publishes the element at `index`, or finishes empty when the index is out of bounds.
  ///
  /// ```
  /// [1, 2, 3].publisher.output(at: 1): [2|]
  /// ```
  ///
  /// - Parameter index: An index of the collection.
  /// - Returns: An optional publisher of the element at the index.
  public func output(at index: Elements.Index) -> Optional<Publishers.Sequence<Elements, Failure>.Output>.Publisher {
    Optional.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
  }

  /// Publishes the number of elements.
  ///
  /// ```
  /// [1, 2, 3].publisher.count(): [3|]
  /// ```
  ///
  /// - Returns: A `Just` of the count.
  public func count() -> Just<Int> {
    Just(sequence.count)
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
  /// Publishes the number of elements.
  ///
  /// ```
  /// [1, 2, 3].publisher.setFailureType(to: E.self).count(): [3|]
  /// ```
  ///
  /// - Returns: A result publisher of the count.
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(sequence.count)
  }
}
