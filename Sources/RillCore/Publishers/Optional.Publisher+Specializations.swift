// Combine's specializations of `Optional.Publisher`: with at most one known element, each operator's answer is
// computed when the operator is applied. As in Combine, most of them publish nothing for an empty optional (even
// `count()` and `allSatisfy(_:)`); `collect()` publishes an empty array.

extension Optional.Publisher where Wrapped: Equatable {
  /// Publishes whether the element equals `output`; nothing when there is no element.
  ///
  /// ```
  /// Optional(1).publisher.contains(1): true|
  /// ```
  ///
  /// - Parameter output: The element to compare with.
  /// - Returns: An optional publisher of the answer.
  public func contains(_ output: Output) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(self.output.map { $0 == output })
  }

  /// Publishes the element; one element has no duplicates.
  ///
  /// ```
  /// Optional(1).publisher.removeDuplicates(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func removeDuplicates() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Comparable {
  /// Publishes the element, the minimum of at most one.
  ///
  /// ```
  /// Optional(1).publisher.min(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func min() -> Optional<Wrapped>.Publisher { self }

  /// Publishes the element, the maximum of at most one.
  ///
  /// ```
  /// Optional(1).publisher.max(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func max() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher {
  /// Publishes whether the element satisfies `predicate`; nothing when there is no element.
  ///
  /// ```
  /// Optional(1).publisher.allSatisfy { $0 > 0 }: true|
  /// ```
  ///
  /// - Parameter predicate: A closure that evaluates the element.
  /// - Returns: An optional publisher of the answer.
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate))
  }

  /// Publishes the element in an array, or an empty array when there is no element.
  ///
  /// ```
  /// Optional(1).publisher.collect(): '[1]'|
  /// ```
  ///
  /// - Returns: An optional publisher of the array.
  public func collect() -> Optional<[Output]>.Publisher {
    Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
  }

  /// Publishes the transformed element unless there is none or `transform` returns `nil`.
  ///
  /// ```
  /// Optional("1").publisher.compactMap { Int($0) }: 1|
  /// ```
  ///
  /// - Parameter transform: A closure that returns an optional value.
  /// - Returns: An optional publisher of the transformed element.
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.flatMap(transform))
  }

  /// Publishes the element, the minimum of at most one.
  ///
  /// ```
  /// Optional(1).publisher.min(by: <): 1|
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: An ordering closure; it is not called.
  /// - Returns: This publisher.
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

  /// Publishes the element, the maximum of at most one.
  ///
  /// ```
  /// Optional(1).publisher.max(by: <): 1|
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: An ordering closure; it is not called.
  /// - Returns: This publisher.
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

  /// Publishes whether the element satisfies `predicate`; nothing when there is no element.
  ///
  /// ```
  /// Optional(1).publisher.contains { $0 > 0 }: true|
  /// ```
  ///
  /// - Parameter predicate: A closure that evaluates the element.
  /// - Returns: An optional publisher of the answer.
  public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate))
  }

  /// Publishes 1 when there is an element; nothing otherwise.
  ///
  /// ```
  /// Optional("a").publisher.count(): 1|
  /// ```
  ///
  /// - Returns: An optional publisher of the count.
  public func count() -> Optional<Int>.Publisher {
    Optional<Int>.Publisher(output.map { _ in 1 })
  }

  /// Publishes the element if `count` is zero; otherwise finishes empty.
  ///
  /// ```
  /// Optional(1).publisher.dropFirst(): |
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
  /// Optional(1).publisher.drop { $0 > 5 }: 1|
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether to drop the element.
  /// - Returns: An optional publisher of what is left.
  public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
  }

  /// Publishes the element, which is the first.
  ///
  /// ```
  /// Optional(1).publisher.first(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func first() -> Optional<Output>.Publisher { self }

  /// Publishes the element if it satisfies `predicate`; otherwise finishes empty.
  ///
  /// ```
  /// Optional(1).publisher.first { $0 > 5 }: |
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether the element matches.
  /// - Returns: An optional publisher of the match.
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

  /// Publishes the element, which is the last.
  ///
  /// ```
  /// Optional(1).publisher.last(): 1|
  /// ```
  ///
  /// - Returns: This publisher.
  public func last() -> Optional<Output>.Publisher { self }

  /// Publishes the element if it satisfies `predicate`; otherwise finishes empty.
  ///
  /// ```
  /// Optional(1).publisher.last { $0 > 0 }: 1|
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether the element matches.
  /// - Returns: An optional publisher of the match.
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

  /// Publishes the element if it satisfies `isIncluded`; otherwise finishes empty.
  ///
  /// ```
  /// Optional(2).publisher.filter { $0 % 2 == 0 }: 2|
  /// ```
  ///
  /// - Parameter isIncluded: A closure that returns whether to republish the element.
  /// - Returns: An optional publisher of the element or nothing.
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
  }

  /// Finishes without publishing the element.
  ///
  /// ```
  /// Optional(1).publisher.ignoreOutput(): |
  /// ```
  ///
  /// - Returns: An empty publisher.
  public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

  /// Publishes the transformed element, if any.
  ///
  /// ```
  /// Optional(1).publisher.map { $0 * 2 }: 2|
  /// ```
  ///
  /// - Parameter transform: A closure that transforms the element.
  /// - Returns: An optional publisher of the transformed element.
  public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map(transform))
  }

  /// Publishes the element if `index` is zero; otherwise finishes empty.
  ///
  /// ```
  /// Optional(1).publisher.output(at: 0): 1|
  /// ```
  ///
  /// - Parameter index: The index of the element to publish; must not be negative.
  /// - Returns: An optional publisher of the element or nothing.
  public func output(at index: Int) -> Optional<Output>.Publisher {
    precondition(index >= 0, "output(at:): index must not be negative")
    return Optional<Output>.Publisher(index == 0 ? output : nil)
  }

  /// Publishes the element if `range` contains index zero; otherwise finishes empty.
  ///
  /// ```
  /// Optional(1).publisher.output(in: 0..<3): 1|
  /// ```
  ///
  /// - Parameter range: The range of indices to publish.
  /// - Returns: An optional publisher of the element or nothing.
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
    let bounds = range.relative(to: 0..<Int.max)
    precondition(bounds.lowerBound >= 0, "output(in:): range must not be negative")
    // Combine traps on an upper bound this close to `Int.max` too.
    precondition(bounds.upperBound <= Int.max - 2, "output(in:): range's upper bound is too large")
    return Optional<Output>.Publisher(bounds.lowerBound == 0 && bounds.upperBound != 0 ? output : nil)
  }

  /// Publishes the element if `maxLength` is positive; otherwise finishes empty.
  ///
  /// ```
  /// Optional(1).publisher.prefix(1): 1|
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
  /// Optional(1).publisher.prefix { $0 < 3 }: 1|
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether to keep the element.
  /// - Returns: An optional publisher of the element or nothing.
  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

  /// Publishes `nextPartialResult(initialResult, output)` when there is an element; nothing otherwise.
  ///
  /// ```
  /// Optional(1).publisher.reduce(10, +): 11|
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the element.
  ///   - nextPartialResult: A closure that combines the value and the element.
  /// - Returns: An optional publisher of the combined value.
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
  }

  /// Publishes `nextPartialResult(initialResult, output)` when there is an element; nothing otherwise.
  ///
  /// ```
  /// Optional(1).publisher.scan(10, +): 11|
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the element.
  ///   - nextPartialResult: A closure that combines the value and the element.
  /// - Returns: An optional publisher of the combined value.
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
  }

  /// Publishes the element; one element has no duplicates, so `predicate` is never called.
  ///
  /// ```
  /// Optional(1).publisher.removeDuplicates { $0 == $1 }: 1|
  /// ```
  ///
  /// - Parameter predicate: A closure that would compare consecutive elements.
  /// - Returns: This publisher.
  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

  /// Publishes the element; this publisher never fails.
  ///
  /// ```
  /// Optional(1).publisher.replaceError(with: 0): 1|
  /// ```
  ///
  /// - Parameter output: The element that would replace a failure.
  /// - Returns: This publisher.
  public func replaceError(with output: Output) -> Optional<Output>.Publisher { self }

  /// Publishes the element, or `output` when there is none.
  ///
  /// ```
  /// Optional<Int>.none.publisher.replaceEmpty(with: 0): 0|
  /// ```
  ///
  /// - Parameter output: The element to publish when there is none.
  /// - Returns: A `Just` of the element or the replacement.
  public func replaceEmpty(with output: Output) -> Just<Output> { Just(self.output ?? output) }

  /// Publishes the element; this publisher never fails, so there is nothing to retry.
  ///
  /// ```
  /// Optional(1).publisher.retry(3): 1|
  /// ```
  ///
  /// - Parameter times: The number of retries that would be attempted.
  /// - Returns: This publisher.
  public func retry(_ times: Int) -> Optional<Output>.Publisher { self }
}
