import Testing

@testable import RillCore

/// `flatMap` of `Just` under a sequence: the sequence's run of values, taken by `flatMap` itself.
///
/// When every child is a `Just`, downstream demand is unlimited and `maxPublishers` is unlimited, `flatMap` takes
/// the run a sequence publisher offers: it holds the drain for the run's length and hands each child's value
/// downstream with no lock. These tests hold that path to the one a subscribed (erased) `Just` takes, and check
/// the run's own edges: the run offered downstream, cancels from inside the run, and memory.
@Suite struct FlatMapOuterRunTests {
  /// A subscriber that logs subscriptions, runs, values and completions in order, and can take runs.
  final class RunLog: Subscriber, RunReceiver, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = CombiningError

    // SAFETY: only touched from the test's thread.
    var events: [String] = []
    var subscription: (any Subscription)?
    let takesRuns: Bool
    let initialDemand: Subscribers.Demand
    /// Called after each value is logged; returns the demand to add.
    var onValue: (Int) -> Subscribers.Demand = { _ in .none }

    init(takesRuns: Bool = true, initialDemand: Subscribers.Demand = .unlimited) {
      self.takesRuns = takesRuns
      self.initialDemand = initialDemand
    }

    var values: [Int] { events.compactMap { Int($0) } }

    func receive(subscription: any Subscription) {
      events.append("subscribed")
      self.subscription = subscription
      if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      events.append("\(input)")
      return onValue(input)
    }

    func receive(completion: Subscribers.Completion<CombiningError>) {
      events.append("\(completion)")
    }

    func beginRun() -> Bool {
      guard takesRuns else { return false }
      events.append("run(")
      return true
    }

