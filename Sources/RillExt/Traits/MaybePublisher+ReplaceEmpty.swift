extension MaybePublisher {
  /// Turns this maybe publisher into a single publisher that fails with `error` when it finishes without a value.
  ///
  /// ```
  /// upstream:                   --1--|   -----|   --^
  /// replaceEmpty(withError: e): --1--|   -----^   --^
  /// ```
  ///
  /// ```swift
  /// func namePublisher() -> AnySinglePublisher<String, any Error> {
  ///   cachedNamePublisher()  // a maybe publisher
  ///     .setFailureType(to: (any Error).self)
  ///     .replaceEmpty(withError: MissingNameError())
  /// }
  /// ```
  ///
  /// - Parameter error: The error to fail with when this publisher finishes without a value.
  /// - Returns: A single publisher of this publisher's value.
  @inlinable
  public func replaceEmpty(withError error: Failure) -> AnySinglePublisher<Output, Failure> {
    map { Result<Output, Failure>.success($0) }
      .replaceEmpty(with: .failure(error))
      .flatMap { $0.publisher }
      .eraseToAnySinglePublisher()
  }
}
