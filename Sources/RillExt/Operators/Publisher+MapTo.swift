extension Publisher {
  /// Wraps each value in `Result.success` and a failure in `Result.failure`, then finishes after it.
  ///
  /// ```
  /// upstream:       -1-^
  /// mapToResult():  -'success(1)'-['failure(MarbleError)'|]
  /// ```
  ///
  /// The failure's result waits for demand like any value.
  ///
  /// - Returns: A publisher of results that cannot fail.
  @inlinable
  public func mapToResult() -> AnyPublisher<Result<Output, Failure>, Never> {
    map { Result<Output, Failure>.success($0) }
      .catch { Just(Result<Output, Failure>.failure($0)) }
      .eraseToAnyPublisher()
  }

  /// Replaces each value with the same constant.
  ///
  /// ```
  /// upstream:        -1-2-|
  /// mapToValue(0):   -0-0-|
  /// ```
  ///
  /// - Parameter value: The constant to publish for each value.
  /// - Returns: A publisher of `value`, once for each value of this one.
  @inlinable
  public func mapToValue<Value>(_ value: Value) -> Publishers.Map<Self, Value> {
    map { _ in value }
  }

  /// Replaces each value with `()`.
  ///
  /// ```
  /// upstream:     -1-2-|
  /// mapToVoid():  -'()'-'()'-|
  /// ```
  ///
  /// - Returns: A publisher of `()`, once for each value of this one.
  @inlinable
  public func mapToVoid() -> Publishers.Map<Self, Void> {
    map { _ in () }
  }
}
