extension Publisher where Output: Collection {
  /// Transforms each element of each collection this publisher sends.
  ///
  /// ```
  /// upstream:                      -'ab'-'c'-|
  /// mapMany { $0.uppercased() }:   -'["A", "B"]'-'["C"]'-|
  /// ```
  ///
  /// - Parameter transform: A closure that transforms one element of a collection.
  /// - Returns: A publisher of arrays of the transformed elements.
  @inlinable
  public func mapMany<Result>(_ transform: @escaping (Output.Element) -> Result) -> Publishers.Map<Self, [Result]> {
    map { $0.map(transform) }
  }

  /// Keeps the elements of each collection this publisher sends that satisfy a predicate.
  ///
  /// ```
  /// upstream:                    -'abc'-'b'-|
  /// filterMany { $0 != "b" }:    -'["a", "c"]'-'[]'-|
  /// ```
  ///
  /// Every collection gives one array, empty if no element is kept.
  ///
  /// - Parameter isIncluded: A closure that says whether to keep an element.
  /// - Returns: A publisher of arrays of the kept elements.
  @inlinable
  public func filterMany(_ isIncluded: @escaping (Output.Element) -> Bool) -> AnyPublisher<[Output.Element], Failure> {
    map { $0.filter(isIncluded) }
      .eraseToAnyPublisher()
  }
}
