public import RillExt

/// The first tick at which two marble diagrams differ, described in words.
///
/// Comparing rendered diagrams as strings tells you that they differ; a difference tells you where. Make one
/// from an expected and an actual diagram, or from a ``TestSubscriber`` with
/// ``TestSubscriber/marbleDifference(expected:from:)``. It is `nil` when the two describe the same timeline,
/// so a test expects it to be `nil`, and a failing expectation prints what went wrong:
///
/// ```swift
/// let result = TestScheduler.marbles("-a-b-|") { $0.map { $0 == "b" ? "c" : $0 } }
/// #expect(MarbleDifference(expected: "-a-b-|", actual: result) == nil)
/// // expected b at tick 3, got c (expected "-a-b-|", actual "-a-c-|")
/// ```
///
/// The two diagrams are compared as timelines, not as text: spaces, the spelling of a value (`a` or `'a'`) and
/// quiet ticks after the last event do not count, so `-a--` and `- 'a'` are the same. Events in one tick
/// must match in number and order. Events that break the publisher contract, such as a value after the
/// completion, compare like any other, so a test can pin down what a misbehaving publisher sent. The
/// description names the events at the first tick that differs, in the order written: a value as it is written in a diagram (`b`, `'10'`), `finished` for `|`, `failure` for `^`,
/// `cancellation` for `!`, `subscription` for `>`, and `nothing` for a quiet tick:
///
/// ```
/// expected finished at tick 5, got nothing
/// expected nothing at tick 2, got x
/// expected failure at tick 4, got finished
/// expected b and finished at tick 3, got b
/// ```
///
/// A malformed diagram, or a marble error that a `marbles` helper returned in place of a diagram, is a
/// difference too; its description quotes the error.
///
/// Pass a RillExt `Timeline` that lanes in the pipeline recorded into, and a difference also shows what happened
/// inside the pipeline, drawn as text below the diagrams (as `Timeline.text(width:)` draws it):
///
/// ```swift
/// let scheduler = TestScheduler()
/// let timeline = Timeline(clock: .virtual(scheduler))
/// let result = scheduler.marbles("-a-b-|") { $0.lane("source", timeline: timeline).dropFirst() }
/// #expect(MarbleDifference(expected: "---b-|", actual: result, timeline: timeline) == nil)
/// ```
public struct MarbleDifference: Hashable, Sendable, CustomStringConvertible {
  /// The expected diagram, as given.
  public let expected: String

  /// The actual diagram, as given or as rendered from a subscriber.
  public let actual: String

  /// The first tick at which the diagrams differ, counted from 0; `nil` if one of them is not a diagram.
  public let tick: Int?

  /// The expected events at ``tick`` in marble notation (`b`, `'10'`, `|`, `^`, `!`, `>`), in order; empty
  /// for a quiet tick.
  public let expectedEvents: [String]

  /// The actual events at ``tick`` in marble notation, in order; empty for a quiet tick.
  public let actualEvents: [String]

  /// Why a diagram could not be compared: its syntax error, or the marble error it holds; `nil` otherwise.
  public let error: String?

  /// What the timeline given to the initializer had recorded when the diagrams were compared, drawn as text;
  /// `nil` without a timeline.
  public let timeline: String?

  /// Compares two diagrams and returns where they first differ, or `nil` if they describe the same timeline.
  ///
  /// ```swift
  /// #expect(MarbleDifference(expected: "-a-b-|", actual: "- a - b - |") == nil)
  /// #expect(MarbleDifference(expected: "-a-b-|", actual: "-a-c-|")?.description
  ///   == #"expected b at tick 3, got c (expected "-a-b-|", actual "-a-c-|")"#)
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The diagram the test expects.
  ///   - actual: The diagram the code under test produced.
  ///   - timeline: A timeline that lanes of the pipeline under test recorded into, to show in the description of
  ///     a difference; `nil` by default. It is drawn only when the diagrams differ.
  public init?(expected: String, actual: String, timeline: Timeline? = nil) {
    self.expected = expected
    self.actual = actual
    let expectedTimeline: [Int: [String]]
    let actualTimeline: [Int: [String]]
    do {
      expectedTimeline = try Self.timeline(expected, side: "expected")
      actualTimeline = try Self.timeline(actual, side: "actual")
    } catch {
      self.tick = nil
      self.expectedEvents = []
      self.actualEvents = []
      self.error = error.message
      self.timeline = timeline?.text()
      return
    }
    let ticks = Set(expectedTimeline.keys).union(actualTimeline.keys).sorted()
    guard let first = ticks.first(where: { expectedTimeline[$0] != actualTimeline[$0] }) else { return nil }
    self.timeline = timeline?.text()
    tick = first
    expectedEvents = expectedTimeline[first] ?? []
    actualEvents = actualTimeline[first] ?? []
    error = nil
  }

