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
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the sources, given in the order of `diagrams`.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<Value: LosslessStringConvertible, P: Publisher>(
    _ diagrams: [String],
    hot: Bool = false,
    as type: Value.Type = Value.self,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: ([AnyPublisher<Value, MarbleError>]) -> P
  ) -> String {
    TestScheduler().marbles(diagrams, hot: hot, as: type, tick: tick, transform)
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
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the sources, given in the order of `diagrams`.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<P: Publisher>(
    _ diagrams: [String],
    hot: Bool = false,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: ([AnyPublisher<String, MarbleError>]) -> P
  ) -> String {
    TestScheduler().marbles(diagrams, hot: hot, tick: tick, transform)
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
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the sources, given in the order of `diagrams`.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<Value: LosslessStringConvertible, P: Publisher>(
    _ diagrams: [String],
    hot: Bool = false,
    as type: Value.Type = Value.self,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: ([AnyPublisher<Value, MarbleError>]) -> P
  ) -> String {
    let sources = diagrams.map { Marbles($0, as: type) }
    return MarblePlay.render(
      on: self,
      tick: tick,
      hot: hot,
      run: { $0.run(maxActions: 100_000) },
      sources,
      transform: transform
    )
  }

  /// Plays any number of marble diagrams of strings through a transform on this scheduler and renders the
  /// result.
  ///
  /// - Parameters:
  ///   - diagrams: The sources' diagrams, one per source.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the sources, given in the order of `diagrams`.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<P: Publisher>(
    _ diagrams: [String],
    hot: Bool = false,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: ([AnyPublisher<String, MarbleError>]) -> P
  ) -> String {
    marbles(diagrams, hot: hot, as: String.self, tick: tick, transform)
  }
}
