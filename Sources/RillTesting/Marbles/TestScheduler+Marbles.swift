extension TestScheduler {
  /// Plays a marble diagram through a transform on a new test scheduler and renders what comes out.
  ///
  /// ```swift
  /// #expect(TestScheduler.marbles("-1-2-3-1-|") { $0.prefix { $0 < 3 } } == "-1-2-|")
  /// ```
  ///
  /// The source's values have the type `Value`, which the transform usually implies (`Int` above) or `type`
  /// names; each value in the diagram must parse as a `Value`. See <doc:TestingGuide> for the notation. A
  /// malformed diagram gives a ``MarbleSyntaxError`` description instead of a diagram.
  ///
  /// - Parameters:
  ///   - marble: The source's diagram.
  ///   - hot: Whether the source plays on its own clock (hot) or starts when subscribed (cold, the default).
  ///   - type: The type of the source's values, when the transform does not imply it.
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the source.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<Value: LosslessStringConvertible, P: Publisher>(
    _ marble: String,
    hot: Bool = false,
    as type: Value.Type = Value.self,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: (AnyPublisher<Value, MarbleError>) -> P
  ) -> String {
    TestScheduler().marbles(marble, hot: hot, as: type, tick: tick, transform)
  }

  /// Plays a marble diagram of strings through a transform on a new test scheduler and renders the result.
  ///
  /// ```swift
  /// #expect(TestScheduler.marbles("-a-b-|") { $0.map { $0.uppercased() } } == "-A-B-|")
  /// ```
  ///
  /// - Parameters:
  ///   - marble: The source's diagram.
  ///   - hot: Whether the source plays on its own clock (hot) or starts when subscribed (cold, the default).
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the source.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<P: Publisher>(
    _ marble: String,
    hot: Bool = false,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: (AnyPublisher<String, MarbleError>) -> P
  ) -> String {
    TestScheduler().marbles(marble, hot: hot, tick: tick, transform)
  }

  /// Plays two marble diagrams through a transform on a new test scheduler and renders the result.
  ///
  /// ```swift
  /// #expect(TestScheduler.marbles("-a---b-|", "--1-2---|") { $0.merge(with: $1) } == "-a1-2b--|")
  /// ```
  ///
  /// - Parameters:
  ///   - first: The first source's diagram.
  ///   - second: The second source's diagram.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the sources.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<First: LosslessStringConvertible, Second: LosslessStringConvertible, P: Publisher>(
    _ first: String,
    _ second: String,
    hot: Bool = false,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: (AnyPublisher<First, MarbleError>, AnyPublisher<Second, MarbleError>) -> P
  ) -> String {
    TestScheduler().marbles(first, second, hot: hot, tick: tick, transform)
  }

  /// Plays two marble diagrams of strings through a transform on a new test scheduler and renders the result.
  ///
  /// - Parameters:
  ///   - first: The first source's diagram.
  ///   - second: The second source's diagram.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the sources.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<P: Publisher>(
    _ first: String,
    _ second: String,
    hot: Bool = false,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: (AnyPublisher<String, MarbleError>, AnyPublisher<String, MarbleError>) -> P
  ) -> String {
    TestScheduler().marbles(first, second, hot: hot, tick: tick, transform)
  }

  /// Plays a marble diagram through a transform on this scheduler and renders what comes out.
  ///
  /// Use the instance form when the operator under test needs the scheduler:
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// #expect(scheduler.marbles("-1-2-|") { $0.delay(for: 2, scheduler: scheduler) } == "---1-2-|")
  /// ```
  ///
  /// Tick 0 is the scheduler's current time. The scheduler runs until no action is left (at most 100,000
  /// actions, in case a repeating one never stops).
  ///
  /// - Parameters:
  ///   - marble: The source's diagram.
  ///   - hot: Whether the source plays on its own clock (hot) or starts when subscribed (cold, the default).
  ///   - type: The type of the source's values, when the transform does not imply it.
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the source.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<Value: LosslessStringConvertible, P: Publisher>(
    _ marble: String,
    hot: Bool = false,
    as type: Value.Type = Value.self,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: (AnyPublisher<Value, MarbleError>) -> P
  ) -> String {
    marbles(Marbles(marble, as: type), hot: hot, tick: tick, transform)
  }

  /// Plays a marble diagram of strings through a transform on this scheduler and renders the result.
  ///
  /// - Parameters:
  ///   - marble: The source's diagram.
  ///   - hot: Whether the source plays on its own clock (hot) or starts when subscribed (cold, the default).
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the source.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<P: Publisher>(
    _ marble: String,
    hot: Bool = false,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: (AnyPublisher<String, MarbleError>) -> P
  ) -> String {
    marbles(Marbles(marble), hot: hot, tick: tick, transform)
  }

  /// Plays two marble diagrams through a transform on this scheduler and renders the result.
  ///
  /// - Parameters:
  ///   - first: The first source's diagram.
  ///   - second: The second source's diagram.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the sources.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<First: LosslessStringConvertible, Second: LosslessStringConvertible, P: Publisher>(
    _ first: String,
    _ second: String,
    hot: Bool = false,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: (AnyPublisher<First, MarbleError>, AnyPublisher<Second, MarbleError>) -> P
  ) -> String {
    marbles(Marbles(first, as: First.self), Marbles(second, as: Second.self), hot: hot, tick: tick, transform)
  }

  /// Plays two marble diagrams of strings through a transform on this scheduler and renders the result.
  ///
  /// - Parameters:
  ///   - first: The first source's diagram.
  ///   - second: The second source's diagram.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  ///   - transform: Builds the publisher under test from the sources.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<P: Publisher>(
    _ first: String,
    _ second: String,
    hot: Bool = false,
    tick: SchedulerTimeType.Stride = 1,
    _ transform: (AnyPublisher<String, MarbleError>, AnyPublisher<String, MarbleError>) -> P
  ) -> String {
    marbles(Marbles(first), Marbles(second), hot: hot, tick: tick, transform)
  }

  /// Makes a publisher that plays a marble diagram on this scheduler, tick 0 being now.
  ///
  /// Use it to build tests the `marbles` helpers do not cover, such as three sources of different value types
  /// or a subscriber with limited demand; render the result with ``TestSubscriber/marbles(from:length:tick:)``. A hot publisher starts
  /// playing right away. The diagram cannot contain `>` or `!`, which only the `marbles` helpers act on.
  ///
  /// - Parameters:
  ///   - marble: The diagram to play.
  ///   - hot: Whether it plays on its own clock (hot) or starts when subscribed (cold, the default).
  ///   - type: The type of the values, each of which must parse from its text in the diagram.
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  /// - Returns: The publisher.
  /// - Throws: A ``MarbleSyntaxError`` if the diagram is malformed.
  public func marblePublisher<Value: LosslessStringConvertible>(
    _ marble: String,
    hot: Bool = false,
    as type: Value.Type = Value.self,
    tick: SchedulerTimeType.Stride = 1
  ) throws(MarbleSyntaxError) -> AnyPublisher<Value, MarbleError> {
    try marbleSource(marble, hot: hot, as: type, tick: tick).eraseToAnyPublisher()
  }

  /// Makes a marble source that records its subscriptions and the demand requested from it.
  ///
  /// It plays like ``marblePublisher(_:hot:as:tick:)``, but returns the ``MarblePublisher`` itself, whose
  /// ``MarblePublisher/subscriptionRecords`` and ``MarblePublisher/demandRecords`` say when the operator under
  /// test subscribed, requested and cancelled:
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let source = try scheduler.marbleSource("-1-2-3-|", as: Int.self)
  /// let subscriber = TestSubscriber<Int, MarbleError>(scheduler: scheduler)
  /// scheduler.advance(by: 2)
  /// source.prefix(2).subscribe(subscriber)
  /// scheduler.run()
  /// #expect(source.subscriptionRecords == [SubscriptionRecord(2...5)])
  /// ```
  ///
  /// - Parameters:
  ///   - marble: The diagram to play.
  ///   - hot: Whether it plays on its own clock (hot) or starts when subscribed (cold, the default).
  ///   - type: The type of the values, each of which must parse from its text in the diagram.
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  /// - Returns: The source.
  /// - Throws: A ``MarbleSyntaxError`` if the diagram is malformed.
  public func marbleSource<Value: LosslessStringConvertible>(
    _ marble: String,
    hot: Bool = false,
    as type: Value.Type = Value.self,
    tick: SchedulerTimeType.Stride = 1
  ) throws(MarbleSyntaxError) -> MarblePublisher<Value> {
    precondition(tick > .zero, "TestScheduler.marbleSource: tick must be greater than zero")
    let diagram = try MarbleDiagram(marble)
    if let event = diagram.events.first(where: { $0.symbol == .subscribe || $0.symbol == .cancel }) {
      throw MarbleSyntaxError(
        diagram: marble,
        index: event.index,
        message: "'>' and '!' only work in TestScheduler.marbles(...), which does the subscribing"
      )
    }
    let source = try MarblePublisher(
      diagram,
      marbles: Marbles(marble, as: type),
      clock: MarbleClock(self, tick: tick),
      hot: hot
    )
    if hot { source.startPlaying() }
    return source
  }

  /// Makes a marble source of strings that records its subscriptions and the demand requested from it.
  ///
  /// ```swift
  /// let source = try scheduler.marbleSource("-a-b-c-|")   // a MarblePublisher<String>
  /// ```
  ///
  /// - Parameters:
  ///   - marble: The diagram to play.
  ///   - hot: Whether it plays on its own clock (hot) or starts when subscribed (cold, the default).
  ///   - tick: How long a tick of the diagram lasts; one unit of scheduler time (a virtual nanosecond) by default.
  /// - Returns: The source.
  /// - Throws: A ``MarbleSyntaxError`` if the diagram is malformed.
  public func marbleSource(
    _ marble: String,
    hot: Bool = false,
    tick: SchedulerTimeType.Stride = 1
  ) throws(MarbleSyntaxError) -> MarblePublisher<String> {
    try marbleSource(marble, hot: hot, as: String.self, tick: tick)
  }
}