    func endRun() {
      events.append(")run")
    }
  }

  /// The same values and completion, with the run's edges left out.
  static func withoutRuns(_ events: [String]) -> [String] {
    events.filter { $0 != "run(" && $0 != ")run" }
  }

  enum Child: CaseIterable {
    case just
    /// The same `Just`, erased: subscribed like any publisher, never a run.
    case erased
  }

  static func subscribe(
    _ upstream: some Publisher<Int, CombiningError>,
    _ child: Child,
    maxPublishers: Subscribers.Demand = .unlimited,
    to log: RunLog
  ) {
    switch child {
    case .just:
      upstream.flatMap(maxPublishers: maxPublishers) { Just($0 * 10) }.subscribe(log)
    case .erased:
      upstream.flatMap(maxPublishers: maxPublishers) { Just($0 * 10).eraseToAnyPublisher() }.subscribe(log)
    }
  }

  @Test func offersDownstreamTheRunAndFinishesAfterIt() {
    let log = RunLog()
    Self.subscribe([1, 2, 3].publisher.setFailureType(to: CombiningError.self), .just, to: log)
    #expect(log.events == ["subscribed", "run(", "10", "20", "30", ")run", "finished"])
  }

  @Test func aFailingRecordFailsAfterTheRun() {
    let log = RunLog()
    Self.subscribe(Record(output: [1, 2], completion: .failure(CombiningError.boom)), .just, to: log)
    #expect(log.events == ["subscribed", "run(", "10", "20", ")run", "failure(RillCoreTests.CombiningError.boom)"])
  }

  @Test func runsThroughMapAndFilterUpstream() {
    let log = RunLog()
    let upstream = (1...6).publisher.setFailureType(to: CombiningError.self).map { $0 + 1 }.filter { $0 % 2 == 0 }
    Self.subscribe(upstream, .just, to: log)
    #expect(log.events == ["subscribed", "run(", "20", "40", "60", ")run", "finished"])
  }

  @Test func aDownstreamThatTakesNoRunGetsTheSameValues() {
    let log = RunLog(takesRuns: false)
    Self.subscribe([1, 2, 3].publisher.setFailureType(to: CombiningError.self), .just, to: log)
    #expect(log.events == ["subscribed", "10", "20", "30", "finished"])
  }

  /// Where no run is taken (finite demand, bounded `maxPublishers`), and where one is, the values, completion and
  /// their order are those of the subscribed `Just`.
  @Test(arguments: [Subscribers.Demand.unlimited, .max(1), .max(3)], [Subscribers.Demand.unlimited, .max(2), .none])
  func behavesAsTheSubscribedJust(maxPublishers: Subscribers.Demand, initialDemand: Subscribers.Demand) {
    var traces: [[String]] = []
    for child in Child.allCases {
      let log = RunLog(initialDemand: initialDemand)
      Self.subscribe(
        (1...4).publisher.setFailureType(to: CombiningError.self),
        child,
        maxPublishers: maxPublishers,
        to: log
      )
      log.subscription?.request(.max(1))
      log.subscription?.request(.unlimited)
      traces.append(Self.withoutRuns(log.events))
      let tookRun = log.events.contains("run(")
      #expect(tookRun == (child == .just && maxPublishers == .unlimited && initialDemand == .unlimited))
    }
    #expect(traces[0] == traces[1])
  }

  @Test func cancelFromInsideReceiveStopsTheRun() {
    let log = RunLog()
    var transformed: [Int] = []
    log.onValue = { value in
      if value == 20 { log.subscription?.cancel() }
      return .none
    }
    (1...5).publisher.setFailureType(to: CombiningError.self).flatMap { value -> Just<Int> in
      transformed.append(value)
      return Just(value * 10)
    }.subscribe(log)
    #expect(log.events == ["subscribed", "run(", "10", "20", ")run"])
    #expect(transformed == [1, 2])
  }

  @Test func cancelFromInsideTheTransformDeliversNothingMore() {
    let log = RunLog()
    var transformed: [Int] = []
    (1...5).publisher.setFailureType(to: CombiningError.self).flatMap { value -> Just<Int> in
      transformed.append(value)
      if value == 2 { log.subscription?.cancel() }
      return Just(value * 10)
    }.subscribe(log)
    #expect(log.events == ["subscribed", "run(", "10", ")run"])
    #expect(transformed == [1, 2])
  }

  /// A cancel on another thread that has set its flag but not yet taken the lock when the run ends: the values it
  /// silenced are not followed by `finished`, and the run cancels upstream in its place.
  @Test func aCancelHalfwayThroughWhenTheRunEndsSilencesTheCompletion() {
    let log = RunLog()
    (1...5).publisher.setFailureType(to: CombiningError.self).flatMap { value -> Just<Int> in
      if value == 2 {
        let subscription = log.subscription as? FlatMapSubscription<RunLog>
        #expect(subscription != nil)
        subscription?.isCancelled.store(true, ordering: .releasing)
      }
      return Just(value * 10)
    }.subscribe(log)
    #expect(log.events == ["subscribed", "run(", "10", ")run"])
    log.subscription?.cancel()
    log.subscription?.request(.max(1))
    #expect(log.events == ["subscribed", "run(", "10", ")run"])
  }

  @Test func requestFromInsideReceiveChangesNothing() {
    let log = RunLog()
    log.onValue = { _ in
      log.subscription?.request(.max(1))
      return .max(1)
    }
    Self.subscribe([1, 2, 3].publisher.setFailureType(to: CombiningError.self), .just, to: log)
    #expect(log.events == ["subscribed", "run(", "10", "20", "30", ")run", "finished"])
  }

  @Test func aCancelAfterTheRunIsSilent() {
    let log = RunLog()
    Self.subscribe([1, 2].publisher.setFailureType(to: CombiningError.self), .just, to: log)
    log.subscription?.cancel()
    log.subscription?.request(.max(1))
    #expect(log.events == ["subscribed", "run(", "10", "20", ")run", "finished"])
  }

  @Test func releasesThePipelineAfterFinishingAndAfterCancel() {
    for cancels in [false, true] {
      weak var weakLog: RunLog?
      weak var weakSubscription: AnyObject?
      do {
        let log = RunLog()
        weakLog = log
        if cancels {
          log.onValue = { [unowned log] _ in
            log.subscription?.cancel()
            return .none
          }
        }
        Self.subscribe((1...3).publisher.setFailureType(to: CombiningError.self), .just, to: log)
        weakSubscription = log.subscription as AnyObject?
        #expect(log.values == (cancels ? [10] : [10, 20, 30]))
        log.subscription = nil
      }
      #expect(weakLog == nil, "cancels: \(cancels)")
      #expect(weakSubscription == nil, "cancels: \(cancels)")
    }
  }

  @Test func theSinkAtTheEndTakesTheRun() {
    var values: [Int] = []
    var completions = 0
    let cancellable = (0..<100).publisher.flatMap { Just($0 &* 2) }.sink(
      receiveCompletion: { _ in completions += 1 },
      receiveValue: { values.append($0) }
    )
    #expect(values == (0..<100).map { $0 * 2 })
    #expect(completions == 1)
    cancellable.cancel()
  }
}
