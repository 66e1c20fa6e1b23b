// Combine's `prepend` and `append` specializations of `Just`, which return a `Publishers.Sequence`.

extension Just {
  /// Publishes `elements`, then the element.
  ///
  /// ```
  /// Just(3).prepend(1, 2): [123|]
  /// ```
  ///
  /// - Parameter elements: The elements to publish first.
  /// - Returns: A sequence publisher of all the elements.
  public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Just<Output>.Failure> {
    prepend(elements)
  }

  /// Publishes the elements of `elements`, then the element.
  ///
  /// ```
  /// Just(3).prepend([1, 2]): [123|]
  /// ```
  ///
  /// - Parameter elements: The sequence to publish first.
  /// - Returns: A sequence publisher of all the elements.
  public func prepend<S: Sequence>(
    _ elements: S
  ) -> Publishers.Sequence<[Output], Just<Output>.Failure> where Output == S.Element {
    // As Combine does: reserve room for both parts, then append them, so `elements` is asked for its
    // `underestimatedCount` twice and iterated once.
    var joined: [Output] = []
    joined.reserveCapacity(elements.underestimatedCount + 1)
    joined.append(contentsOf: elements)
    joined.append(output)
    return Publishers.Sequence(sequence: joined)
  }

  /// Publishes the element, then `elements`.
  ///
  /// ```
  /// Just(1).append(2, 3): [123|]
  /// ```
  ///
  /// - Parameter elements: The elements to publish last.
  /// - Returns: A sequence publisher of all the elements.
  public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Just<Output>.Failure> {
    append(elements)
  }

  /// Publishes the element, then the elements of `elements`.
  ///
  /// ```
  /// Just(1).append([2, 3]): [123|]
  /// ```
  ///
  /// - Parameter elements: The sequence to publish last.
  /// - Returns: A sequence publisher of all the elements.
  public func append<S: Sequence>(
    _ elements: S
  ) -> Publishers.Sequence<[Output], Just<Output>.Failure> where Output == S.Element {
    var joined = [output]
    joined.append(contentsOf: elements)
    return Publishers.Sequence(sequence: joined)
  }
}
