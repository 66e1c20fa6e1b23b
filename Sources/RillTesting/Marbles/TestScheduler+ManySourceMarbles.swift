extension TestScheduler {
  /// Plays any number of marble diagrams through a transform on a new test scheduler and renders the result.
  ///
  /// For operators that combine three or more publishers of one type; the closure gets one source per diagram,
  /// in order:
  ///
  /// ```swift
  /// #expect(
  ///   TestScheduler.marbles(["-1---4-|", "--2----|", "---3-|"]) { $0[0].merge(with: $0[1], $0[2]) }
  ///     == "-123-4-|"
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - diagrams: The sources' diagrams, one per source.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - type: The type of the sources' values, when the transform does not imply it.
  ///   - transform: Builds the publisher under test from the sources, given in the order of `diagrams`.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<Value: LosslessStringConvertible, P: Publisher>(
    _ diagrams: [String],
    hot: Bool = false,
    as type: Value.Type = Value.self,
    _ transform: ([AnyPublisher<Value, MarbleError>]) -> P
  ) -> String {
    TestScheduler().marbles(diagrams, hot: hot, as: type, transform)
  }

  /// Plays any number of marble diagrams of strings through a transform on a new test scheduler and renders
  /// the result.
  ///
  /// ```swift
  /// #expect(TestScheduler.marbles(["-a-|", "--b-|", "---c|"]) { Publishers.MergeMany($0) } == "-abc|")
  /// ```
  ///
  /// - Parameters:
  ///   - diagrams: The sources' diagrams, one per source.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - transform: Builds the publisher under test from the sources, given in the order of `diagrams`.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<P: Publisher>(
    _ diagrams: [String],
    hot: Bool = false,
    _ transform: ([AnyPublisher<String, MarbleError>]) -> P
  ) -> String {
    TestScheduler().marbles(diagrams, hot: hot, transform)
  }

  /// Plays any number of marble diagrams through a transform on this scheduler and renders the result.
  ///
  /// Use the instance form when the operators under test take the scheduler:
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let result = scheduler.marbles(["-1-|", "-2-|", "-3-|"]) { sources in
  ///   Publishers.MergeMany(sources).delay(for: 1, scheduler: scheduler)
  /// }
  /// #expect(result == "--[123]-|")
  /// ```
  ///
  /// - Parameters:
  ///   - diagrams: The sources' diagrams, one per source.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - type: The type of the sources' values, when the transform does not imply it.
  ///   - transform: Builds the publisher under test from the sources, given in the order of `diagrams`.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<Value: LosslessStringConvertible, P: Publisher>(
    _ diagrams: [String],
    hot: Bool = false,
    as type: Value.Type = Value.self,
    _ transform: ([AnyPublisher<Value, MarbleError>]) -> P
  ) -> String {
    playMarbles(diagrams, hot: hot, transform)
  }

  /// Plays any number of marble diagrams of strings through a transform on this scheduler and renders the
  /// result.
  ///
  /// - Parameters:
  ///   - diagrams: The sources' diagrams, one per source.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - transform: Builds the publisher under test from the sources, given in the order of `diagrams`.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<P: Publisher>(
    _ diagrams: [String],
    hot: Bool = false,
    _ transform: ([AnyPublisher<String, MarbleError>]) -> P
  ) -> String {
    playMarbles(diagrams, hot: hot, transform)
  }
}
