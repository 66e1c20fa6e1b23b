extension Publisher {
  /// Combines this publisher with any number of others of the same types, publishing arrays of their latest values.
  ///
  /// ```
  /// upstream:  -1---2-----|
  /// other:     --a----b-----|
  /// combineLatest(with: [other]).map { $0.joined() }:  --'1a'--'2a'-'2b'-----|
  /// ```
  ///
  /// Once each publisher has sent a value, every value of any of them publishes an array of the latest value of
  /// this publisher, then of each of `others` in order. It requests, finishes and fails as Combine's
  /// `combineLatest` does: downstream's demand goes to every publisher, and the stream finishes once all the
  /// publishers have finished, and fails as soon as one fails. As with Combine's `combineLatest`, a value that arrives
  /// while an array is being received becomes its publisher's latest without being published. All the publishers
  /// share one subscription, so any number of them can be combined.
  ///
  /// - Parameter others: The publishers to combine with this one.
  /// - Returns: A publisher of arrays with the latest value of each publisher.
  @inlinable
  public func combineLatest<Others: Collection>(
    with others: Others
  ) -> AnyPublisher<[Output], Failure>
  where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
    CombiningMany(mode: .combineLatest, first: self, others: others).eraseToAnyPublisher()
  }

  /// Combines this publisher with others of the same types, publishing arrays of their latest values.
  ///
  /// ```
  /// upstream:  -1-------2---|
  /// a:         --a----------|
  /// b:         ----x--y-------|
  /// combineLatest(with: a, b).map { $0.joined() }:  ----'1ax'--'1ay'-'2ay'-----|
  /// ```
  ///
  /// See `combineLatest(with:)` for when an array is published and when the stream ends.
  ///
  /// - Parameter others: The publishers to combine with this one.
  /// - Returns: A publisher of arrays with the latest value of each publisher.
  @inlinable
  public func combineLatest<Other: Publisher>(
    with others: Other...
  ) -> AnyPublisher<[Output], Failure> where Other.Output == Output, Other.Failure == Failure {
    combineLatest(with: others)
  }
}

extension Collection where Element: Publisher {
  /// Combines this collection's publishers, publishing arrays of their latest values in the collection's order.
  ///
  /// ```
  /// [a, b] with  a: -1---2-----|  b: --x----y-----|
  /// combineLatest().map { $0.joined() }:  --'1x'--'2x'-'2y'-----|
  /// ```
  ///
  /// See `combineLatest(with:)` for when an array is published and when the stream ends. An empty collection
  /// finishes at once, without a value.
  ///
  /// - Returns: A publisher of arrays with the latest value of each publisher.
  @inlinable
  public func combineLatest() -> AnyPublisher<[Element.Output], Element.Failure> {
    guard let first = first else { return Empty().eraseToAnyPublisher() }
    return first.combineLatest(with: dropFirst())
  }
}
