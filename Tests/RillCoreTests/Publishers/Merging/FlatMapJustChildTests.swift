import RillCore
import RillTestSupport
import RillTesting
import Testing

/// The shortcut `flatMap` takes for a `Just` child.
///
/// `flatMap` hands the value of a `Just` child straight to its state machine instead of subscribing to the
/// `Just`. These tests hold that shortcut to what the same child does behind `eraseToAnyPublisher()`, where it is
/// subscribed like any other publisher.
@Suite struct FlatMapJustChildTests {
  /// What a script of upstream values, downstream requests and a finish leaves behind.
  struct Trace: Equatable, CustomStringConvertible {
    var values: [Int]
    var completions: [String]
    var upstreamRequests: [Subscribers.Demand]
    var upstreamCancels: Int

    var description: String { "\(values) \(completions) requests \(upstreamRequests) cancels \(upstreamCancels)" }
  }

  enum Child: CaseIterable {
    /// `Just` under an upstream that fails: the child is `SetFailureType<Just, _>`, taken by the shortcut.
    case justBehindSetFailureType
    /// The same `Just`, erased: subscribed like any publisher.
    case erased
  }

  static func run(
    _ child: Child,
    maxPublishers: Subscribers.Demand,
    initialDemand: Subscribers.Demand,
    demandPerValue: Subscribers.Demand
  ) -> Trace {
    let upstream = TestPublisher<Int, CombiningError>()
    let recorder = TestSubscriber<Int, CombiningError>(initialDemand: initialDemand, demandPerValue: demandPerValue)
    switch child {
    case .justBehindSetFailureType:
      upstream.flatMap(maxPublishers: maxPublishers) { Just($0 * 10) }.subscribe(recorder)
    case .erased:
      upstream.flatMap(maxPublishers: maxPublishers) { Just($0 * 10).eraseToAnyPublisher() }.subscribe(recorder)
    }
    // The test publisher sends whatever the demand, so the script also covers values sent without demand.
    for value in 0..<4 { upstream.send(value) }
    recorder.request(.max(1))
    upstream.send(4)
    recorder.request(.max(2))
    upstream.send(completion: .finished)
    recorder.request(.unlimited)
    return Trace(
      values: recorder.values,
      completions: recorder.completions.map { "\($0)" },
      upstreamRequests: upstream.requestedDemands,
      upstreamCancels: upstream.cancelCount
    )
  }

  @Test(arguments: [Subscribers.Demand.unlimited, .max(1), .max(2)], [Subscribers.Demand.unlimited, .max(1), .none])
  func behavesAsTheSubscribedJust(maxPublishers: Subscribers.Demand, initialDemand: Subscribers.Demand) {
    for demandPerValue in [Subscribers.Demand.none, .max(1)] {
      let shortcut = Self.run(
        .justBehindSetFailureType,
        maxPublishers: maxPublishers,
        initialDemand: initialDemand,
        demandPerValue: demandPerValue
      )
      let subscribed = Self.run(
        .erased,
        maxPublishers: maxPublishers,
        initialDemand: initialDemand,
        demandPerValue: demandPerValue
      )
      expectEqual(shortcut, subscribed, "demand per value \(demandPerValue)")
    }
  }

  @Test func exactDemandUpstreamUnderMaxPublishers() {
    let upstream = TestPublisher<Int, CombiningError>()
    let recorder = TestSubscriber<Int, CombiningError>(initialDemand: .max(1))
    upstream.flatMap(maxPublishers: .max(2)) { Just($0) }.subscribe(recorder)
    expectEqual(upstream.requestedDemands, [.max(2)])
    upstream.send(1)
    // The child finished at once: its slot is free again, so upstream is asked for one more.
    expectEqual(upstream.requestedDemands, [.max(2), .max(1)])
    upstream.send(2)
    // Queued for want of downstream demand, yet finished: one more again.
    expectEqual(recorder.values, [1])
    expectEqual(upstream.requestedDemands, [.max(2), .max(1), .max(1)])
    recorder.request(.max(1))
    expectEqual(recorder.values, [1, 2])
  }

