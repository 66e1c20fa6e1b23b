extension Publisher {
  /// Publishes each run of `size` consecutive values, once this publisher has sent that many.
  ///
  /// ```
  /// upstream:    -1-2-3-4-|
  /// nwise(3):    -----'[1, 2, 3]'-'[2, 3, 4]'-|
  /// ```
  ///
  /// Nothing is published until the `size`th value; from then on, each value gives an array of it and the `size - 1`
  /// values before it. Each value held back asks upstream for one more in its place. Completions pass through.
  ///
  /// - Parameter size: The number of values in each array; it must be greater than 1.
  /// - Returns: A publisher of arrays of `size` consecutive values.
  @inlinable
  public func nwise(_ size: Int) -> AnyPublisher<[Output], Failure> {
    assert(size > 1, "nwise: the size must be greater than 1, not \(size)")
    return scan([Output]()) { window, value in
      var next = window.count < size ? window : Array(window.dropFirst())
      next.append(value)
      return next
    }
    .filter { $0.count == size }
    .eraseToAnyPublisher()
  }

  /// Publishes each value together with the one before it.
  ///
  /// ```
  /// upstream:     -1-2-3-|
  /// pairwise():   ---'(1, 2)'-'(2, 3)'-|
  /// ```
  ///
  /// - Returns: A publisher of pairs of consecutive values.
  @inlinable
  public func pairwise() -> AnyPublisher<(Output, Output), Failure> {
    nwise(2)
      .map { ($0[0], $0[1]) }
      .eraseToAnyPublisher()
  }
}
