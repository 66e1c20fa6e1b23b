import RillTestSupport
import RillTesting
import Testing

/// The examples in RillTesting's documentation, run with Rill's own operators, character for character.
@Suite struct DocumentationExampleTests {
  @Test func marbleExamples() {
    #expect(TestScheduler.marbles("-1-2-3-1-|") { $0.prefix { $0 < 3 } } == "-1-2-|")
    #expect(TestScheduler.marbles("-a-b-|") { $0.map { $0.uppercased() } } == "-A-B-|")
    #expect(TestScheduler.marbles("-1-2-|") { $0.map { $0 * 10 } } == "-'10'-'20'-|")
    #expect(TestScheduler.marbles("-1-2>-3-4|", hot: true) { $0 } == "------3-4|")
    #expect(TestScheduler.marbles("-a---b-|", "--c-d---|") { $0.merge(with: $1) } == "-ac-db--|")
    #expect(TestScheduler.marbles("-1-2-3-4-|", as: Int.self) { $0.filter { $0.isMultiple(of: 2) } } == "---2---4-|")
  }

  @Test func manySourceMarbleExamples() {
    #expect(
      TestScheduler.marbles(["-1---4-|", "--2----|", "---3-|"]) { $0[0].merge(with: $0[1], $0[2]) }
        == "-123-4-|"
    )
    #expect(TestScheduler.marbles(["-a-|", "--b-|", "---c|"]) { Publishers.MergeMany($0) } == "-abc|")
    #expect(
      TestScheduler.marbles(["-a---d-|", "--b-----|", "---c-e-|"]) {
        $0[0].combineLatest($0[1], $0[2]) { $0 + $1 + $2 }
      } == "---'abc'-['dbc''dbe']--|"
    )
    #expect(TestScheduler.marbles(["-1-|", "-2-|", "-3-|"], as: Int.self) { Publishers.MergeMany($0) } == "-[123]-|")
    let scheduler = TestScheduler()
    let result = scheduler.marbles(["-1-|", "-2-|", "-3-|"]) { sources in
      Publishers.MergeMany(sources).delay(for: 1, scheduler: scheduler)
    }
    expectEqual(result, "--[123]-|")
  }

  @Test func schedulerExample() {
    let scheduler = TestScheduler()
    #expect(scheduler.marbles("-1-2-|") { $0.delay(for: 2, scheduler: scheduler) } == "---1-2-|")
    var fired: [Int] = []
    scheduler.schedule(after: scheduler.now.advanced(by: 3)) { fired.append(3) }
    scheduler.schedule { fired.append(0) }
    scheduler.advance(by: 2)
    expectEqual(fired, [0])
    scheduler.advance(by: 1)
    expectEqual(fired, [0, 3])
  }

  @Test func malformedExamples() {
    #expect(TestScheduler.marbles("-1-[2") { $0 } == "marble error at index 3 of \"-1-[2\": an unterminated group")
    #expect(
      TestScheduler.marbles("-1-a-|") { $0.map { $0 + 1 } }
        == "marble error at index 3 of \"-1-a-|\": 'a' is not a valid Int"
    )
  }

  @Test func marblePublisherExample() throws {
    let scheduler = TestScheduler()
    let subscriber = TestSubscriber<Int, MarbleError>(scheduler: scheduler, initialDemand: .max(1))
    try scheduler.marblePublisher("-1-2-3-|", as: Int.self).subscribe(subscriber)
    scheduler.advance(by: 10)
    subscriber.request(.max(5))
    expectEqual(subscriber.marbles(), "-1--------[23|]")

    let other = TestScheduler()
    let recorder = TestSubscriber<Int, MarbleError>(scheduler: other)
    try other.marblePublisher("-1-'10'-|", as: Int.self).subscribe(recorder)
    other.run()
    expectEqual(recorder.marbles(), "-1-'10'-|")
  }

  @Test func subscriberExamples() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    (1...5).publisher.subscribe(subscriber)
    expectEqual(subscriber.values, [1, 2])
    subscriber.request(.max(1))
    expectEqual(subscriber.requestedDemands, [.max(2), .max(1)])
    expectEqual(subscriber.events, [.subscription, .value(1), .value(2), .value(3)])

    let small = TestSubscriber<Int, Never>(initialDemand: .max(2))
    [1, 2, 3].publisher.subscribe(small)
    expectEqual(small.values, [1, 2])
    small.request(.max(5))
    #expect(small.values == [1, 2, 3] && small.isFinished)

    let upstream = TestPublisher<Int, Never>()
    let prefixed = TestSubscriber<Int, Never>()
    upstream.prefix(2).subscribe(prefixed)
    upstream.send(1)
    upstream.send(2)  // prefix finishes here
    upstream.send(completion: .finished)  // and must not pass this one on
    expectEqual(prefixed.completions, [.finished])

    let first = TestPublisher<Int, Never>()
    let second = TestPublisher<Int, Never>()
    let merged = TestSubscriber<Int, Never>(onValue: { _, value in
      if value == 1 { second.send(2) }  // arrives while 1 is being received
      return .none
    })
    first.merge(with: second).subscribe(merged)
    first.send(1)
    expectEqual(merged.values, [1, 2])
    #expect(merged.overlappingDeliveries == 1)  // merge delivered 2 inside 1, as Combine does

    let hooked = TestPublisher<Int, Never>()
    let late = TestSubscriber<Int, Never>(initialDemand: .max(1))
    hooked.subscribe(late)
    late.onValue = { subscriber, value in
      if value == 2 { subscriber.cancel() }
      return .max(1)
    }
    hooked.send(1)
    hooked.send(2)
    expectEqual(hooked.requestedDemands, [.max(1)])
    #expect(hooked.isCancelled)
  }

  @Test func recordExamples() {
    let scheduler = TestScheduler()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    Just(1).delay(for: 3, scheduler: scheduler).subscribe(subscriber)
    scheduler.run()
    let expected: [TestSubscriber<Int, Never>.Record] = [
      .init(.subscription, at: 0), .init(.value(1), at: 3), .init(.completion(.finished), at: 3),
    ]
    expectEqual(subscriber.records, expected)
  }

  @Test func marbleDifferenceExamples() throws {
    let result = TestScheduler.marbles("-a-b-|") { $0.map { $0 == "b" ? "c" : $0 } }
    #expect(
      MarbleDifference(expected: "-a-b-|", actual: result)?.description
        == #"expected b at tick 3, got c (expected "-a-b-|", actual "-a-c-|")"#
    )
    #expect(MarbleDifference(expected: "-a-b-|", actual: "- a - b - |") == nil)

    let scheduler = TestScheduler()
    let subscriber = TestSubscriber<Int, MarbleError>(scheduler: scheduler)
    try scheduler.marblePublisher("-1-2-|", as: Int.self).map { $0 * 2 }.subscribe(subscriber)
    scheduler.run()
    #expect(subscriber.marbleDifference(expected: "-2-4-|") == nil)
  }

  @Test func publisherExample() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.prefix { $0 < 10 }.subscribe(subscriber)
    expectEqual(upstream.requestedDemands, [.max(2)])
    upstream.send(1)
    subscriber.cancel()
    #expect(upstream.isCancelled)
    upstream.send(2)
    expectEqual(subscriber.values, [1])
  }

  @Test func demandRecordExamples() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    upstream.subscribe(subscriber)
    scheduler.advance(by: 3)
    subscriber.request(.max(1))
    expectEqual(upstream.demandRecords, [DemandRecord(.max(1), at: 0), DemandRecord(.max(1), at: 3)])

    let clock = TestScheduler()
    let timed = TestSubscriber<Int, Never>(scheduler: clock, initialDemand: .max(1))
    TestPublisher<Int, Never>().subscribe(timed)
    clock.advance(by: 3)
    timed.request(.max(1))
    expectEqual(timed.demandRecords, [DemandRecord(.max(1), at: 0), DemandRecord(.max(1), at: 3)])

    let other = TestScheduler()
    let subscription = TestSubscription(scheduler: other)
    subscription.request(.max(1))
    other.advance(by: 3)
    subscription.request(.max(2))
    expectEqual(subscription.demandRecords, [DemandRecord(.max(1), at: 0), DemandRecord(.max(2), at: 3)])
  }

  @Test func subscriptionRecordExamples() throws {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
    let subscriber = TestSubscriber<Int, Never>()
    scheduler.advance(by: 2)
    upstream.subscribe(subscriber)
    scheduler.advance(by: 5)
    subscriber.cancel()
    upstream.subscribe(TestSubscriber<Int, Never>())
    expectEqual(upstream.subscriptionRecords, [SubscriptionRecord(2...7), SubscriptionRecord(7...)])

    let clock = TestScheduler()
    let source = try clock.marbleSource("-a-b-c-|")
    let recorder = TestSubscriber<String, MarbleError>(scheduler: clock)
    source.prefix(2).subscribe(recorder)
    clock.run()
    expectEqual(recorder.marbles(), "-a-[b|]")
    expectEqual(source.subscriptionRecords, [SubscriptionRecord(0...3)])
    expectEqual(source.demandRecords, [DemandRecord(.unlimited, at: 0)])

    let other = TestScheduler()
    let numbers = try other.marbleSource("-1-2-3-|", as: Int.self)
    let counter = TestSubscriber<Int, MarbleError>(scheduler: other)
    other.advance(by: 2)
    numbers.prefix(2).subscribe(counter)
    other.run()
    expectEqual(numbers.subscriptionRecords, [SubscriptionRecord(2...5)])
  }

  @Test func subscriptionExample() {
    let upstream = TestPublisher<Int, Never>()
    upstream.prefix { $0 < 10 }.subscribe(TestSubscriber<Int, Never>())
    let extra = TestSubscription()
    upstream.send(subscription: extra)
    #expect(extra.isCancelled)
  }

  @Test(arguments: ContractDemand.standard)
  func contractExample(demand: ContractDemand) {
    let report = PublisherContract.check((1...5).publisher.map { $0 * 2 }, demand: demand)
    #expect(report.isSatisfied, "\(report)")
    let doubled = PublisherContract.check([1, 2, 3].publisher.map { $0 * 2 }, demand: demand)
    #expect(doubled.isSatisfied, "\(doubled)")
  }

  @Test func tickExamples() {
    do {
      let scheduler = TestScheduler()
      let result = scheduler.marbles("-a-b-----c----|", tick: .milliseconds(100)) {
        $0.debounce(for: .milliseconds(300), scheduler: scheduler)
      }
      expectEqual(result, "------b-----c-|")
    }
    do {
      let scheduler = TestScheduler()
      let result = scheduler.marbles(Marbles("-a-b-----c----|"), tick: .milliseconds(100)) {
        $0.debounce(for: .milliseconds(300), scheduler: scheduler)
      }
      expectEqual(result, "------b-----c-|")
    }
    do {
      let scheduler = TestScheduler()
      let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
      Just(1).delay(for: .milliseconds(250), scheduler: scheduler).subscribe(subscriber)
      scheduler.run()
      expectEqual(subscriber.marbles(tick: .milliseconds(100)), "---[1|]")
    }
  }

  @Test func typedSourceExamples() {
    let result = TestScheduler.marbles(
      Marbles("-a--b---c-|"),
      Marbles("t--f--t---|", values: ["t": true, "f": false])
    ) { query, isEnabled in
      query.combineLatest(isEnabled).filter { $1 }.map(\.0)
    }
    expectEqual(result, "-a----b-c-|")
    #expect(TestScheduler.marbles(Marbles("-'on'-|", values: ["on": true])) { $0 } == "-'true'-|")
    #expect(TestScheduler.marbles(Marbles("-t-f-|", values: ["t": true, "f": false])) { $0 } == "-'true'-'false'-|")
    #expect(TestScheduler.marbles(Marbles("-1-'10'-|", as: Int.self)) { $0 } == "-1-'10'-|")
  }
}
