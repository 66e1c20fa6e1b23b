extension Collection where Element: Publisher {
  /// Merges this collection's publishers into one stream of their values, in the order they arrive.
  ///
  /// ```
  /// [a, b] with  a: -1---2-|  b: --x-y----|
  /// merge():  -1x-y2---|
  /// ```
  ///
  /// This is Combine's `Publishers.MergeMany` over the collection: it finishes once every publisher has finished,
  /// and fails as soon as one fails. An empty collection finishes at once.
  ///
  /// - Returns: A publisher of the values of all the publishers.
  @inlinable
  public func merge() -> AnyPublisher<Element.Output, Element.Failure> {
    Publishers.MergeMany(self).eraseToAnyPublisher()
  }
}
