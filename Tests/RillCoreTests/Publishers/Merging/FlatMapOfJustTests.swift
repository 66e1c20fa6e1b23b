import RillTestSupport
import Testing

@testable import RillCore

/// `flatMap` of `Just` under a sequence, the commonest `flatMap`: values, completion, cancels from inside the
/// delivery, and memory, with a `Just` child and the same child erased.
@Suite struct FlatMapOfJustTests {
  /// A subscriber that logs subscriptions, values and completions in order.
  final class EventLog: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = CombiningError

    // SAFETY: only touched from the test's thread.
    var events: [String] = []
    var subscription: (any Subscription)?
    let initialDemand: Subscribers.Demand
    /// Called after each value is logged; returns the demand to add.
    var onValue: (Int) -> Subscribers.Demand = { _ in .none }

    init(initialDemand: Subscribers.Demand = .unlimited) {
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
  }

  enum Child: CaseIterable {
    case just
    /// The same `Just`, erased.
    case erased
  }

  static func subscribe(
    _ upstream: some Publisher<Int, CombiningError>,
    _ child: Child,
    maxPublishers: Subscribers.Demand = .unlimited,
    to log: EventLog
  ) {
    switch child {
    case .just:
      upstream.flatMap(maxPublishers: maxPublishers) { Just($0 * 10) }.subscribe(log)
    case .erased:
      upstream.flatMap(maxPublishers: maxPublishers) { Just($0 * 10).eraseToAnyPublisher() }.subscribe(log)
    }
  }

  @Test func deliversEachChildsValueThenFinishes() {
    let log = EventLog()
    Self.subscribe([1, 2, 3].publisher.setFailureType(to: CombiningError.self), .just, to: log)
    expectEqual(log.events, ["subscribed", "10", "20", "30", "finished"])
  }

  @Test func aFailingRecordFailsAfterItsValues() {
    let log = EventLog()
    Self.subscribe(Record(output: [1, 2], completion: .failure(CombiningError.boom)), .just, to: log)
    expectEqual(log.events, ["subscribed", "10", "20", "failure(RillCoreTests.CombiningError.boom)"])
  }

  @Test func worksBehindMapAndFilter() {
    let log = EventLog()
    let upstream = (1...6).publisher.setFailureType(to: CombiningError.self).map { $0 + 1 }.filter { $0 % 2 == 0 }
    Self.subscribe(upstream, .just, to: log)
    expectEqual(log.events, ["subscribed", "20", "40", "60", "finished"])
  }

  /// Whatever the demand and `maxPublishers`, the values, completion and their order are those of the erased
  /// `Just`.
  @Test(arguments: [Subscribers.Demand.unlimited, .max(1), .max(3)], [Subscribers.Demand.unlimited, .max(2), .none])
  func behavesAsTheSubscribedJust(maxPublishers: Subscribers.Demand, initialDemand: Subscribers.Demand) {
    var traces: [[String]] = []
    for child in Child.allCases {
      let log = EventLog(initialDemand: initialDemand)
      Self.subscribe(
        (1...4).publisher.setFailureType(to: CombiningError.self),
        child,
        maxPublishers: maxPublishers,
        to: log
      )
      log.subscription?.request(.max(1))
      log.subscription?.request(.unlimited)
      traces.append(log.events)
    }
    expectEqual(traces[0], traces[1])
  }

  @Test func cancelFromInsideReceiveStopsDelivery() {
    let log = EventLog()
    var transformed: [Int] = []
    log.onValue = { value in
      if value == 20 { log.subscription?.cancel() }
      return .none
    }
    (1...5).publisher.setFailureType(to: CombiningError.self).flatMap { value -> Just<Int> in
      transformed.append(value)
      return Just(value * 10)
    }.subscribe(log)
    expectEqual(log.events, ["subscribed", "10", "20"])
    expectEqual(transformed, [1, 2])
  }

  @Test func cancelFromInsideTheTransformDeliversNothingMore() {
    let log = EventLog()
    var transformed: [Int] = []
    (1...5).publisher.setFailureType(to: CombiningError.self).flatMap { value -> Just<Int> in
      transformed.append(value)
      if value == 2 { log.subscription?.cancel() }
      return Just(value * 10)
    }.subscribe(log)
    expectEqual(log.events, ["subscribed", "10"])
    expectEqual(transformed, [1, 2])
  }

  @Test func requestFromInsideReceiveChangesNothing() {
    let log = EventLog()
    log.onValue = { _ in
      log.subscription?.request(.max(1))
      return .max(1)
    }
    Self.subscribe([1, 2, 3].publisher.setFailureType(to: CombiningError.self), .just, to: log)
    expectEqual(log.events, ["subscribed", "10", "20", "30", "finished"])
  }

  @Test func aCancelAfterFinishingIsSilent() {
    let log = EventLog()
    Self.subscribe([1, 2].publisher.setFailureType(to: CombiningError.self), .just, to: log)
    log.subscription?.cancel()
    log.subscription?.request(.max(1))
    expectEqual(log.events, ["subscribed", "10", "20", "finished"])
  }

  @Test func releasesThePipelineAfterFinishingAndAfterCancel() {
    for cancels in [false, true] {
      weak var weakLog: EventLog?
      weak var weakSubscription: AnyObject?
      do {
        let log = EventLog()
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

  @Test func aSinkReceivesEveryValue() {
    var values: [Int] = []
    var completions = 0
    let cancellable = (0..<100).publisher.flatMap { Just($0 &* 2) }.sink(
      receiveCompletion: { _ in completions += 1 },
      receiveValue: { values.append($0) }
    )
    #expect(values == (0..<100).map { $0 * 2 })
    expectEqual(completions, 1)
    cancellable.cancel()
  }
}
