extension Publisher where Output == Never {
  /// Changes the output type of a publisher that cannot send values, the counterpart of `setFailureType(to:)`.
  ///
  /// ```
  /// upstream:                          ---|
  /// setOutputType(to: Int.self):       ---|
  /// ```
  ///
  /// - Parameter outputType: The output type the returned publisher declares.
  /// - Returns: A publisher with the same completion and no values, of output type `NewOutput`.
  @inlinable
  public func setOutputType<NewOutput>(to outputType: NewOutput.Type) -> Publishers.Map<Self, NewOutput> {
    map(valueOfNever)
  }
}

extension Publisher {
  /// Ignores every value and declares a new output type, as `ignoreOutput()` then `setOutputType(to:)` would.
  ///
  /// ```
  /// upstream:                              -1-2-|
  /// ignoreOutput(setOutputType: Int.self): -----|
  /// ```
  ///
  /// - Parameter setOutputType: The output type the returned publisher declares.
  /// - Returns: A publisher that republishes only the completion of this one, of output type `NewOutput`.
  @inlinable
  public func ignoreOutput<NewOutput>(
    setOutputType: NewOutput.Type
  ) -> Publishers.Map<Publishers.IgnoreOutput<Self>, NewOutput> {
    ignoreOutput().map(valueOfNever)
  }
}

/// The value a `Never` stands for: a function that can never be called, since `Never` has no values.
@inlinable
func valueOfNever<Value>(_: Never) -> Value {}
