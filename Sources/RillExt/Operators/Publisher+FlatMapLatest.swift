extension Publisher {
  /// Maps each value to a publisher and republishes the values of the latest one, cancelling the one before.
  ///
  /// ```
  /// upstream:                          -a--b-----|
  /// inner for each value v:            -1--2|
  /// flatMapLatest { inner(v) as "v1" }: --'a1'--'b1'--'b2'-|
  /// ```
  ///
  /// This is `map(transform).switchToLatest()`: each value of this publisher cancels the subscription to the
  /// previous inner publisher, and subscribes to the one `transform` returns. The stream finishes once this publisher
  /// and the latest inner publisher have finished, and fails as soon as either fails.
  ///
  /// - Parameter transform: A closure that returns a publisher for a value of this publisher.
  /// - Returns: A publisher of the values of the latest inner publisher.
  @inlinable
  public func flatMapLatest<P: Publisher>(
    _ transform: @escaping (Output) -> P
  ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Failure {
    map(transform).switchToLatest()
  }
}
