extension Publisher where Output == Bool {
  /// Negates each Boolean value.
  ///
  /// ```
  /// upstream:   -'true'-'false'-|
  /// toggle():   -'false'-'true'-|
  /// ```
  ///
  /// - Returns: A publisher of the negated values.
  @inlinable
  public func toggle() -> Publishers.Map<Self, Bool> {
    map { !$0 }
  }
}
