public import RillExt

extension VirtualTimeScheduler {
  /// Plays a marble diagram through a transform on this virtual-time scheduler and renders what comes out.
  ///
  /// RillExt's `DispatchQueue.test`, `RunLoop.test` and `OperationQueue.test` are such schedulers, and the code
  /// under test usually holds one type-erased (an `AnySchedulerOf<DispatchQueue>`), so a view model that
  /// defaults to `DispatchQueue.main` is tested without being made generic:
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let erased = scheduler.eraseToAnyScheduler()
  /// let result = scheduler.marbles("-a-b-----c----|", tick: .milliseconds(100)) {
  ///   $0.debounce(for: .milliseconds(300), scheduler: erased)
  /// }
  /// #expect(result == "------b-----c-|")
  /// ```
  ///
  /// The diagram says how long a tick lasts: tick 0 is the scheduler's current time, tick 1 is `tick` later,
  /// and so on. An event between two ticks is drawn at the next one. The scheduler runs until no action is left
  /// (at most 100,000 actions, in case a repeating one never stops). See <doc:TestingGuide> for the notation.
  ///
  /// - Parameters:
  ///   - marble: The source's diagram.
  ///   - hot: Whether the source plays on its own clock (hot) or starts when subscribed (cold, the default).
  ///   - type: The type of the source's values, when the transform does not imply it.
  ///   - tick: How long a tick of the diagram lasts; it must be greater than zero.
  ///   - transform: Builds the publisher under test from the source.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<Value: LosslessStringConvertible, P: Publisher>(
    _ marble: String,
    hot: Bool = false,
    as type: Value.Type = Value.self,
    tick: SchedulerTimeType.Stride,
    _ transform: (AnyPublisher<Value, MarbleError>) -> P
  ) -> String {
    marbles(Marbles(marble, as: type), hot: hot, tick: tick, transform)
  }

  /// Plays a marble diagram of strings through a transform on this virtual-time scheduler and renders the result.
  ///
  /// - Parameters:
  ///   - marble: The source's diagram.
  ///   - hot: Whether the source plays on its own clock (hot) or starts when subscribed (cold, the default).
  ///   - tick: How long a tick of the diagram lasts; it must be greater than zero.
  ///   - transform: Builds the publisher under test from the source.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<P: Publisher>(
    _ marble: String,
    hot: Bool = false,
    tick: SchedulerTimeType.Stride,
    _ transform: (AnyPublisher<String, MarbleError>) -> P
  ) -> String {
    marbles(Marbles(marble), hot: hot, tick: tick, transform)
  }

  /// Plays marble diagrams of any value types through a transform on this virtual-time scheduler and renders the
  /// result.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let result = scheduler.marbles(
  ///   Marbles("-a--b---c-|"),
  ///   Marbles("t--f--t---|", values: ["t": true, "f": false]),
  ///   tick: .seconds(1)
  /// ) { query, isEnabled in
  ///   query.combineLatest(isEnabled).filter { $1 }.map(\.0)
  /// }
  /// #expect(result == "-a----b-c-|")
  /// ```
  ///
  /// - Parameters:
  ///   - sources: The sources' diagrams, each with the type of its values.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - tick: How long a tick of the diagram lasts; it must be greater than zero.
  ///   - transform: Builds the publisher under test from the sources, in the order given.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<each Value, P: Publisher>(
    _ sources: repeat Marbles<each Value>,
    hot: Bool = false,
    tick: SchedulerTimeType.Stride,
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

  /// Plays several marble diagrams of one value type through a transform on this virtual-time scheduler and
  /// renders the result; the closure gets one publisher per diagram, in the same order.
  ///
  /// - Parameters:
  ///   - diagrams: The sources' diagrams.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - type: The type of the sources' values, when the transform does not imply it.
  ///   - tick: How long a tick of the diagram lasts; it must be greater than zero.
  ///   - transform: Builds the publisher under test from the sources.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<Value: LosslessStringConvertible, P: Publisher>(
    _ diagrams: [String],
    hot: Bool = false,
    as type: Value.Type = Value.self,
    tick: SchedulerTimeType.Stride,
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
}
