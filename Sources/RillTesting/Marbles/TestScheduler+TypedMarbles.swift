extension TestScheduler {
  /// Plays marble diagrams of any value types through a transform on a new test scheduler and renders the result.
  ///
  /// Each source is a ``Marbles`` value, which says how to read its values, so sources of different types mix
  /// without annotations:
  ///
  /// ```swift
  /// let result = TestScheduler.marbles(
  ///   Marbles("-a--b---c-|"),
  ///   Marbles("t--f--t---|", values: ["t": true, "f": false])
  /// ) { query, isEnabled in
  ///   query.combineLatest(isEnabled).filter { $1 }.map(\.0)
  /// }
  /// #expect(result == "-a----b-c-|")
  /// ```
  ///
  /// - Parameters:
  ///   - sources: The sources' diagrams, each with the type of its values.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the sources, in the order given.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<each Value, P: Publisher>(
    _ sources: repeat Marbles<each Value>,
    hot: Bool = false,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: (repeat AnyPublisher<each Value, MarbleError>) -> P
  ) -> String {
    TestScheduler().marbles(repeat each sources, hot: hot, tick: tick, transform)
  }

  /// Plays marble diagrams of any value types through a transform on this scheduler and renders the result.
  ///
  /// Use the instance form when the publisher under test needs the scheduler; a longer `tick` lets the diagram
  /// draw real durations, such as a 300-millisecond debounce in ticks of 100 milliseconds:
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let result = scheduler.marbles(Marbles("-a-b-----c----|"), tick: .milliseconds(100)) {
  ///   $0.debounce(for: .milliseconds(300), scheduler: scheduler)
  /// }
  /// #expect(result == "------b-----c-|")
  /// ```
  ///
  /// Tick 0 is the scheduler's current time. The scheduler runs until no action is left (at most 100,000
  /// actions, in case a repeating one never stops).
  ///
  /// - Parameters:
  ///   - sources: The sources' diagrams, each with the type of its values.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the sources, in the order given.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<each Value, P: Publisher>(
    _ sources: repeat Marbles<each Value>,
    hot: Bool = false,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: (repeat AnyPublisher<each Value, MarbleError>) -> P
  ) -> String {
    MarblePlay.render(
      on: self,
      tick: tick,
      hot: hot,
      run: { $0.run(maxActions: 100_000) },
      repeat each sources,
      transform: transform
    )
  }
}
