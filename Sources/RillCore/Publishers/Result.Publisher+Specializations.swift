// Combine's specializations of `Result.Publisher`: with the result known, each operator's answer is computed when
// the operator is applied; a failure passes through (as `any Error` for the `try` variants).

extension Result.Publisher where Output: Equatable {
  /// Publishes whether the success value equals `output`, or the failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.contains(1): true|
  /// ```
  ///
  /// - Parameter output: The element to compare with.
  /// - Returns: A result publisher of the answer.
  public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map { $0 == output })
  }

  /// Publishes the result; one element has no duplicates.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.removeDuplicates(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Comparable {
  /// Publishes the result, the minimum of at most one element.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.min(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func min() -> Result<Output, Failure>.Publisher { self }

  /// Publishes the result, the maximum of at most one element.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.max(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher {
  /// Publishes whether the success value satisfies `predicate`, or the failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.allSatisfy { $0 > 0 }: true|
  /// ```
  ///
  /// - Parameter predicate: A closure that evaluates the element.
  /// - Returns: A result publisher of the answer.
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map(predicate))
  }

  /// Publishes whether the success value satisfies the throwing `predicate`, or a failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.tryAllSatisfy { $0 > 0 }: true|
  /// ```
  ///
  /// - Parameter predicate: A throwing closure that evaluates the element.
  /// - Returns: A result publisher of the answer, the thrown error or the failure.
  public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(tryMapResult(predicate))
  }

  /// Publishes whether the success value satisfies `predicate`, or the failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.contains { $0 > 0 }: true|
  /// ```
  ///
  /// - Parameter predicate: A closure that evaluates the element.
  /// - Returns: A result publisher of the answer.
  public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map(predicate))
  }

  /// Publishes whether the success value satisfies the throwing `predicate`, or a failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.tryContains { $0 > 0 }: true|
  /// ```
  ///
  /// - Parameter predicate: A throwing closure that evaluates the element.
  /// - Returns: A result publisher of the answer, the thrown error or the failure.
  public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(tryMapResult(predicate))
  }

  /// Publishes the success value in a one-element array, or the failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.collect(): '[1]'|
  /// ```
  ///
  /// - Returns: A result publisher of the array.
  public func collect() -> Result<[Output], Failure>.Publisher {
    Result<[Output], Failure>.Publisher(result.map { [$0] })
  }

  /// Publishes the result, the minimum of at most one element.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.min(by: <): 1|
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: An ordering closure; it is not called.
  /// - Returns: This publisher.
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

  /// Publishes the result, or fails if `areInIncreasingOrder` throws when comparing the value with itself.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.tryMin(by: <): 1|
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: A throwing ordering closure.
  /// - Returns: A result publisher of the value, the thrown error or the failure.
  public func tryMin(
    by areInIncreasingOrder: (Output, Output) throws -> Bool
  ) -> Result<Output, any Error>.Publisher {
    Result<Output, any Error>.Publisher(checkedWithItself(areInIncreasingOrder))
  }

  /// Publishes the result, the maximum of at most one element.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.max(by: <): 1|
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: An ordering closure; it is not called.
  /// - Returns: This publisher.
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

  /// Publishes the result, or fails if `areInIncreasingOrder` throws when comparing the value with itself.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.tryMax(by: <): 1|
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: A throwing ordering closure.
  /// - Returns: A result publisher of the value, the thrown error or the failure.
  public func tryMax(
    by areInIncreasingOrder: (Output, Output) throws -> Bool
  ) -> Result<Output, any Error>.Publisher {
    Result<Output, any Error>.Publisher(checkedWithItself(areInIncreasingOrder))
  }

  /// Publishes 1 for a success, or the failure.
  ///
  /// ```
  /// Result<String, E>.success("a").publisher.count(): 1|
  /// ```
  ///
  /// - Returns: A result publisher of the count.
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(result.map { _ in 1 })
  }

  /// Publishes the result, whose value is the first element.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.first(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func first() -> Result<Output, Failure>.Publisher { self }

  /// Publishes the result, whose value is the last element.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.last(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func last() -> Result<Output, Failure>.Publisher { self }

  /// Finishes without publishing the value; a failure is not published either, as in Combine.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.ignoreOutput(): |
  /// ```
  ///
  /// - Returns: An empty publisher.
  public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

  /// Publishes the transformed success value, or the failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.map { $0 * 2 }: 2|
  /// ```
  ///
  /// - Parameter transform: A closure that transforms the value.
  /// - Returns: A result publisher of the transformed value.
  public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(result.map(transform))
  }

  /// Publishes the transformed success value, the error `transform` throws, or the failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.tryMap { $0 * 2 }: 2|
  /// ```
  ///
  /// - Parameter transform: A throwing closure that transforms the value.
  /// - Returns: A result publisher of the transformed value or an error.
  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(tryMapResult(transform))
  }

  /// Publishes the success value, or the transformed failure.
  ///
  /// ```
  /// Result<Int, E>.failure(e).publisher.mapError { F($0) }: ^
  /// ```
  ///
  /// - Parameter transform: A closure that converts the failure.
  /// - Returns: A result publisher with the new failure type.
  public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(result.mapError(transform))
  }

  /// Publishes the result; one element has no duplicates, so `predicate` is never called.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.removeDuplicates { $0 == $1 }: 1|
  /// ```
  ///
  /// - Parameter predicate: A closure that would compare consecutive elements.
  /// - Returns: This publisher.
  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

  /// Publishes the result, or fails if `predicate` throws when comparing the value with itself.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.tryRemoveDuplicates { $0 == $1 }: 1|
  /// ```
  ///
  /// - Parameter predicate: A throwing closure that compares elements.
  /// - Returns: A result publisher of the value, the thrown error or the failure.
  public func tryRemoveDuplicates(
    by predicate: (Output, Output) throws -> Bool
  ) -> Result<Output, any Error>.Publisher {
    Result<Output, any Error>.Publisher(checkedWithItself(predicate))
  }

  /// Publishes the success value, or `output` in place of the failure.
  ///
  /// ```
  /// Result<Int, E>.failure(e).publisher.replaceError(with: 0): 0|
  /// ```
  ///
  /// - Parameter output: The element to publish in place of a failure.
  /// - Returns: A result publisher that never fails.
  public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
    switch result {
    case .success(let value): Result<Output, Never>.Publisher(value)
    case .failure: Result<Output, Never>.Publisher(output)
    }
  }

  /// Publishes the result; it is never empty.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.replaceEmpty(with: 0): 1|
  /// ```
  ///
  /// - Parameter output: The element that would replace an empty stream.
  /// - Returns: This publisher.
  public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

  /// Publishes the result; retrying would only produce it again.
  ///
  /// ```
  /// Result<Int, E>.failure(e).publisher.retry(3): ^
  /// ```
  ///
  /// - Parameter times: The number of retries that would be attempted.
  /// - Returns: This publisher.
  public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

  /// Publishes `nextPartialResult(initialResult, value)` for a success, or the failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.reduce(10, +): 11|
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the element.
  ///   - nextPartialResult: A closure that combines the value and the element.
  /// - Returns: A result publisher of the combined value.
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
  }

  /// Publishes `nextPartialResult(initialResult, value)` for a success, the error it throws, or the failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.tryReduce(10, +): 11|
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the element.
  ///   - nextPartialResult: A throwing closure that combines the value and the element.
  /// - Returns: A result publisher of the combined value or an error.
  public func tryReduce<T>(
    _ initialResult: T,
    _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(tryMapResult { try nextPartialResult(initialResult, $0) })
  }

  /// Publishes `nextPartialResult(initialResult, value)` for a success, or the failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.scan(10, +): 11|
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the element.
  ///   - nextPartialResult: A closure that combines the value and the element.
  /// - Returns: A result publisher of the combined value.
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
  }

  /// Publishes `nextPartialResult(initialResult, value)` for a success, the error it throws, or the failure.
  ///
  /// ```
  /// Result<Int, E>.success(1).publisher.tryScan(10, +): 11|
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the element.
  ///   - nextPartialResult: A throwing closure that combines the value and the element.
  /// - Returns: A result publisher of the combined value or an error.
  public func tryScan<T>(
    _ initialResult: T,
    _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(tryMapResult { try nextPartialResult(initialResult, $0) })
  }

  private func tryMapResult<T>(_ transform: (Output) throws -> T) -> Result<T, any Error> {
    switch result {
    case .success(let value): Result<T, any Error> { try transform(value) }
    case .failure(let error): .failure(error)
    }
  }

  private func checkedWithItself(_ predicate: (Output, Output) throws -> Bool) -> Result<Output, any Error> {
    tryMapResult { value in
      _ = try predicate(value, value)
      return value
    }
  }
}

extension Result.Publisher where Failure == Never {
  /// Publishes the success value with the declared failure type `E`.
  ///
  /// ```
  /// Result<Int, Never>.success(1).publisher.setFailureType(to: E.self): 1|
  /// ```
  ///
  /// - Parameter failureType: The failure type to declare.
  /// - Returns: A result publisher with the new failure type.
  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
    switch result {
    case .success(let value): Result<Output, E>.Publisher(value)
    }
  }
}
