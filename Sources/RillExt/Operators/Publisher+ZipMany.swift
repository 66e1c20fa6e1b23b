extension Publisher {
  /// Zips this publisher with any number of others of the same types, publishing arrays of their values.
  ///
  /// ```
  /// upstream:     -1---2---|
  /// other:        --a-b------|
  /// zip(with: [other]).map { $0.joined() }:  --'1a'--'2b'---|
  /// ```
  ///
  /// The i-th array holds the i-th value of this publisher, then the i-th value of each of `others` in order. It
  /// requests, buffers, finishes and fails as Combine's `zip` does: downstream's demand goes to every publisher, and
  /// the stream finishes once a publisher has finished and no array can be completed any more, and fails as soon as
  /// one fails. Arrays arrive on the thread that completes them, as Combine's `zip` delivers its tuples. All the
  /// publishers share one subscription, so any number of them can be zipped.
  ///
  /// - Parameter others: The publishers to zip with this one.
  /// - Returns: A publisher of arrays with one value of each publisher.
  @inlinable
  public func zip<Others: Collection>(
    with others: Others
  ) -> AnyPublisher<[Output], Failure>
  where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
    CombiningMany(mode: .zip, first: self, others: others).eraseToAnyPublisher()
  }

  /// Zips this publisher with others of the same types, publishing arrays of their values.
  ///
  /// ```
  /// upstream:  -1---2---|
  /// a:         --a-b------|
  /// b:         ---x---y-----|
  /// zip(with: a, b).map { $0.joined() }:  ---'1ax'---'2by'-|
  /// ```
  ///
  /// See `zip(with:)` for how the values are put together and when the stream ends.
  ///
  /// - Parameter others: The publishers to zip with this one.
  /// - Returns: A publisher of arrays with one value of each publisher.
  @inlinable
  public func zip<Other: Publisher>(
    with others: Other...
  ) -> AnyPublisher<[Output], Failure> where Other.Output == Output, Other.Failure == Failure {
    zip(with: others)
  }
}

extension Collection where Element: Publisher {
  /// Zips this collection's publishers, publishing arrays with one value of each, in the collection's order.
  ///
  /// ```
  /// [a, b] with  a: -1---2---|  b: --x-y------|
  /// zip().map { $0.joined() }:  --'1x'--'2y'---|
  /// ```
  ///
  /// See `zip(with:)` for when the stream ends. An empty collection finishes at once, without a value.
  ///
  /// - Returns: A publisher of arrays with one value of each publisher.
  @inlinable
  public func zip() -> AnyPublisher<[Element.Output], Element.Failure> {
    guard let first = first else { return Empty().eraseToAnyPublisher() }
    return first.zip(with: dropFirst())
  }
}
