import RillTestSupport
import RillTesting
import Testing

@Suite struct TestSubscriberTests {
  @Test func handWrittenRecordsCompareWithRecordedOnes() {
    let scheduler = TestScheduler()
    let timed = TestSubscriber<Int, Never>(scheduler: scheduler)
    scheduler.advance(to: 2)
    [7].publisher.subscribe(timed)
    #expect(
      timed.records == [.init(.subscription, at: 2), .init(.value(7), at: 2), .init(.completion(.finished), at: 2)]
    )
    #expect(
      timed.records != [.init(.subscription, at: 2), .init(.value(7), at: 3), .init(.completion(.finished), at: 2)]
    )
    #expect(timed.records != [.init(.subscription), .init(.value(7)), .init(.completion(.finished))])

    let untimed = TestSubscriber<Int, Never>()
    [7].publisher.subscribe(untimed)
    expectEqual(untimed.records, [.init(.subscription), .init(.value(7)), .init(.completion(.finished))])
    #expect(TestSubscriber<Int, Never>.Record(.value(1), at: 4).description == "4: value(1)")
    #expect(TestSubscriber<Int, Never>.Record(.value(1)).time == nil)
  }

  @Test func recordsValuesAndCompletionWithUnlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.subscribe(subscriber)
    expectEqual(subscriber.values, [1, 2, 3])
    expectEqual(subscriber.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    #expect(subscriber.isFinished)
    #expect(subscriber.failure == nil)
    expectEqual(subscriber.requestedDemands, [.unlimited])
    #expect(subscriber.subscription == nil)
  }

  @Test func controlsDemand() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .none)
    [1, 2, 3, 4].publisher.subscribe(subscriber)
    expectEqual(subscriber.values, [1])
    subscriber.request(.max(2))
    expectEqual(subscriber.values, [1, 2, 3])
    #expect(!subscriber.isCompleted)
    subscriber.request(.max(5))
    #expect(subscriber.isFinished)
    expectEqual(subscriber.requestedDemands, [.max(1), .max(2), .max(5)])
    expectEqual(subscriber.totalDemand, .max(8))
  }

  @Test func demandPerValueAndHook() {
    let subscriber = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      demandPerValue: .max(1),
      onValue: { _, value in
        value == 2 ? .max(1) : .none
      }
    )
    (1...10).publisher.subscribe(subscriber)
    expectEqual(subscriber.values, Array(1...10))
    expectEqual(subscriber.requestedDemands.prefix(3), [.max(1), .max(1), .max(2)])
  }

  @Test func requestBeforeSubscriptionIsAddedToTheInitialRequest() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    subscriber.request(.max(2))
    [1, 2, 3, 4].publisher.subscribe(subscriber)
    expectEqual(subscriber.values, [1, 2, 3])
    expectEqual(subscriber.requestedDemands, [.max(3)])
  }

  @Test func recordsFailure() {
    struct Boom: Error, Equatable {}
    let subscriber = TestSubscriber<Int, Boom>()
    Fail(error: Boom()).subscribe(subscriber)
    expectEqual(subscriber.failure, Boom())
    #expect(!subscriber.isFinished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(Boom())"])
  }

  @Test func cancelCancelsTheSubscriptionOnceAndRecordsTheTime() {
    let scheduler = TestScheduler(now: 7)
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    upstream.subscribe(subscriber)
    scheduler.advance(by: 3)
    subscriber.cancel()
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
    #expect(subscriber.isCancelled)
    expectEqual(subscriber.subscriptionTime, 7)
    expectEqual(subscriber.cancellationTime, 10)
    subscriber.request(.max(1))
    expectEqual(upstream.requestedDemands, [.unlimited])
  }

  @Test func recordsTimesAndEventsAfterCompletion() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<String, Never>()
    let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
    upstream.subscribe(subscriber)
    scheduler.advance(by: 2)
    upstream.send("a")
    upstream.send(completion: .finished)
    upstream.send("late")
    upstream.send(completion: .finished)
    expectEqual(subscriber.records.map(\.time), [0, 2, 2, 2, 2])
    expectEqual(subscriber.completionCount, 2)
    expectEqual(subscriber.values, ["a", "late"])
    #expect(
      subscriber.description == "TestSubscriber[0: subscription, 2: value(a), 2: finished, 2: value(late), 2: finished]"
    )
  }

  @Test func secondSubscriptionIsRecordedAndCancelled() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.subscribe(subscriber)
    let extra = TestSubscription()
    upstream.send(subscription: extra)
    #expect(extra.isCancelled)
    #expect(extra.requestedDemands.isEmpty)
    expectEqual(subscriber.subscriptionCount, 2)
    expectEqual(upstream.cancelCount, 0)
  }

  @Test func hooksCanReenter() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { subscriber, value in
        if value == 1 { subscriber.request(.max(1)) }
        if value == 2 { subscriber.cancel() }
        return .none
      }
    )
    upstream.subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
    #expect(upstream.isCancelled)
  }

  @Test func cancelInsideOnSubscriptionSkipsTheInitialRequest() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(onSubscription: { subscriber, _ in subscriber.cancel() })
    upstream.subscribe(subscriber)
    #expect(upstream.requestedDemands.isEmpty)
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func completionsKeepsEveryCompletionInOrder() {
    let upstream = TestPublisher<Int, MarbleError>()
    let subscriber = TestSubscriber<Int, MarbleError>()
    #expect(subscriber.completions.isEmpty)
    upstream.subscribe(subscriber)
    upstream.send(completion: .failure(MarbleError()))
    upstream.send(1)
    upstream.send(completion: .finished)
    expectEqual(subscriber.completions, [.failure(MarbleError()), .finished])
    expectEqual(subscriber.completion, .failure(MarbleError()))
    expectEqual(subscriber.completionCount, 2)
  }

  @Test func overlappingDeliveriesCountsEventsThatArriveDuringAnother() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(onValue: { _, value in
      if value == 1 { upstream.send(2) }
      if value == 3 { upstream.send(completion: .finished) }
      return .none
    })
    upstream.subscribe(subscriber)
    expectEqual(subscriber.overlappingDeliveries, 0)
    upstream.send(1)
    expectEqual(subscriber.overlappingDeliveries, 1)
    upstream.send(3)
    expectEqual(subscriber.overlappingDeliveries, 2)
    upstream.send(4)
    upstream.send(completion: .finished)
    expectEqual(subscriber.values, [1, 2, 3, 4])
    expectEqual(subscriber.overlappingDeliveries, 2)
  }

  @Test func deliveriesOneAfterAnotherDoNotOverlap() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    (1...100).publisher.subscribe(subscriber)
    expectEqual(subscriber.values.count, 100)
    expectEqual(subscriber.overlappingDeliveries, 0)
  }

  @Test func hooksSetAfterSubscribingRunFromTheNextEvent() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _, _ in .max(5) })
    upstream.subscribe(subscriber)
    expectEqual(upstream.send(1), .max(5))
    var completions: [Subscribers.Completion<Never>] = []
    subscriber.onValue = { subscriber, value in
      if value == 3 { subscriber.cancel() }
      return .max(1)
    }
    subscriber.onCompletion = { _, completion in completions.append(completion) }
    expectEqual(upstream.send(2), .max(1))
    expectEqual(upstream.send(3), .max(1))
    expectEqual(subscriber.requestedDemands, [.max(1), .max(5), .max(1)])
    #expect(upstream.isCancelled)
    upstream.send(completion: .finished)
    expectEqual(completions, [.finished])
    subscriber.onValue = nil
    expectEqual(upstream.send(4), .none)
  }

  @Test func onSubscriptionSetBeforeSubscribingRuns() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    subscriber.onSubscription = { _, subscription in subscription.request(.max(2)) }
    [1, 2, 3].publisher.subscribe(subscriber)
    expectEqual(subscriber.values, [1, 2])
    #expect(subscriber.onSubscription != nil)
  }
}
