// Combine's specializations of `Just`: with one known element, each operator's answer is computed when the
// operator is applied and returned as a `Just`, `Optional.Publisher`, `Result.Publisher`, `Empty` or
// `Publishers.Sequence`.

extension Just {
  /// Publishes the element if `count` is zero; otherwise finishes empty.
  ///
  /// ```
  /// Just(1).dropFirst(): |
  /// ```
  ///
  /// - Parameter count: The number of elements to drop; must not be negative.
  /// - Returns: An optional publisher of what is left.
  public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
    precondition(count >= 0, "dropFirst: count must not be negative")
    return Optional<Output>.Publisher(count == 0 ? output : nil)
  }

  /// Publishes the element unless `predicate` drops it.
  ///
  /// ```
  /// Just(1).drop { $0 > 5 }: 1|
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether to drop the element.
  /// - Returns: An optional publisher of what is left.
  public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? nil : output)
  }

  /// Publishes the element, which is the first.
  ///
  /// ```
  /// Just(1).first(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func first() -> Just<Output> { self }

  /// Publishes the element if it satisfies `predicate`; otherwise finishes empty.
  ///
  /// ```
  /// Just(1).first { $0 > 5 }: |
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether the element matches.
  /// - Returns: An optional publisher of the match.
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// Publishes the element, which is the last.
  ///
  /// ```
  /// Just(1).last(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func last() -> Just<Output> { self }

  /// Publishes the element if it satisfies `predicate`; otherwise finishes empty.
  ///
  /// ```
  /// Just(1).last { $0 > 0 }: 1|
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether the element matches.
  /// - Returns: An optional publisher of the match.
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// Publishes the element if it satisfies `isIncluded`; otherwise finishes empty.
  ///
  /// ```
  /// Just(2).filter { $0 % 2 == 0 }: 2|
  /// ```
  ///
  /// - Parameter isIncluded: A closure that returns whether to republish the element.
  /// - Returns: An optional publisher of the element or nothing.
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(isIncluded(output) ? output : nil)
  }

  /// Finishes without publishing the element.
  ///
  /// ```
  /// Just(1).ignoreOutput(): |
  /// ```
  ///
  /// - Returns: An empty publisher.
  public func ignoreOutput() -> Empty<Output, Just<Output>.Failure> { Empty() }

  /// Publishes the transformed element.
  ///
  /// ```
  /// Just(1).map { $0 * 2 }: 2|
  /// ```
  ///
  /// - Parameter transform: A closure that transforms the element.
  /// - Returns: A `Just` of the transformed element.
  public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

  /// Publishes the transformed element, or fails with the error `transform` throws.
  ///
  /// ```
  /// Just(1).tryMap { $0 * 2 }: 2|
  /// ```
  ///
  /// - Parameter transform: A throwing closure that transforms the element.
  /// - Returns: A result publisher of the transformed element or the thrown error.
  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try transform(output) })
  }

  /// Publishes the transformed element unless `transform` returns `nil`.
  ///
  /// ```
  /// Just("1").compactMap { Int($0) }: 1|
  /// ```
  ///
  /// - Parameter transform: A closure that returns an optional value.
  /// - Returns: An optional publisher of the transformed element.
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(transform(output))
  }

  /// Publishes the element with a new failure type; `Just` never fails, so `transform` is never called.
  ///
  /// ```
  /// Just(1).mapError { _ in E() }: 1|
  /// ```
  ///
  /// - Parameter transform: A closure that would convert the failure.
  /// - Returns: A result publisher of the element.
  public func mapError<E: Error>(_ transform: (Just<Output>.Failure) -> E) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(output)
  }

  /// Publishes the element if `index` is zero; otherwise finishes empty.
  ///
  /// ```
  /// Just(1).output(at: 0): 1|
  /// ```
  ///
  /// - Parameter index: The index of the element to publish; must not be negative.
  /// - Returns: An optional publisher of the element or nothing.
  public func output(at index: Int) -> Optional<Output>.Publisher {
    precondition(index >= 0, "output(at:): index must not be negative")
    return Optional<Output>.Publisher(index == 0 ? output : nil)
  }

  /// Publishes the element if `range` starts at index zero; otherwise finishes empty.
  ///
  /// ```
  /// Just(1).output(in: 0..<3): 1|
  /// ```
  ///
  /// As in Combine, only the range's lower bound is checked: an empty range starting at zero publishes the
  /// element, and a range starting below zero finishes empty rather than trapping.
  ///
  /// - Parameter range: The range of indices to publish.
  /// - Returns: An optional publisher of the element or nothing.
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
    let bounds = range.relative(to: 0..<Int.max)
    return Optional<Output>.Publisher(bounds.lowerBound == 0 ? output : nil)
  }

  /// Publishes the element if `maxLength` is positive; otherwise finishes empty.
  ///
  /// ```
  /// Just(1).prefix(1): 1|
  /// ```
  ///
  /// - Parameter maxLength: The maximum number of elements to publish; must not be negative.
  /// - Returns: An optional publisher of the element or nothing.
  public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
    precondition(maxLength >= 0, "prefix: maxLength must not be negative")
    return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
  }

  /// Publishes the element if it satisfies `predicate`; otherwise finishes empty.
  ///
  /// ```
  /// Just(1).prefix { $0 < 3 }: 1|
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether to keep the element.
  /// - Returns: An optional publisher of the element or nothing.
  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// Publishes the element with the declared failure type `E`.
  ///
  /// ```
  /// Just(1).setFailureType(to: E.self): 1|
  /// ```
  ///
  /// - Parameter failureType: The failure type to declare.
  /// - Returns: A result publisher of the element.
  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(output)
  }

  /// Publishes the element; one element has no duplicates, so `predicate` is never called.
  ///
  /// ```
  /// Just(1).removeDuplicates { $0 == $1 }: 1|
  /// ```
  ///
  /// - Parameter predicate: A closure that would compare consecutive elements.
  /// - Returns: This publisher.
  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

  /// Publishes the element, or fails if `predicate` throws when comparing the element with itself.
  ///
  /// ```
  /// Just(1).tryRemoveDuplicates { $0 == $1 }: 1|
  /// ```
  ///
  /// - Parameter predicate: A throwing closure that compares elements.
  /// - Returns: A result publisher of the element or the thrown error.
  public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher
  {
    Result<Output, any Error>.Publisher(
      Result {
        _ = try predicate(output, output)
        return output
      }
    )
  }

  /// Publishes the element; `Just` never fails.
  ///
  /// ```
  /// Just(1).replaceError(with: 0): 1|
  /// ```
  ///
  /// - Parameter output: The element that would replace a failure.
  /// - Returns: This publisher.
  public func replaceError(with output: Output) -> Just<Output> { self }

  /// Publishes the element; `Just` is never empty.
  ///
  /// ```
  /// Just(1).replaceEmpty(with: 0): 1|
  /// ```
  ///
  /// - Parameter output: The element that would replace an empty stream.
  /// - Returns: This publisher.
  public func replaceEmpty(with output: Output) -> Just<Output> { self }

  /// Publishes the element; `Just` never fails, so there is nothing to retry.
  ///
  /// ```
  /// Just(1).retry(3): 1|
  /// ```
  ///
  /// - Parameter times: The number of retries that would be attempted.
  /// - Returns: This publisher.
  public func retry(_ times: Int) -> Just<Output> { self }
}
