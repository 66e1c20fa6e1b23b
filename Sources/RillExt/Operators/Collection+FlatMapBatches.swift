extension Collection where Element: Publisher {
  /// Subscribes to this collection's publishers `size` at a time, publishing each batch's zipped values in order.
  ///
  /// ```
  /// [p1, p2, p3] with  p1: -1---|  p2: --3|  p3: -5|
  /// flatMapBatches(of: 2):  --'[1, 3]'-'[5]'|
  /// ```
  ///
  /// The publishers are taken in the collection's order, in batches of `size` (the last one may be smaller). Each
  /// batch is zipped with `Collection.zip()`: it publishes arrays with one value of each of its publishers,
  /// in the batch's order, and ends when zip does. The next batch is subscribed only once the one before has
  /// finished; a failure ends everything at once. An empty collection finishes without a value.
  ///
  /// - Parameter size: The number of publishers subscribed at the same time; must be greater than zero.
  /// - Returns: A publisher of the zipped values of each batch, batch after batch.
  @inlinable
  public func flatMapBatches(of size: Int) -> AnyPublisher<[Element.Output], Element.Failure> {
    precondition(size > 0, "flatMapBatches(of:): the batch size is \(size); it must be greater than zero")
    var batches: [SubSequence] = []
    var start = startIndex
    while start != endIndex {
      let end = index(start, offsetBy: size, limitedBy: endIndex) ?? endIndex
      batches.append(self[start..<end])
      start = end
    }
    return batches.publisher
      .setFailureType(to: Element.Failure.self)
      .flatMap(maxPublishers: .max(1)) { $0.zip() }
      .eraseToAnyPublisher()
  }
}
