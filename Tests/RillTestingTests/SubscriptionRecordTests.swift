import RillTestSupport
import RillTesting
import Testing

@Suite struct SubscriptionRecordTests {
  @Test func testPublisherRecordsSubscriptionAndCancellationTimes() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
    let subscriber = TestSubscriber<Int, Never>()
    scheduler.advance(by: 2)
    upstream.subscribe(subscriber)
    scheduler.advance(by: 5)
    subscriber.cancel()
    upstream.subscribe(TestSubscriber<Int, Never>())
    expectEqual(upstream.subscriptionRecords, [SubscriptionRecord(2...7), SubscriptionRecord(7...)])
    expectEqual(upstream.subscriptionRecords.map(\.description), ["2...7", "7..."])
    expectEqual(upstream.subscriptionRecords[0].subscriptionTime, 2)
    expectEqual(upstream.subscriptionRecords[0].cancellationTime, 7)
    #expect(upstream.subscriptionRecords[1].cancellationTime == nil)
    expectEqual(upstream.subscriptionRecords.map(\.isCancelled), [true, false])
  }

  @Test func aSecondCancellationKeepsTheFirstTime() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
    upstream.subscribe(TestSubscriber<Int, Never>())
    scheduler.advance(by: 1)
    upstream.subscriptions[0].cancel()
    scheduler.advance(by: 1)
    upstream.subscriptions[0].cancel()
    expectEqual(upstream.subscriptionRecords, [SubscriptionRecord(0...1)])
    expectEqual(upstream.cancelCount, 2)
  }

  @Test func completionAndReleaseDoNotEndARecord() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
    upstream.subscribe(TestSubscriber<Int, Never>())
    scheduler.advance(by: 3)
    upstream.send(completion: .finished)
    upstream.releaseSubscribers()
    expectEqual(upstream.subscriptionRecords, [SubscriptionRecord(0...)])
  }

  @Test func anOperatorCancellingItsUpstreamIsRecordedAtItsTime() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    upstream.prefix { $0 < 3 }.subscribe(subscriber)
    for value in 1...4 {
      scheduler.advance(by: 2)
      upstream.send(value)
    }
    expectEqual(upstream.subscriptionRecords, [SubscriptionRecord(0...6)])
    expectEqual(subscriber.marbles(), "--1-2-|")
  }

  @Test func withoutASchedulerRecordsOnlySayWhetherTheSubscriberCancelled() {
    let upstream = TestPublisher<Int, Never>()
    let first = TestSubscriber<Int, Never>()
    upstream.subscribe(first)
    upstream.subscribe(TestSubscriber<Int, Never>())
    first.cancel()
    #expect(
      upstream.subscriptionRecords == [SubscriptionRecord(isCancelled: true), SubscriptionRecord(isCancelled: false)]
    )
    expectEqual(upstream.subscriptionRecords.map(\.description), ["cancelled", "subscribed"])
    #expect(upstream.subscriptionRecords[0].subscriptionTime == nil)
    #expect(TestPublisher<Int, Never>().subscriptionRecords.isEmpty)
  }

  @Test func coldMarbleSourceRecordsEachSubscriber() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.marbleSource("-a-b-c-|")
    let first = TestSubscriber<String, MarbleError>(scheduler: scheduler)
    let second = TestSubscriber<String, MarbleError>(scheduler: scheduler, initialDemand: .max(1))
    source.prefix(2).subscribe(first)
    scheduler.advance(by: 4)
    source.subscribe(second)
    scheduler.advance(by: 2)
    second.cancel()
    scheduler.run()
    expectEqual(first.marbles(), "-a-[b|]")
    expectEqual(second.marbles(), "-----a!")
    expectEqual(source.subscriptionRecords, [SubscriptionRecord(0...3), SubscriptionRecord(4...6)])
  }

  @Test func marbleSourceRecordsDemandWithItsTime() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.marbleSource("-1-2-3-|", as: Int.self)
    let subscriber = TestSubscriber<Int, MarbleError>(scheduler: scheduler, initialDemand: .max(1))
    source.subscribe(subscriber)
    scheduler.advance(by: 5)
    subscriber.request(.max(2))
    scheduler.run()
    expectEqual(source.demandRecords, [DemandRecord(.max(1), at: 0), DemandRecord(.max(2), at: 5)])
    expectEqual(subscriber.demandRecords, source.demandRecords)
    expectEqual(subscriber.marbles(), "-1---[23]-|")
    expectEqual(source.subscriptionRecords, [SubscriptionRecord(0...)])
    expectEqual(source.description, "MarblePublisher(subscriptions: [0...], requested: [0: max(1), 5: max(2)])")
  }

  @Test func marbleSourceLogsRequestsMadeFromInsideADelivery() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.marbleSource("-a-b-c-|")
    let subscriber = TestSubscriber<String, MarbleError>(
      scheduler: scheduler,
      initialDemand: .max(1),
      demandPerValue: .max(5),
      onValue: { subscriber, value in
        if value == "a" { subscriber.request(.max(1)) }
        if value == "b" { subscriber.cancel() }
        return .none
      }
    )
    source.subscribe(subscriber)
    scheduler.run()
    expectEqual(subscriber.marbles(), "-a-[b!]")
    expectEqual(source.demandRecords, [DemandRecord(.max(1), at: 0), DemandRecord(.max(1), at: 1)])
    expectEqual(source.subscriptionRecords, [SubscriptionRecord(0...3)])
  }

  @Test func hotMarbleSourceRecordsLateSubscribers() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.marbleSource("-a-b-|", hot: true)
    let early = TestSubscriber<String, MarbleError>(scheduler: scheduler)
    let late = TestSubscriber<String, MarbleError>(scheduler: scheduler)
    scheduler.schedule(after: 2) { source.subscribe(early) }
    scheduler.schedule(after: 7) { source.subscribe(late) }
    scheduler.run()
    expectEqual(early.marbles(), "---b-|")
    expectEqual(late.marbles(), "-------|")
    expectEqual(source.subscriptionRecords, [SubscriptionRecord(2...), SubscriptionRecord(7...)])
    expectEqual(source.demandRecords, [DemandRecord(.unlimited, at: 2), DemandRecord(.unlimited, at: 7)])
  }

  @Test func marbleSourceRejectsWhatMarblePublisherRejects() {
    #expect(throws: MarbleSyntaxError.self) { try TestScheduler().marbleSource("-a-!") }
    #expect(throws: MarbleSyntaxError.self) { try TestScheduler().marbleSource("->a", hot: true) }
    #expect(throws: MarbleSyntaxError(diagram: "-x", index: 1, message: "'x' is not a valid Int")) {
      try TestScheduler().marbleSource("-x", as: Int.self)
    }
  }

  @Test func descriptions() {
    expectEqual(SubscriptionRecord(2...7).description, "2...7")
    expectEqual(SubscriptionRecord(2...).description, "2...")
    expectEqual(SubscriptionRecord(0...0).description, "0...0")
    expectEqual(SubscriptionRecord(isCancelled: true).description, "cancelled")
    expectEqual("\([SubscriptionRecord(1...2), SubscriptionRecord(3...)])", "[1...2, 3...]")
  }

  @Test func testPublisherRecordsDoNotKeepSubscribersAlive() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    do {
      let subscriber = TestSubscriber<Int, Never>()
      upstream.map { $0 + 1 }.subscribe(subscriber)
      weakSubscriber = subscriber
      scheduler.advance(by: 1)
      subscriber.cancel()
    }
    upstream.releaseSubscribers()
    #expect(weakSubscriber == nil)
    expectEqual(upstream.subscriptionRecords, [SubscriptionRecord(0...1)])
  }

  @Test func marbleSourceRecordsDoNotKeepSubscribersAliveAfterCompletion() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.marbleSource("-a-|")
    weak var weakSubscriber: TestSubscriber<String, MarbleError>?
    do {
      let subscriber = TestSubscriber<String, MarbleError>(scheduler: scheduler)
      source.map { $0 + "!" }.subscribe(subscriber)
      weakSubscriber = subscriber
    }
    scheduler.run()
    #expect(weakSubscriber == nil)
    expectEqual(source.subscriptionRecords, [SubscriptionRecord(0...)])
  }

  @Test func marbleSourceRecordsDoNotKeepSubscribersAliveAfterCancel() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.marbleSource("-a-b-c-|")
    let hot = try scheduler.marbleSource("-a-b-c-|", hot: true)
    weak var weakCold: TestSubscriber<String, MarbleError>?
    weak var weakHot: TestSubscriber<String, MarbleError>?
    do {
      let coldSubscriber = TestSubscriber<String, MarbleError>(scheduler: scheduler)
      let hotSubscriber = TestSubscriber<String, MarbleError>(scheduler: scheduler)
      cold.subscribe(coldSubscriber)
      hot.subscribe(hotSubscriber)
      weakCold = coldSubscriber
      weakHot = hotSubscriber
      scheduler.advance(by: 2)
      coldSubscriber.cancel()
      hotSubscriber.cancel()
    }
    #expect(weakCold == nil)
    #expect(weakHot == nil)
    scheduler.run()
    expectEqual(cold.subscriptionRecords, [SubscriptionRecord(0...2)])
    expectEqual(hot.subscriptionRecords, [SubscriptionRecord(0...2)])
  }

  @Test func aMarbleSourceIsFreedOnceNothingUsesIt() throws {
    let scheduler = TestScheduler()
    weak var weakSource: MarblePublisher<String>?
    do {
      let source = try scheduler.marbleSource("-a-|", hot: true)
      source.subscribe(TestSubscriber<String, MarbleError>())
      weakSource = source
    }
    scheduler.run()
    #expect(weakSource == nil)
  }
}
