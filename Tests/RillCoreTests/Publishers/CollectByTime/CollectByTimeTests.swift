import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct CollectByTimeTests {
  @Test func byTimeEmitsEachInterval() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(scheduler: scheduler)
    upstream.collect(.byTime(scheduler, 4)).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    scheduler.advance(by: 5)
    scheduler.advance(by: 4)
    upstream.send(3)
    upstream.send(completion: .finished)
    scheduler.advance(by: 0)
    expectEqual(subscriber.stampedEvents, ["[1, 2]@4", "[3]@9", "finished@9"])
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func byTimeOrCountEmitsFullBuffersAtOnce() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(scheduler: scheduler, initialDemand: .max(2), demandPerValue: .max(1))
    upstream.collect(.byTimeOrCount(scheduler, 10, 2)).subscribe(subscriber)
    expectEqual(upstream.requestedDemands, [.max(4)])
    upstream.send(1)
    expectEqual(upstream.send(2), .none)
    #expect(subscriber.stampedEvents.isEmpty)
    scheduler.advance(by: 0)
    expectEqual(upstream.requestedDemands, [.max(4), .max(2)])
    upstream.send(3)
    scheduler.advance(by: 10)
    expectEqual(subscriber.stampedEvents, ["[1, 2]@0", "[3]@10"])
  }

  @Test func byTimeOrCountFlushesThePartialBufferOnFinish() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(scheduler: scheduler)
    upstream.collect(.byTimeOrCount(scheduler, 10, 3)).subscribe(subscriber)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(1)
    scheduler.advance(by: 2)
    upstream.send(completion: .finished)
    #expect(subscriber.stampedEvents.isEmpty)
    scheduler.advance(by: 0)
    expectEqual(subscriber.stampedEvents, ["[1]@2", "finished@2"])
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func byTimeOrCountFailureDropsTheBuffer() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<[Int], TimeOpsError>()
    upstream.collect(.byTimeOrCount(scheduler, 10, 3)).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(.boom))
    scheduler.advance(by: 20)
    expectEqual(subscriber.stampedEvents, ["failure"])
    expectEqual(subscriber.completion, .failure(.boom))
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func failureDropsTheBuffer() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<[Int], TimeOpsError>()
    upstream.collect(.byTime(scheduler, 4)).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(.boom))
    #expect(subscriber.stampedEvents.isEmpty)
    scheduler.advance(by: 0)
    expectEqual(subscriber.stampedEvents, ["failure"])
  }

  /// As in Combine, `.byTime` asks the upstream for one element with each request, whatever its demand, and one more
  /// with each element; it asks for nothing at the subscription.
  @Test func byTimeAsksForOneElementPerRequestAndPerElement() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
    upstream.collect(.byTime(scheduler, 4)).subscribe(subscriber)
    #expect(upstream.requestedDemands.isEmpty)
    subscriber.subscription?.request(.max(5))
    expectEqual(upstream.requestedDemands, [.max(1)])
    expectEqual(upstream.send(1), .max(1))
    expectEqual(upstream.send(2), .max(1))
    subscriber.subscription?.request(.max(3))
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
    scheduler.advance(by: 4)
    expectEqual(subscriber.values, [[1, 2]])
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
  }

  /// Once the collected elements have gone out, a later request still asks the upstream for one more element, as in
  /// Combine; the demand a delivered array returns asks for nothing.
  @Test func byTimeRequestAfterTheArraysWentOutAsksForOneMore() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(2), demandPerValue: .max(1))
    upstream.collect(.byTime(scheduler, 1)).subscribe(subscriber)
    for value in 0..<9 {
      if value % 3 == 0 { scheduler.advance(by: 1) }
      expectEqual(upstream.send(value), .max(1))
    }
    scheduler.advance(by: 1)
    expectEqual(subscriber.values, [[0, 1, 2], [3, 4, 5], [6, 7, 8]])
    expectEqual(upstream.requestedDemands, [.max(1)])
    subscriber.subscription?.request(.max(2))
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
    subscriber.subscription?.request(.unlimited)
    expectEqual(upstream.requestedDemands, [.max(1), .max(1), .max(1)])
  }

  /// As in Combine since iOS 13.3, an array the count completes reaches the downstream on the scheduler, not from
  /// inside the upstream's `send`.
  @Test func byTimeOrCountDeliversAFullBufferOnTheScheduler() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>()
    upstream.collect(.byTimeOrCount(scheduler, 10, 2)).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    upstream.send(4)
    #expect(subscriber.values.isEmpty)
    expectEqual(scheduler.scheduledActionCount, 3)
    scheduler.advance(by: 0)
    expectEqual(subscriber.values, [[1, 2], [3, 4]])
  }

  /// As in Combine since iOS 13.3, the upstream's completion reaches the downstream on the scheduler, with both
  /// strategies, and a cancel before the scheduler runs stops it.
  @Test func completionGoesThroughTheSchedulerAndACancelStopsIt() {
    for strategy in ["byTime", "byTimeOrCount"] {
      for cancels in [false, true] {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TimeOpsError>()
        let subscriber = TestSubscriber<[Int], TimeOpsError>()
        let collected =
          strategy == "byTime"
          ? upstream.collect(.byTime(scheduler, 10)).eraseToAnyPublisher()
          : upstream.collect(.byTimeOrCount(scheduler, 10, 5)).eraseToAnyPublisher()
        collected.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.stampedEvents.isEmpty, "\(strategy), cancels: \(cancels)")
        if cancels { subscriber.cancel() }
        scheduler.advance(by: 0)
        #expect(
          subscriber.stampedEvents == (cancels ? [] : ["[1]", "finished"]),
          "\(strategy), cancels: \(cancels)"
        )
        expectEqual(scheduler.scheduledActionCount, 0)
      }
    }
  }

  @Test func lastArrayWaitsForDemand() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
    upstream.collect(.byTime(scheduler, 4)).subscribe(subscriber)
    upstream.send(1)
    scheduler.advance(by: 4)
    upstream.send(completion: .finished)
    #expect(subscriber.stampedEvents.isEmpty)
    subscriber.subscription?.request(.max(1))
    expectEqual(subscriber.stampedEvents, ["[1]", "finished"])
  }

  /// Every array the demand covers goes out once the upstream has finished, then the completion: at the finish, and
  /// when a later request releases what was held for want of demand.
  @Test func everyArrayTheDemandCoversIsDeliveredAfterTheUpstreamFinishes() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
    upstream.collect(.byTimeOrCount(scheduler, 10, 2)).subscribe(subscriber)
    for value in 1...3 { upstream.send(value) }
    subscriber.subscription?.request(.max(2))
    upstream.send(completion: .finished)
    scheduler.advance(by: 0)
    expectEqual(subscriber.stampedEvents, ["[1, 2]", "[3]", "finished"])

    let held = TestPublisher<Int, Never>()
    let late = TestSubscriber<[Int], Never>(initialDemand: .none)
    held.collect(.byTimeOrCount(scheduler, 10, 2)).subscribe(late)
    for value in 1...3 { held.send(value) }
    held.send(completion: .finished)
    late.subscription?.request(.max(2))
    scheduler.advance(by: 0)
    expectEqual(late.stampedEvents, ["[1, 2]", "[3]", "finished"])
  }

  @Test func cancelStopsTimerAndUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>()
    upstream.collect(.byTime(scheduler, 4)).subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
    expectEqual(scheduler.scheduledActionCount, 0)
    scheduler.advance(by: 10)
    #expect(subscriber.stampedEvents.isEmpty)
  }
}
