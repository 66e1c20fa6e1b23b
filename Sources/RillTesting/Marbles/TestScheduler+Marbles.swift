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
  ///   - transform: Builds the publisher under test from the source.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<Value: LosslessStringConvertible, P: Publisher>(
    _ marble: String,
    hot: Bool = false,
    as type: Value.Type = Value.self,
    _ transform: (AnyPublisher<Value, MarbleError>) -> P
  ) -> String {
    TestScheduler().marbles(marble, hot: hot, as: type, transform)
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
  ///   - transform: Builds the publisher under test from the source.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<P: Publisher>(
    _ marble: String,
    hot: Bool = false,
    _ transform: (AnyPublisher<String, MarbleError>) -> P
  ) -> String {
    TestScheduler().marbles(marble, hot: hot, transform)
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
  ///   - transform: Builds the publisher under test from the sources.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<First: LosslessStringConvertible, Second: LosslessStringConvertible, P: Publisher>(
    _ first: String,
    _ second: String,
    hot: Bool = false,
    _ transform: (AnyPublisher<First, MarbleError>, AnyPublisher<Second, MarbleError>) -> P
  ) -> String {
    TestScheduler().marbles(first, second, hot: hot, transform)
  }

  /// Plays two marble diagrams of strings through a transform on a new test scheduler and renders the result.
  ///
  /// - Parameters:
  ///   - first: The first source's diagram.
  ///   - second: The second source's diagram.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - transform: Builds the publisher under test from the sources.
  /// - Returns: The diagram of what the transformed publisher sent.
  public static func marbles<P: Publisher>(
    _ first: String,
    _ second: String,
    hot: Bool = false,
    _ transform: (AnyPublisher<String, MarbleError>, AnyPublisher<String, MarbleError>) -> P
  ) -> String {
    TestScheduler().marbles(first, second, hot: hot, transform)
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
  ///   - transform: Builds the publisher under test from the source.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<Value: LosslessStringConvertible, P: Publisher>(
    _ marble: String,
    hot: Bool = false,
    as type: Value.Type = Value.self,
    _ transform: (AnyPublisher<Value, MarbleError>) -> P
  ) -> String {
    playMarbles([marble], hot: hot) { (sources: [AnyPublisher<Value, MarbleError>]) in transform(sources[0]) }
  }

  /// Plays a marble diagram of strings through a transform on this scheduler and renders the result.
  ///
  /// - Parameters:
  ///   - marble: The source's diagram.
  ///   - hot: Whether the source plays on its own clock (hot) or starts when subscribed (cold, the default).
  ///   - transform: Builds the publisher under test from the source.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<P: Publisher>(
    _ marble: String,
    hot: Bool = false,
    _ transform: (AnyPublisher<String, MarbleError>) -> P
  ) -> String {
    playMarbles([marble], hot: hot) { (sources: [AnyPublisher<String, MarbleError>]) in transform(sources[0]) }
  }

  /// Plays two marble diagrams through a transform on this scheduler and renders the result.
  ///
  /// - Parameters:
  ///   - first: The first source's diagram.
  ///   - second: The second source's diagram.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - transform: Builds the publisher under test from the sources.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<First: LosslessStringConvertible, Second: LosslessStringConvertible, P: Publisher>(
    _ first: String,
    _ second: String,
    hot: Bool = false,
    _ transform: (AnyPublisher<First, MarbleError>, AnyPublisher<Second, MarbleError>) -> P
  ) -> String {
    do {
      let diagrams = try [first, second].map { (text: String) throws(MarbleSyntaxError) in try MarbleDiagram(text) }
      let firstSource: MarblePublisher<First> = try makeSource(diagrams[0], hot: hot)
      let secondSource: MarblePublisher<Second> = try makeSource(diagrams[1], hot: hot)
      let publisher = transform(firstSource.eraseToAnyPublisher(), secondSource.eraseToAnyPublisher())
      return try play(publisher, diagrams: diagrams, hotSources: hot ? [firstSource, secondSource] : [])
    } catch {
      return error.description
    }
  }

  /// Plays two marble diagrams of strings through a transform on this scheduler and renders the result.
  ///
  /// - Parameters:
  ///   - first: The first source's diagram.
  ///   - second: The second source's diagram.
  ///   - hot: Whether the sources are hot or cold (the default).
  ///   - transform: Builds the publisher under test from the sources.
  /// - Returns: The diagram of what the transformed publisher sent.
  public func marbles<P: Publisher>(
    _ first: String,
    _ second: String,
    hot: Bool = false,
    _ transform: (AnyPublisher<String, MarbleError>, AnyPublisher<String, MarbleError>) -> P
  ) -> String {
    playMarbles([first, second], hot: hot) { (sources: [AnyPublisher<String, MarbleError>]) in
      transform(sources[0], sources[1])
    }
  }

  /// Makes a publisher that plays a marble diagram on this scheduler, tick 0 being now.
  ///
  /// Use it to build tests the `marbles` helpers do not cover, such as three sources of different value types
  /// or a subscriber with limited demand; render the result with ``TestSubscriber/marbles(from:length:)``. A hot publisher starts
  /// playing right away. The diagram cannot contain `>` or `!`, which only the `marbles` helpers act on.
  ///
  /// - Parameters:
  ///   - marble: The diagram to play.
  ///   - hot: Whether it plays on its own clock (hot) or starts when subscribed (cold, the default).
  ///   - type: The type of the values, each of which must parse from its text in the diagram.
  /// - Returns: The publisher.
  /// - Throws: A ``MarbleSyntaxError`` if the diagram is malformed.
  public func marblePublisher<Value: LosslessStringConvertible>(
    _ marble: String,
    hot: Bool = false,
    as type: Value.Type = Value.self
  ) throws(MarbleSyntaxError) -> AnyPublisher<Value, MarbleError> {
    try marbleSource(marble, hot: hot, as: type).eraseToAnyPublisher()
  }

  /// Makes a marble source that records its subscriptions and the demand requested from it.
  ///
  /// It plays like ``marblePublisher(_:hot:as:)``, but returns the ``MarblePublisher`` itself, whose
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
  /// - Returns: The source.
  /// - Throws: A ``MarbleSyntaxError`` if the diagram is malformed.
  public func marbleSource<Value: LosslessStringConvertible>(
    _ marble: String,
    hot: Bool = false,
    as type: Value.Type = Value.self
  ) throws(MarbleSyntaxError) -> MarblePublisher<Value> {
    let diagram = try MarbleDiagram(marble)
    if let event = diagram.events.first(where: { $0.symbol == .subscribe || $0.symbol == .cancel }) {
      throw MarbleSyntaxError(
        diagram: marble,
        index: event.index,
        message: "'>' and '!' only work in TestScheduler.marbles(...), which does the subscribing"
      )
    }
    let source: MarblePublisher<Value> = try makeSource(diagram, hot: hot)
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
  /// - Returns: The source.
  /// - Throws: A ``MarbleSyntaxError`` if the diagram is malformed.
  public func marbleSource(_ marble: String, hot: Bool = false) throws(MarbleSyntaxError) -> MarblePublisher<String> {
    try marbleSource(marble, hot: hot, as: String.self)
  }

  /// Parses the diagrams, builds one source of `Value` per diagram, and plays the transformed publisher.
  func playMarbles<Value: LosslessStringConvertible, P: Publisher>(
    _ texts: [String],
    hot: Bool,
    _ transform: ([AnyPublisher<Value, MarbleError>]) -> P
  ) -> String {
    do {
      let diagrams = try texts.map { (text: String) throws(MarbleSyntaxError) in try MarbleDiagram(text) }
      let sources: [MarblePublisher<Value>] = try diagrams.map { (diagram) throws(MarbleSyntaxError) in
        try makeSource(diagram, hot: hot)
      }
      let publisher = transform(sources.map { $0.eraseToAnyPublisher() })
      return try play(publisher, diagrams: diagrams, hotSources: hot ? sources : [])
    } catch {
      return error.description
    }
  }

  private func makeSource<Value: LosslessStringConvertible>(
    _ diagram: MarbleDiagram,
    hot: Bool
  ) throws(MarbleSyntaxError) -> MarblePublisher<Value> {
    var timeline: [(tick: Int, event: MarblePublisher<Value>.Event)] = []
    for event in diagram.events {
      switch event.symbol {
      case .value(let text):
        guard let value = Value(text) else {
          throw MarbleSyntaxError(
            diagram: diagram.text,
            index: event.index,
            message: "'\(text)' is not a valid \(Value.self)"
          )
        }
        timeline.append((event.tick, .value(value)))
      case .finished: timeline.append((event.tick, .completion(.finished)))
      case .failure: timeline.append((event.tick, .completion(.failure(MarbleError()))))
      case .subscribe:
        if !hot {
          throw MarbleSyntaxError(
            diagram: diagram.text,
            index: event.index,
            message: "'>' marks a subscription point in a hot diagram; a cold source starts when subscribed"
          )
        }
      case .cancel: break
      }
    }
    return MarblePublisher(scheduler: self, timeline: timeline, hot: hot)
  }

  /// Subscribes a recorder to `publisher` at the subscription point, plays the hot sources, cancels at the
  /// cancellation point, runs the scheduler and renders what the recorder got.
  private func play<P: Publisher>(
    _ publisher: P,
    diagrams: [MarbleDiagram],
    hotSources: [any MarbleSourceScheduling]
  ) throws(MarbleSyntaxError) -> String {
    var points: [MarbleDiagram.Symbol: (tick: Int, diagram: MarbleDiagram, index: Int)] = [:]
    for diagram in diagrams {
      for event in diagram.events where event.symbol == .subscribe || event.symbol == .cancel {
        if let earlier = points[event.symbol] {
          throw MarbleSyntaxError(
            diagram: diagram.text,
            index: event.index,
            message: "a second '\(event.symbol == .subscribe ? ">" : "!")'; the first is at index \(earlier.index) of "
              + "\"\(earlier.diagram.text)\""
          )
        }
        points[event.symbol] = (event.tick, diagram, event.index)
      }
    }
    let start = now
    let subscriber = TestSubscriber<P.Output, P.Failure>(scheduler: self)
    // Within a tick: the subscription first, then the sources' events in diagram order, then the cancellation.
    var items: [(tick: Int, rank: Int, action: () -> Void)] = []
    if let subscription = points[.subscribe] {
      items.append((subscription.tick, 0, { publisher.subscribe(subscriber) }))
    }
    for source in hotSources {
      items += source.timelineActions().map { ($0.tick, 1, $0.action) }
    }
    if let cancellation = points[.cancel] {
      items.append((cancellation.tick, 2, { subscriber.cancel() }))
    }
    let ordered = items.enumerated().sorted {
      ($0.element.tick, $0.element.rank, $0.offset) < ($1.element.tick, $1.element.rank, $1.offset)
    }
    if points[.subscribe] == nil { publisher.subscribe(subscriber) }
    for (_, item) in ordered {
      schedule(after: start.advanced(by: .init(item.tick)), item.action)
    }
    run(maxActions: 100_000)
    let length = subscriber.isCompleted || subscriber.isCancelled ? 0 : diagrams.map(\.length).max() ?? 0
    return subscriber.marbles(from: start, length: length)
  }
}

/// A marble source whose timeline the `marbles` helpers schedule themselves, interleaved with the
/// subscription and cancellation points.
protocol MarbleSourceScheduling {
  func timelineActions() -> [(tick: Int, action: () -> Void)]
}

extension MarblePublisher: MarbleSourceScheduling {}
