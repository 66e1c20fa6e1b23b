// Combine's eager specializations of `Publishers.Sequence` that return another `Publishers.Sequence`: the work is
// done once, when the operator is applied, and subscribers get a plain sequence publisher.

extension Publishers.Sequence {
  /// Republishes the non-`nil` results of calling `transform` on each element, computed at once.
  ///
  /// ```
  /// [1, 2, 3].publisher.compactMap { $0 == 2 ? nil : $0 }: [13|]
  /// ```
  ///
  /// - Parameter transform: A closure that receives an element and returns an optional value.
  /// - Returns: A sequence publisher of the non-`nil` results.
  @inlinable
  public func compactMap<T>(_ transform: (Elements.Element) -> T?) -> Publishers.Sequence<[T], Failure> {
    Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
  }

  /// Omits elements until `predicate` returns `false`, then republishes all remaining elements.
  ///
  /// ```
  /// [1, 2, 3, 1].publisher.drop { $0 < 2 }: [231|]
  /// ```
  ///
  /// - Parameter predicate: A closure that takes an element and returns whether to drop it.
  /// - Returns: A sequence publisher over the rest of the sequence.
  @inlinable
  public func drop(
    while predicate: (Elements.Element) -> Bool
  ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
    Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
  }

  /// Omits the specified number of elements before republishing the rest.
  ///
  /// ```
  /// [1, 2, 3].publisher.dropFirst(): [23|]
  /// ```
  ///
  /// - Parameter count: The number of elements to omit; defaults to 1.
  /// - Returns: A sequence publisher over the rest of the sequence.
  @inlinable
  public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
    Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
  }

  /// Republishes the elements that match `isIncluded`, computed at once.
  ///
  /// ```
  /// [1, 2, 3, 4].publisher.filter { $0 % 2 == 0 }: [24|]
  /// ```
  ///
  /// - Parameter isIncluded: A closure that takes an element and returns whether to republish it.
  /// - Returns: A sequence publisher of the matching elements.
  @inlinable
  public func filter(_ isIncluded: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter(isIncluded))
  }

  /// Transforms every element with `transform`, computed at once.
  ///
  /// ```
  /// [1, 2, 3].publisher.map { $0 * 2 }: [246|]
  /// ```
  ///
  /// - Parameter transform: A closure that takes an element and returns a new one.
  /// - Returns: A sequence publisher of the transformed elements.
  @inlinable
  public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
    Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
  }

  /// Republishes at most the first `maxLength` elements.
  ///
  /// ```
  /// [1, 2, 3].publisher.prefix(2): [12|]
  /// ```
  ///
  /// - Parameter maxLength: The maximum number of elements to republish.
  /// - Returns: A sequence publisher of the first elements.
  @inlinable
  public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
    Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
  }

  /// Republishes elements while `predicate` returns `true`, computed at once.
  ///
  /// ```
  /// [1, 2, 3, 1].publisher.prefix { $0 < 3 }: [12|]
  /// ```
  ///
  /// - Parameter predicate: A closure that takes an element and returns whether to keep going.
  /// - Returns: A sequence publisher of the leading matching elements.
  @inlinable
  public func prefix(
    while predicate: (Elements.Element) -> Bool
  ) -> Publishers.Sequence<[Elements.Element], Failure> {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
  }

  /// Replaces `nil` elements with `output`; the elements stay optional, as in Combine.
  ///
  /// ```
  /// [1, nil, 3].publisher.replaceNil(with: 0): [1 0 3|]
  /// ```
  ///
  /// - Parameter output: The element to use in place of `nil`.
  /// - Returns: A sequence publisher with no `nil` elements.
  @inlinable
  public func replaceNil<T>(
    with output: T
  ) -> Publishers.Sequence<[Publishers.Sequence<Elements, Failure>.Output], Failure> where Elements.Element == T? {
    Publishers.Sequence<[T?], Failure>(sequence: sequence.map { $0 ?? output })
  }

  /// Publishes each running result of `nextPartialResult`, computed at once.
  ///
  /// ```
  /// [1, 2, 3].publisher.scan(0, +): [136|]
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value combined with the first element.
  ///   - nextPartialResult: A closure that takes the previous result and the next element.
  /// - Returns: A sequence publisher of the running results.
  @inlinable
  public func scan<T>(
    _ initialResult: T,
    _ nextPartialResult: @escaping (T, Publishers.Sequence<Elements, Failure>.Output) -> T
  ) -> Publishers.Sequence<[T], Failure> {
    var partial = initialResult
    var results: [T] = []
    results.reserveCapacity(sequence.underestimatedCount)
    for element in sequence {
      partial = nextPartialResult(partial, element)
      results.append(partial)
    }
    return Publishers.Sequence<[T], Failure>(sequence: results)
  }

  /// Changes the failure type this publisher declares; it still never fails.
  ///
  /// ```
  /// [1, 2].publisher.setFailureType(to: E.self): [12|]
  /// ```
  ///
  /// - Parameter error: The failure type to declare.
  /// - Returns: A sequence publisher over the same elements with the new failure type.
  @inlinable
  public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
    Publishers.Sequence<Elements, E>(sequence: sequence)
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  /// Omits elements equal to the one before them, computed at once.
  ///
  /// ```
  /// [1, 1, 2, 1].publisher.removeDuplicates(): [121|]
  /// ```
  ///
  /// - Returns: A sequence publisher without consecutive duplicates.
  @inlinable
  public func removeDuplicates() -> Publishers.Sequence<[Publishers.Sequence<Elements, Failure>.Output], Failure> {
    var result: [Elements.Element] = []
    for element in sequence where result.last != element {
      result.append(element)
    }
    return Publishers.Sequence<[Elements.Element], Failure>(sequence: result)
  }
}

