import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct MeasureIntervalTests {
  @Test func measuresFromSubscriptionThenBetweenValues() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<String, Never>()
    let subscriber = TestSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>(
      initialDemand: .max(1),
      demandPerValue: .max(1)
    )
    upstream.measureInterval(using: scheduler).subscribe(subscriber)
    expectEqual(upstream.requestedDemands, [.max(1)])
    scheduler.advance(by: 5)
    // As in Combine, the demand the subscriber returns goes upstream as a request, not as the return value.
    expectEqual(upstream.send("a"), .none)
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
    scheduler.advance(by: 2)
    upstream.send("b")
    upstream.send(completion: .finished)
    upstream.send("c")
    expectEqual(subscriber.stampedEvents, ["5", "2", "finished"])
  }

  @Test func failureAndCancel() {
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<TestScheduler.SchedulerTimeType.Stride, TimeOpsError>()
    upstream.measureInterval(using: TestScheduler()).subscribe(subscriber)
    upstream.send(completion: .failure(.boom))
    expectEqual(subscriber.stampedEvents, ["failure"])

    let second = TestPublisher<Int, Never>()
    let cancelling = TestSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>(onValue: { subscriber, _ in
      subscriber.cancel()
      return .none
    })
    second.measureInterval(using: TestScheduler()).subscribe(cancelling)
    second.send(1)
    second.send(2)
    expectEqual(cancelling.stampedEvents, ["0"])
    expectEqual(second.cancelCount, 1)
  }

  /// As in Combine: a request for `.none` goes upstream, a cancel before the upstream's subscription arrives does
  /// nothing, a cancelled subscription reads no clock, and the mirror has no children.
  @Test func combinesEdgeCases() throws {
    let scheduler = TimeOpsOptionsScheduler(logsClockReads: true)
    let upstream = SubscriberHolder<Int, Never>()
    let subscriber = TestSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>(initialDemand: .none)
    upstream.measureInterval(using: scheduler).subscribe(subscriber)
    try #require(upstream.subscriberAsSubscription).cancel()
    let subscription = TestSubscription()
    upstream.send(subscription: subscription)
    expectEqual(subscription.cancelCount, 0)
    subscriber.subscription?.request(.none)
    expectEqual(subscription.requestedDemands, [.none])
    #expect(subscriber.subscription.map { Mirror(reflecting: $0).children.count } == 0)
    subscriber.cancel()
    expectEqual(subscription.cancelCount, 1)
    _ = upstream.send(1)
    expectEqual(scheduler.log, ["clock"])
  }
}
