/// How a marble source, or the recorder of a `marbles` helper, reads and uses the clock of the scheduler under
/// test.
struct MarbleClock {
  /// The time to stamp records with.
  let now: () -> TestScheduler.SchedulerTimeType

  /// Schedules an action the given number of diagram ticks after the current instant.
  let scheduleAfterTicks: (Int, @escaping () -> Void) -> Void

  /// The clock of a test scheduler, on which a diagram tick lasts `tick`; records carry the scheduler's time.
  init(_ scheduler: TestScheduler, tick: TestScheduler.SchedulerTimeType.Stride) {
    now = { scheduler.now }
    scheduleAfterTicks = { ticks, action in
      scheduler.schedule(after: scheduler.now.advanced(by: repeated(tick, times: ticks)), action)
    }
  }

  init(
    now: @escaping () -> TestScheduler.SchedulerTimeType,
    scheduleAfterTicks: @escaping (Int, @escaping () -> Void) -> Void
  ) {
    self.now = now
    self.scheduleAfterTicks = scheduleAfterTicks
  }
}

/// `stride` added to itself `count` times (`count` ≥ 0), by doubling.
///
/// Only addition is used: a scheduler's stride may multiply as a duration times a duration (a dispatch stride's
/// `*` multiplies nanoseconds by nanoseconds), which is not a count of ticks.
func repeated<Stride: SignedNumeric>(_ stride: Stride, times count: Int) -> Stride {
  var result = Stride.zero
  var addend = stride
  var remaining = count
  while remaining > 0 {
    if remaining & 1 == 1 { result += addend }
    remaining >>= 1
    if remaining > 0 { addend += addend }
  }
  return result
}

/// One run of a `marbles` helper on a scheduler with a virtual clock.
///
/// It makes the sources on the scheduler, tick 0 being the scheduler's time when the run starts and each tick
/// lasting `tick`; subscribes a recorder to the publisher under test at the subscription point; plays the hot
/// sources; cancels at the cancellation point; runs the scheduler; and renders what the recorder got, in ticks.
/// An event between two ticks is drawn at the next one.
final class MarblePlay<Clock: Scheduler> {
  typealias Instant = Clock.SchedulerTimeType

  private let scheduler: Clock
  private let tick: Instant.Stride
  private let hot: Bool
  private let origin: Instant
  private var diagrams: [MarbleDiagram] = []
  private var hotSources: [any MarbleSourceScheduling] = []

  init(on scheduler: Clock, tick: Instant.Stride, hot: Bool) {
    precondition(tick > .zero, "marbles: tick must be greater than zero")
    self.scheduler = scheduler
    self.tick = tick
    self.hot = hot
    origin = scheduler.now
  }

  /// The instant of diagram tick `ticks`.
  private func instant(ofTick ticks: Int) -> Instant {
    origin.advanced(by: repeated(tick, times: ticks))
  }

  /// The diagram tick of `instant`: the first tick at or after it.
  private func tick(of instant: Instant) -> Int {
    guard instant > origin else { return 0 }
    var high = 1
    while self.instant(ofTick: high) < instant { high *= 2 }
    var low = high / 2  // instant(ofTick: low) < instant, or low == 0
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if self.instant(ofTick: middle) < instant { low = middle } else { high = middle }
    }
    return high
  }

  /// The clock of the sources and of the recorder: records in diagram ticks.
  private var clock: MarbleClock {
    MarbleClock(
      now: { [self] in TestScheduler.SchedulerTimeType(tick(of: scheduler.now)) },
      scheduleAfterTicks: { [scheduler, tick] ticks, action in
        scheduler.schedule(after: scheduler.now.advanced(by: repeated(tick, times: ticks)), action)
      }
    )
  }

  /// Parses a source's diagram and makes its publisher on this run's clock.
  func source<Value>(_ marbles: Marbles<Value>) throws(MarbleSyntaxError) -> MarblePublisher<Value> {
    let diagram = try MarbleDiagram(marbles.diagram)
    let source = try MarblePublisher(diagram, marbles: marbles, clock: clock, hot: hot)
    diagrams.append(diagram)
    if hot { hotSources.append(source) }
    return source
  }

  /// Subscribes a recorder to `publisher` at the subscription point, plays the hot sources, cancels at the
  /// cancellation point, runs the scheduler with `run` and renders what the recorder got.
  func play<P: Publisher>(_ publisher: P, run: () -> Void) throws(MarbleSyntaxError) -> String {
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
    let subscriber = TestSubscriber<P.Output, P.Failure>(clock: clock.now)
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
      scheduler.schedule(after: instant(ofTick: item.tick), item.action)
    }
    run()
    let length = subscriber.isCompleted || subscriber.isCancelled ? 0 : diagrams.map(\.length).max() ?? 0
    return subscriber.marbles(length: length)
  }
}

/// A marble source whose timeline the `marbles` helpers schedule themselves, interleaved with the
/// subscription and cancellation points.
protocol MarbleSourceScheduling {
  func timelineActions() -> [(tick: Int, action: () -> Void)]
}

extension MarblePublisher: MarbleSourceScheduling {}

extension MarblePublisher {
  /// Makes the publisher of a parsed diagram, reading its values as `marbles` says.
  convenience init(
    _ diagram: MarbleDiagram,
    marbles: Marbles<Output>,
    clock: MarbleClock,
    hot: Bool
  ) throws(MarbleSyntaxError) {
    var timeline: [(tick: Int, event: Event)] = []
    for event in diagram.events {
      switch event.symbol {
      case .value(let text):
        guard let value = marbles.read(text) else {
          throw MarbleSyntaxError(diagram: diagram.text, index: event.index, message: marbles.invalid(text))
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
    self.init(clock: clock, timeline: timeline, hot: hot)
  }
}

extension MarblePlay {
  /// Plays sources of any value types through `transform` on `scheduler`, running it with `run`, and renders the
  /// result, or the description of the first mistake in a diagram.
  static func render<each Value, P: Publisher>(
    on scheduler: Clock,
    tick: Instant.Stride,
    hot: Bool,
    run: (Clock) -> Void,
    _ sources: repeat Marbles<each Value>,
    transform: (repeat AnyPublisher<each Value, MarbleError>) -> P
  ) -> String {
    let play = MarblePlay(on: scheduler, tick: tick, hot: hot)
    do {
      let made = (repeat try play.source(each sources))
      return try play.play(transform(repeat (each made).eraseToAnyPublisher())) { run(scheduler) }
    } catch {
      return error.description
    }
  }

  /// Plays sources of one value type, given as an array, through `transform` on `scheduler`, and renders the result.
  static func render<Value, P: Publisher>(
    on scheduler: Clock,
    tick: Instant.Stride,
    hot: Bool,
    run: (Clock) -> Void,
    _ sources: [Marbles<Value>],
    transform: ([AnyPublisher<Value, MarbleError>]) -> P
  ) -> String {
    let play = MarblePlay(on: scheduler, tick: tick, hot: hot)
    do {
      // A loop, not `map` with a closure that throws `MarbleSyntaxError`: a function type with a typed throw can need
      // the Swift 6 runtime, which Apple platforms have from macOS 15 and iOS 18 on.
      var made: [MarblePublisher<Value>] = []
      for source in sources { made.append(try play.source(source)) }
      return try play.play(transform(made.map { $0.eraseToAnyPublisher() })) { run(scheduler) }
    } catch {
      return error.description
    }
  }
}
