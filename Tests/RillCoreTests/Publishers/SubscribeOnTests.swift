import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct SubscribeOnTests {
  @Test func subscribeRequestAndCancelAreScheduled() {
    let scheduler = TimeOpsOptionsScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.subscribe(on: scheduler, options: 3).subscribe(subscriber)
    #expect(subscriber.subscription == nil)
    #expect(upstream.requestedDemands.isEmpty)
    scheduler.base.advance()
    #expect(subscriber.subscription != nil)
    expectEqual(upstream.requestedDemands, [.max(2)])
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 0)
    scheduler.base.advance()
    expectEqual(upstream.cancelCount, 1)
    expectEqual(scheduler.log, ["now options 3", "now options 3", "now options 3"])
  }

  @Test func valuesAndCompletionPassThrough() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<Int, TimeOpsError>(demandPerValue: .max(1))
    upstream.subscribe(on: scheduler).subscribe(subscriber)
    scheduler.advance()
    expectEqual(upstream.send(1), .max(1))
    upstream.send(completion: .failure(.boom))
    upstream.send(2)
    expectEqual(subscriber.stampedEvents, ["1", "failure"])
  }

  @Test func finishedAndSilenceAfterCancel() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(subscriber.stampedEvents, ["1"])
    expectEqual(upstream.cancelCount, 1)

    let sequence = TestSubscriber<Int, Never>()
    [1, 2].publisher.subscribe(on: ImmediateScheduler.shared).subscribe(sequence)
    expectEqual(sequence.stampedEvents, ["1", "2", "finished"])
  }

  /// Combine hands a request for `.none` to the scheduler and upstream as it is, and a cancel before the
  /// upstream's subscription arrives does nothing.
  @Test func requestForNoneAndCancelBeforeTheUpstreamSubscribes() throws {
    let upstream = SubscriberHolder<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
    try #require(upstream.subscriberAsSubscription).cancel()
    let subscription = TestSubscription()
    upstream.send(subscription: subscription)
    subscriber.subscription?.request(.none)
    expectEqual(subscription.requestedDemands, [.none])
    expectEqual(subscription.cancelCount, 0)
    let description = subscriber.subscription.map { String(describing: $0) }
    expectEqual(description, "SubscribeOn")
    #expect(subscriber.subscription.map { Mirror(reflecting: $0).children.count } == 0)
  }
}