  @Test func bareJustUnderAnUpstreamThatNeverFails() {
    let upstream = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(2))
    let flatMapped: Publishers.FlatMap<Just<Int>, PassthroughSubject<Int, Never>> = upstream.flatMap { Just($0 + 1) }
    flatMapped.subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    expectEqual(recorder.values, [2, 3])
    recorder.request(.max(1))
    expectEqual(recorder.values, [2, 3, 4])
    upstream.send(completion: .finished)
    expectEqual(recorder.completions.count, 1)
  }

  @Test func cancelFromInsideTheTransformDeliversNothingMore() {
    let upstream = TestPublisher<Int, CombiningError>()
    let recorder = TestSubscriber<Int, CombiningError>()
    var transformed: [Int] = []
    upstream.flatMap { value -> Just<Int> in
      transformed.append(value)
      if value == 1 { recorder.cancel() }
      return Just(value)
    }.subscribe(recorder)
    upstream.send(0)
    upstream.send(1)
    upstream.send(2)
    expectEqual(recorder.values, [0])
    #expect(recorder.completions.isEmpty)
    expectEqual(upstream.cancelCount, 1)
    // Values a misbehaving upstream sends after the cancel do not reach the transform.
    expectEqual(transformed, [0, 1])
  }

  @Test func cancelFromInsideReceiveStopsEverything() {
    let upstream = TestPublisher<Int, CombiningError>()
    let recorder = TestSubscriber<Int, CombiningError>()
    recorder.onValue = { _, value in
      if value == 1 { recorder.cancel() }
      return .none
    }
    upstream.flatMap { Just($0) }.subscribe(recorder)
    upstream.send(0)
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(recorder.values, [0, 1])
    #expect(recorder.completions.isEmpty)
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func requestFromInsideReceiveDrainsQueuedValuesInOrder() {
    let upstream = TestPublisher<Int, CombiningError>()
    let recorder = TestSubscriber<Int, CombiningError>(initialDemand: .none)
    recorder.onValue = { _, _ in
      recorder.request(.max(1))
      return .none
    }
    upstream.flatMap { Just($0) }.subscribe(recorder)
    for value in 0..<3 { upstream.send(value) }
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    expectEqual(recorder.values, [0, 1, 2])
    expectEqual(recorder.overlappingDeliveries, 0)
  }

  @Test func releasesThePipelineAfterFinishingAndAfterCancel() {
    for cancels in [false, true] {
      weak var weakRecorder: TestSubscriber<Int, Never>?
      let upstream = PassthroughSubject<Int, Never>()
      do {
        let recorder = TestSubscriber<Int, Never>()
        weakRecorder = recorder
        upstream.flatMap { Just($0) }.subscribe(recorder)
        upstream.send(1)
        if cancels { recorder.cancel() } else { upstream.send(completion: .finished) }
      }
      #expect(weakRecorder == nil, "cancels: \(cancels)")
    }
  }

  /// One log of upstream requests and downstream events, in the order they happened.
  final class EventLog: @unchecked Sendable {
    // SAFETY: only touched from the test's thread.
    var events: [String] = []
  }

  /// An upstream that logs each request into the shared log and sends only when told.
  final class LoggingUpstream: Publisher, Subscription, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = CombiningError

    // SAFETY: only touched from the test's thread.
    let log: EventLog
    var downstream: AnySubscriber<Int, CombiningError>?

    init(log: EventLog) {
      self.log = log
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == CombiningError {
      downstream = AnySubscriber(subscriber)
      subscriber.receive(subscription: self)
    }

    func request(_ demand: Subscribers.Demand) {
      log.events.append("request \(demand)")
    }

    func cancel() {
      log.events.append("cancel")
    }

    func send(_ value: Int) {
      _ = downstream?.receive(value)
    }

    func finish() {
      downstream?.receive(completion: .finished)
    }
  }

  /// Runs a script with the child behind the shortcut or erased, and returns the log.
  static func interleaving(
    _ child: Child,
    maxPublishers: Subscribers.Demand,
    initialDemand: Subscribers.Demand,
    finishInsideTransformAt finishAt: Int? = nil,
    requestInsideReceive: Bool = false
  ) -> [String] {
    let log = EventLog()
    let upstream = LoggingUpstream(log: log)
    let recorder = TestSubscriber<Int, CombiningError>(initialDemand: initialDemand)
    recorder.onValue = { _, value in
      log.events.append("value \(value)")
      if requestInsideReceive { recorder.request(.max(1)) }
      return .none
    }
    let transform = { (value: Int) -> Int in
      if value == finishAt { upstream.finish() }
      return value * 10
    }
    switch child {
    case .justBehindSetFailureType:
      upstream.flatMap(maxPublishers: maxPublishers) { Just(transform($0)) }.subscribe(recorder)
    case .erased:
      upstream.flatMap(maxPublishers: maxPublishers) { Just(transform($0)).eraseToAnyPublisher() }
        .subscribe(recorder)
    }
    for value in 0..<3 { upstream.send(value) }
    log.events.append("downstream requests 1")
    recorder.request(.max(1))
    upstream.send(3)
    log.events.append("downstream requests 2")
    recorder.request(.max(2))
    upstream.finish()
    log.events.append("downstream requests unlimited")
    recorder.request(.unlimited)
    log.events.append(contentsOf: recorder.completions.map { "\($0)" })
    return log.events
  }

  @Test(arguments: [Subscribers.Demand.unlimited, .max(1), .max(2)], [Subscribers.Demand.unlimited, .max(1), .none])
  func upstreamRequestsInterleaveWithValuesAsForTheSubscribedJust(
    maxPublishers: Subscribers.Demand,
    initialDemand: Subscribers.Demand
  ) {
    for requestInsideReceive in [false, true] {
      for finishAt in [nil, 0, 1] as [Int?] {
        let shortcut = Self.interleaving(
          .justBehindSetFailureType,
          maxPublishers: maxPublishers,
          initialDemand: initialDemand,
          finishInsideTransformAt: finishAt,
          requestInsideReceive: requestInsideReceive
        )
        let subscribed = Self.interleaving(
          .erased,
          maxPublishers: maxPublishers,
          initialDemand: initialDemand,
          finishInsideTransformAt: finishAt,
          requestInsideReceive: requestInsideReceive
        )
        #expect(
          shortcut == subscribed,
          "request inside receive \(requestInsideReceive), finish inside transform at \(String(describing: finishAt))"
        )
      }
    }
  }
}
