extension Publisher {
  /// One side of ``RillCore/Publisher/partition(_:)``: the values of this publisher on that side.
  public typealias Partition = AnyPublisher<Output, Failure>

  /// Splits this publisher's values in two: those that satisfy `predicate`, and those that do not.
  ///
  /// ```
  /// upstream:                          -1-2-3-4-|
  /// partition { $0 % 2 == 0 }.matches:     ---2---4-|
  /// partition { $0 % 2 == 0 }.nonMatches:  -1---3---|
  /// ```
  ///
  /// Both publishers share one subscription to this publisher (through `share()`), and `predicate` runs once per
  /// value, whatever the number of subscribers. As with `share()`, the subscription starts with the first subscriber
  /// and runs on demand-free terms: subscribe to both before this publisher sends (or put `makeConnectable()`
  /// before), or the second misses what came before it. Both forward this publisher's completion.
  ///
  /// - Parameter predicate: A closure that says on which side a value goes.
  /// - Returns: The publisher of the values that satisfy `predicate`, and the publisher of the others.
  @inlinable
  public func partition(
    _ predicate: @escaping (Output) -> Bool
  ) -> (matches: Partition, nonMatches: Partition) {
    let sorted = map { (value: $0, matches: predicate($0)) }.share()
    let matches = sorted.compactMap { $0.matches ? $0.value : nil }.eraseToAnyPublisher()
    let nonMatches = sorted.compactMap { $0.matches ? nil : $0.value }.eraseToAnyPublisher()
    return (matches, nonMatches)
  }
}
