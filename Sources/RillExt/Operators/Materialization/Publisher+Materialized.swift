extension Publisher where Output: EventConvertible, Failure == Never {
  /// Republishes the values of a materialized publisher and drops its `.failure` and `.finished` events.
  ///
  /// ```
  /// upstream:                -1-2-^
  /// materialize().values():  -1-2-|
  /// ```
  ///
  /// Each dropped event asks upstream for one more in its place. Share the materialized publisher (`share()`) to
  /// observe `values()` and `failures()` from one run of it.
  ///
  /// This method sits beside Combine's `values` property, which offers the elements of any never-failing publisher as
  /// an asynchronous sequence: write `values()` for this operator and `values` for the sequence.
  ///
  /// - Returns: A publisher of the values the events carry.
  @inlinable
  public func values() -> AnyPublisher<Output.Output, Never> {
    compactMap { element -> Output.Output? in
      guard case .value(let value) = element.event else { return nil }
      return value
    }
    .eraseToAnyPublisher()
  }

  /// Republishes the failures of a materialized publisher and drops its `.value` and `.finished` events.
  ///
  /// ```
  /// upstream:                  -1-2-^
  /// materialize().failures():  -----['MarbleError'|]
  /// ```
  ///
  /// Each dropped event asks upstream for one more in its place.
  ///
  /// - Returns: A publisher of the errors the events carry.
  @inlinable
  public func failures() -> AnyPublisher<Output.Failure, Never> {
    compactMap { element -> Output.Failure? in
      guard case .failure(let error) = element.event else { return nil }
      return error
    }
    .eraseToAnyPublisher()
  }
}