  /// Where and how the diagrams differ, followed by both diagrams:
  /// `expected b at tick 3, got c (expected "-a-b-|", actual "-a-c-|")`, and by the ``timeline`` if there is one.
  public var description: String {
    let diagrams = "(expected \"\(expected)\", actual \"\(actual)\")"
    let difference =
      if let tick {
        "expected \(Self.words(expectedEvents)) at tick \(tick), got \(Self.words(actualEvents)) \(diagrams)"
      } else {
        "\(error ?? "the diagrams cannot be compared") \(diagrams)"
      }
    return timeline.map { difference + "\n\nWhat happened:\n" + $0 } ?? difference
  }

  private struct ComparisonError: Error {
    let message: String
  }

  /// The events of a diagram by tick, in marble notation.
  private static func timeline(_ text: String, side: String) throws(ComparisonError) -> [Int: [String]] {
    if text.hasPrefix("marble error ") { throw ComparisonError(message: "the \(side) diagram is a \(text)") }
    let diagram: MarbleDiagram
    do {
      diagram = try MarbleDiagram(text, recorded: true)
    } catch {
      throw ComparisonError(message: "the \(side) diagram is malformed: \(error)")
    }
    var timeline: [Int: [String]] = [:]
    for event in diagram.events {
      let symbol: String
      switch event.symbol {
      case .value(let value): symbol = MarbleRenderer.symbol(for: value)
      case .finished: symbol = "|"
      case .failure: symbol = "^"
      case .subscribe: symbol = ">"
      case .cancel: symbol = "!"
      }
      timeline[event.tick, default: []].append(symbol)
    }
    return timeline
  }

  /// `nothing`, `b`, `b and finished`, `a, b and failure`.
  private static func words(_ symbols: [String]) -> String {
    let words = symbols.map { symbol in
      switch symbol {
      case "|": "finished"
      case "^": "failure"
      case "!": "cancellation"
      case ">": "subscription"
      default: symbol
      }
    }
    guard let last = words.last else { return "nothing" }
    return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " and " + last
  }
}

extension TestSubscriber {
  /// Compares what the subscriber recorded with an expected diagram and returns where they first differ, or
  /// `nil` if they match.
  ///
  /// The recorded events are rendered as by ``marbles(from:length:tick:)`` and compared with `expected` as
  /// ``MarbleDifference/init(expected:actual:timeline:)`` does, so a failing expectation names the first tick that
  /// differs:
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let subscriber = TestSubscriber<Int, MarbleError>(scheduler: scheduler)
  /// try scheduler.marblePublisher("-1-2-|", as: Int.self).map { $0 * 2 }.subscribe(subscriber)
  /// scheduler.run()
  /// #expect(subscriber.marbleDifference(expected: "-2-4-|") == nil)
  /// ```
  ///
  /// A difference shows the subscriber's ``TestSubscriber/timeline``, if it has one.
  ///
  /// - Parameters:
  ///   - expected: The diagram the test expects.
  ///   - start: The time of tick 0.
  /// - Returns: The first difference, or `nil` if the recorded events match the diagram.
  public func marbleDifference(
    expected: String,
    from start: TestScheduler.SchedulerTimeType = 0
  ) -> MarbleDifference? {
    MarbleDifference(expected: expected, actual: marbles(from: start), timeline: timeline)
  }
}
