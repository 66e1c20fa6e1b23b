// Combine's reducing specializations of `Just`: with one known element, the answer is computed when the operator
// is applied.

extension Just where Output: Comparable {
  /// Publishes this publisher's one element, which is its minimum.
  ///
  /// ```
  /// Just(1).min(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func min() -> Just<Output> { self }

  /// Publishes this publisher's one element, which is its maximum.
  ///
  /// ```
  /// Just(1).max(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
  /// Publishes whether the element equals `output`.
  ///
  /// ```
  /// Just(1).contains(1): true|
  /// ```
  ///
  /// - Parameter output: The element to compare with.
  /// - Returns: A `Just` of the answer.
  public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }

  /// Publishes the element; one element has no duplicates.
  ///
  /// ```
  /// Just(1).removeDuplicates(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func removeDuplicates() -> Just<Output> { self }
}

extension Just {
  /// Publishes whether the element satisfies `predicate`.
  ///
  /// ```
  /// Just(1).allSatisfy { $0 > 0 }: true|
  /// ```
  ///
  /// - Parameter predicate: A closure that evaluates the element.
  /// - Returns: A `Just` of the answer.
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

  /// Publishes whether the element satisfies the throwing `predicate`, or fails with its error.
  ///
  /// ```
  /// Just(1).tryAllSatisfy { $0 > 0 }: true|
  /// ```
  ///
  /// - Parameter predicate: A throwing closure that evaluates the element.
  /// - Returns: A result publisher of the answer or the thrown error.
  public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try predicate(output) })
  }

  /// Publishes whether the element satisfies `predicate`.
  ///
  /// ```
  /// Just(1).contains { $0 > 0 }: true|
  /// ```
  ///
  /// - Parameter predicate: A closure that evaluates the element.
  /// - Returns: A `Just` of the answer.
  public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

  /// Publishes whether the element satisfies the throwing `predicate`, or fails with its error.
  ///
  /// ```
  /// Just(1).tryContains { $0 > 0 }: true|
  /// ```
  ///
  /// - Parameter predicate: A throwing closure that evaluates the element.
  /// - Returns: A result publisher of the answer or the thrown error.
  public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try predicate(output) })
  }

  /// Publishes the element in a one-element array.
  ///
  /// ```
  /// Just(1).collect(): '[1]'|
  /// ```
  ///
  /// - Returns: A `Just` of the array.
  public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

  /// Publishes the element, the minimum of one.
  ///
  /// ```
  /// Just(1).min(by: <): 1|
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: An ordering closure; it is not called.
  /// - Returns: This publisher.
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

  /// Publishes the element, the maximum of one.
  ///
  /// ```
  /// Just(1).max(by: <): 1|
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: An ordering closure; it is not called.
  /// - Returns: This publisher.
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

  /// Publishes the number of elements, one.
  ///
  /// ```
  /// Just("a").count(): 1|
  /// ```
  ///
  /// - Returns: A `Just` of 1.
  public func count() -> Just<Int> { Just<Int>(1) }

  /// Publishes `nextPartialResult(initialResult, output)`.
  ///
  /// ```
  /// Just(1).reduce(10, +): 11|
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the element.
  ///   - nextPartialResult: A closure that combines the value and the element.
  /// - Returns: A result publisher of the combined value.
  public func reduce<T>(
    _ initialResult: T,
    _ nextPartialResult: (T, Output) -> T
  ) -> Result<T, Just<Output>.Failure>.Publisher {
    Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
  }

  /// Publishes `nextPartialResult(initialResult, output)`, or fails with the error it throws.
  ///
  /// ```
  /// Just(1).tryReduce(10, +): 11|
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the element.
  ///   - nextPartialResult: A throwing closure that combines the value and the element.
  /// - Returns: A result publisher of the combined value or the thrown error.
  public func tryReduce<T>(
    _ initialResult: T,
    _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
  }

  /// Publishes `nextPartialResult(initialResult, output)`, the one running result.
  ///
  /// ```
  /// Just(1).scan(10, +): 11|
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the element.
  ///   - nextPartialResult: A closure that combines the value and the element.
  /// - Returns: A result publisher of the combined value.
  public func scan<T>(
    _ initialResult: T,
    _ nextPartialResult: (T, Output) -> T
  ) -> Result<T, Just<Output>.Failure>.Publisher {
    Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
  }

  /// Publishes `nextPartialResult(initialResult, output)`, or fails with the error it throws.
  ///
  /// ```
  /// Just(1).tryScan(10, +): 11|
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the element.
  ///   - nextPartialResult: A throwing closure that combines the value and the element.
  /// - Returns: A result publisher of the combined value or the thrown error.
  public func tryScan<T>(
    _ initialResult: T,
    _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
  }
}
