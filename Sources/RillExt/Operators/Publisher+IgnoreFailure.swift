extension Publisher {
  /// Republishes the values and replaces a failure with a finish, or with silence; the counterpart of `ignoreOutput()`.
  ///
  /// ```
  /// upstream:                                     -1-2-^
  /// ignoreFailure():                              -1-2-|
  /// ignoreFailure(completeImmediately: false):    -1-2--
  /// ```
  ///
  /// - Parameter completeImmediately: Whether a failure finishes the returned publisher (`true`, the default) or
  ///   leaves it silent, never completing.
  /// - Returns: A publisher that cannot fail.
  @inlinable
  public func ignoreFailure(completeImmediately: Bool = true) -> AnyPublisher<Output, Never> {
    self.catch { _ in Empty<Output, Never>(completeImmediately: completeImmediately) }
      .eraseToAnyPublisher()
  }

  /// Republishes the values, replaces a failure with a finish or with silence, and declares a new failure type.
  ///
  /// ```
  /// upstream:                                       -1-2-^
  /// ignoreFailure(setFailureType: Other.self):      -1-2-|
  /// ```
  ///
  /// - Parameters:
  ///   - newFailureType: The failure type the returned publisher declares; it never fails with it.
  ///   - completeImmediately: Whether a failure finishes the returned publisher (`true`, the default) or leaves it
  ///     silent, never completing.
  /// - Returns: A publisher of failure type `NewFailure` that does not fail.
  @inlinable
  public func ignoreFailure<NewFailure: Error>(
    setFailureType newFailureType: NewFailure.Type,
    completeImmediately: Bool = true
  ) -> AnyPublisher<Output, NewFailure> {
    ignoreFailure(completeImmediately: completeImmediately)
      .setFailureType(to: newFailureType)
      .eraseToAnyPublisher()
  }
}