extension Publishers.Sequence where Elements: Collection {
  /// Publishes the elements in `range` of the collection.
  ///
  /// ```
  /// [1, 2, 3, 4].publisher.output(in: 1..<3): [23|]
  /// ```
  ///
  /// - Parameter range: A range of the collection's indices.
  /// - Returns: A sequence publisher of the elements in the range.
  @inlinable
  public func output(
    in range: Range<Elements.Index>
  ) -> Publishers.Sequence<[Publishers.Sequence<Elements, Failure>.Output], Failure> {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[range]))
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
  /// Publishes the elements in `range` of the collection.
  ///
  /// ```
  /// [1, 2, 3, 4].publisher.output(in: 1..<3): [23|]
  /// ```
  ///
  /// - Parameter range: A range of the collection's indices.
  /// - Returns: A sequence publisher of the elements in the range.
  @inlinable
  public func output(
    in range: Range<Elements.Index>
  ) -> Publishers.Sequence<[Publishers.Sequence<Elements, Failure>.Output], Failure> {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[range]))
  }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
  /// Publishes `elements` before this sequence's elements.
  ///
  /// ```
  /// [3, 4].publisher.prepend(1, 2): [1234|]
  /// ```
  ///
  /// - Parameter elements: The elements to publish first.
  /// - Returns: A sequence publisher over the joined collection.
  @inlinable
  public func prepend(
    _ elements: Publishers.Sequence<Elements, Failure>.Output...
  ) -> Publishers.Sequence<Elements, Failure> {
    prepend(elements)
  }

  /// Publishes the elements of `elements` before this sequence's elements.
  ///
  /// ```
  /// [3, 4].publisher.prepend([1, 2]): [1234|]
  /// ```
  ///
  /// - Parameter elements: The sequence to publish first.
  /// - Returns: A sequence publisher over the joined collection.
  @inlinable
  public func prepend<S: Swift.Sequence>(
    _ elements: S
  ) -> Publishers.Sequence<Elements, Failure> where Publishers.Sequence<Elements, Failure>.Output == S.Element {
    var joined = Elements()
    joined.reserveCapacity(sequence.count + elements.underestimatedCount)
    joined.append(contentsOf: elements)
    joined.append(contentsOf: sequence)
    return Publishers.Sequence(sequence: joined)
  }

  /// Publishes the elements of `publisher` before this sequence's elements.
  ///
  /// ```
  /// [3, 4].publisher.prepend([1, 2].publisher): [1234|]
  /// ```
  ///
  /// - Parameter publisher: The sequence publisher whose elements come first.
  /// - Returns: A sequence publisher over the joined collection.
  @inlinable
  public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
    var joined = publisher.sequence
    joined.append(contentsOf: sequence)
    return Publishers.Sequence(sequence: joined)
  }

  /// Publishes `elements` after this sequence's elements.
  ///
  /// ```
  /// [1, 2].publisher.append(3, 4): [1234|]
  /// ```
  ///
  /// - Parameter elements: The elements to publish last.
  /// - Returns: A sequence publisher over the joined collection.
  @inlinable
  public func append(
    _ elements: Publishers.Sequence<Elements, Failure>.Output...
  ) -> Publishers.Sequence<Elements, Failure> {
    append(elements)
  }

  /// Publishes the elements of `elements` after this sequence's elements.
  ///
  /// ```
  /// [1, 2].publisher.append([3, 4]): [1234|]
  /// ```
  ///
  /// - Parameter elements: The sequence to publish last.
  /// - Returns: A sequence publisher over the joined collection.
  @inlinable
  public func append<S: Swift.Sequence>(
    _ elements: S
  ) -> Publishers.Sequence<Elements, Failure> where Publishers.Sequence<Elements, Failure>.Output == S.Element {
    var joined = sequence
    joined.append(contentsOf: elements)
    return Publishers.Sequence(sequence: joined)
  }

  /// Publishes the elements of `publisher` after this sequence's elements.
  ///
  /// ```
  /// [1, 2].publisher.append([3, 4].publisher): [1234|]
  /// ```
  ///
  /// - Parameter publisher: The sequence publisher whose elements come last.
  /// - Returns: A sequence publisher over the joined collection.
  @inlinable
  public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
    append(publisher.sequence)
  }
}
