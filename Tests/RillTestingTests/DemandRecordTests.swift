import RillTestSupport
import RillTesting
import Testing

@Suite struct DemandRecordTests {
  @Test func subscriberStampsEachRequestWithTheSchedulersTime() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler, initialDemand: .max(1), demandPerValue: .max(2))
    upstream.subscribe(subscriber)
    scheduler.advance(by: 2)
    upstream.send(1)
    scheduler.advance(by: 1)
    subscriber.request(.max(1))
    subscriber.request(.none)
    #expect(
      subscriber.demandRecords == [
        DemandRecord(.max(1), at: 0), DemandRecord(.max(2), at: 2), DemandRecord(.max(1), at: 3),
      ]
    )
    expectEqual(subscriber.requestedDemands, [.max(1), .max(2), .max(1)])
    expectEqual(upstream.demandRecords, [DemandRecord(.max(1)), DemandRecord(.max(1))])
  }

  @Test func publisherAndItsSubscriptionsStampRequestsWithTheSchedulersTime() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    upstream.subscribe(subscriber)
    scheduler.advance(by: 3)
    subscriber.request(.max(1))
    expectEqual(upstream.demandRecords, [DemandRecord(.max(1), at: 0), DemandRecord(.max(1), at: 3)])
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
    expectEqual(upstream.subscriptions.first?.demandRecords, upstream.demandRecords)
    #expect(upstream.subscriptions.first?.scheduler === scheduler)
    #expect(upstream.scheduler === scheduler)
  }

  @Test func requestsFromSeveralSubscribersInterleaveInOrder() {
    let scheduler = TestScheduler(now: 10)
    let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
    let first = TestSubscriber<Int, Never>(initialDemand: .max(1))
    let second = TestSubscriber<Int, Never>(initialDemand: .unlimited)
    upstream.subscribe(first)
    scheduler.advance(by: 1)
    upstream.subscribe(second)
    scheduler.advance(by: 1)
    first.request(.max(4))
    #expect(
      upstream.demandRecords == [
        DemandRecord(.max(1), at: 10), DemandRecord(.unlimited, at: 11), DemandRecord(.max(4), at: 12),
      ]
    )
    expectEqual(upstream.subscriptions.map(\.demandRecords.count), [2, 1])
  }

  @Test func requestsScheduledOnTheClockGetTheirOwnTimes() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler, initialDemand: .none)
    upstream.map { $0 * 2 }.subscribe(subscriber)
    scheduler.schedule(after: 5) { subscriber.request(.max(1)) }
    scheduler.schedule(after: 9) { subscriber.request(.max(2)) }
    scheduler.run()
    let expected = [DemandRecord(.max(1), at: 5), DemandRecord(.max(2), at: 9)]
    expectEqual(upstream.demandRecords, expected)
    expectEqual(subscriber.demandRecords, expected)
  }

  @Test func demandRequestedBeforeTheSubscriptionIsStampedWhenItIsRequested() {
    let scheduler = TestScheduler()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler, initialDemand: .max(1))
    subscriber.request(.max(2))
    scheduler.advance(by: 4)
    TestPublisher<Int, Never>(scheduler: scheduler).subscribe(subscriber)
    expectEqual(subscriber.demandRecords, [DemandRecord(.max(3), at: 4)])
  }

  @Test func withoutASchedulerTimesAreNil() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.subscribe(subscriber)
    expectEqual(upstream.demandRecords, [DemandRecord(.max(2))])
    #expect(upstream.demandRecords.first?.time == nil)
    #expect(subscriber.demandRecords == [DemandRecord(.max(2), at: nil)])
    #expect(upstream.scheduler == nil)
  }

  @Test func handMadeSubscriptionRecordsEveryRequestIncludingNone() {
    let scheduler = TestScheduler()
    let subscription = TestSubscription(scheduler: scheduler)
    subscription.request(.max(1))
    scheduler.advance(by: 3)
    subscription.request(.none)
    subscription.request(.max(2))
    #expect(
      subscription.demandRecords == [
        DemandRecord(.max(1), at: 0), DemandRecord(.none, at: 3), DemandRecord(.max(2), at: 3),
      ]
    )
    expectEqual(subscription.requestedDemands, [.max(1), .none, .max(2)])
    expectEqual(subscription.totalDemand, .max(3))
    #expect(TestSubscription().demandRecords.isEmpty)
  }

  @Test func reentrantRequestsAreLoggedInOrder() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>(
      scheduler: scheduler,
      onRequest: { publisher, demand in
        if demand == .max(1) { publisher.send(1) }
      }
    )
    let subscriber = TestSubscriber<Int, Never>(
      scheduler: scheduler,
      initialDemand: .max(1),
      onValue: { subscriber, value in
        if value == 1 { subscriber.request(.max(5)) }
        return .none
      }
    )
    upstream.subscribe(subscriber)
    expectEqual(upstream.demandRecords, [DemandRecord(.max(1), at: 0), DemandRecord(.max(5), at: 0)])
    expectEqual(subscriber.demandRecords, [DemandRecord(.max(1), at: 0), DemandRecord(.max(5), at: 0)])
  }

  @Test func descriptionsShowTheTimeWhenThereIsOne() {
    expectEqual(DemandRecord(.max(1), at: 3).description, "3: max(1)")
    expectEqual(DemandRecord(.unlimited).description, "unlimited")
    expectEqual("\([DemandRecord(.max(2), at: 0)])", "[0: max(2)]")
    let upstream = TestPublisher<Int, Never>(scheduler: TestScheduler())
    upstream.subscribe(TestSubscriber<Int, Never>(initialDemand: .max(2)))
    expectEqual(upstream.description, "TestPublisher(subscribers: 1, requested: [max(2)], cancelled: 0)")
  }

  @Test func theLogsDoNotKeepSubscribersAlive() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    do {
      let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler, initialDemand: .max(1))
      upstream.map { $0 + 1 }.subscribe(subscriber)
      weakSubscriber = subscriber
      scheduler.advance(by: 2)
      subscriber.request(.max(1))
      subscriber.cancel()
    }
    upstream.releaseSubscribers()
    #expect(weakSubscriber == nil)
    expectEqual(upstream.demandRecords, [DemandRecord(.max(1), at: 0), DemandRecord(.max(1), at: 2)])
  }

  @Test func theLogsOutliveAPublisherFreedAfterCompletion() {
    let scheduler = TestScheduler()
    weak var weakUpstream: TestPublisher<Int, Never>?
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    var records: [DemandRecord] = []
    do {
      let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
      let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
      upstream.subscribe(subscriber)
      upstream.send(completion: .finished)
      weakUpstream = upstream
      weakSubscriber = subscriber
      records = subscriber.demandRecords
    }
    #expect(weakUpstream == nil)
    #expect(weakSubscriber == nil)
    expectEqual(records, [DemandRecord(.unlimited, at: 0)])
  }
}
