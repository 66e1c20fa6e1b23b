import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct TimeoutTests {
  @Test func finishesWhenUpstreamIsSilentTooLong() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    scheduler.advance(by: 3)
    upstream.send(1)
    scheduler.advance(by: 4)
    upstream.send(2)
    scheduler.advance(by: 4)
    expectEqual(subscriber.stampedEvents, ["1@3", "2@7"])
    scheduler.advance(by: 1)
    expectEqual(subscriber.stampedEvents, ["1@3", "2@7", "finished@12"])
    expectEqual(upstream.cancelCount, 1)
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func customErrorFails() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<Int, TimeOpsError>(scheduler: scheduler)
    upstream.timeout(5, scheduler: scheduler, customError: { .timedOut }).subscribe(subscriber)
    scheduler.advance(by: 10)
    expectEqual(subscriber.stampedEvents, ["failure@5"])
    expectEqual(subscriber.completion, .failure(.timedOut))
  }

  @Test func upstreamCompletionBeforeDeadline() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<Int, TimeOpsError>(initialDemand: .max(1), demandPerValue: .max(2))
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    expectEqual(upstream.requestedDemands, [.max(1)])
    upstream.send(1)
    scheduler.advance(by: 1)
    upstream.send(completion: .failure(.boom))
    scheduler.advance(by: 20)
    expectEqual(subscriber.stampedEvents, ["1", "failure"])
    expectEqual(upstream.requestedDemands, [.max(1), .max(2)])
    expectEqual(upstream.cancelCount, 0)
  }

  @Test func upstreamFinishingBeforeDeadlineFinishesOnce() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    scheduler.advance(by: 2)
    upstream.send(completion: .finished)
    scheduler.advance(by: 20)
    expectEqual(subscriber.stampedEvents, ["1@0", "finished@2"])
    expectEqual(upstream.cancelCount, 0)
  }

  @Test func cancelStopsTheClock() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
    expectEqual(scheduler.scheduledActionCount, 0)
    scheduler.advance(by: 20)
    #expect(subscriber.stampedEvents.isEmpty)
  }

  /// Found by `TimeOperatorStressTests`: a timer that fired at once delivered the completion before (or, on
  /// another thread, during) the downstream's `receive(subscription:)`.
  @Test func subscriptionReachesTheDownstreamBeforeATimeoutThatFiresAtOnce() {
    let upstream = TestPublisher<Int, Never>()
    var events: [String] = []
    upstream.timeout(.zero, scheduler: ImmediateScheduler.shared)
      .subscribe(
        AnySubscriber(
          receiveSubscription: { _ in events.append("subscription") },
          receiveValue: { _ in .none },
          receiveCompletion: { _ in events.append("finished") }
        )
      )
    expectEqual(events, ["subscription", "finished"])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func reentrantCancelFromReceive() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(onValue: { subscriber, _ in
      subscriber.cancel()
      return .none
    })
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    scheduler.advance(by: 20)
    expectEqual(subscriber.stampedEvents, ["1"])
    expectEqual(upstream.cancelCount, 1)
  }

  /// Combine forwards a first request for `.none` upstream, and it restarts the clock like any first request.
  @Test func firstRequestForNoneGoesUpstreamAndRestartsTheClock() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler, initialDemand: .none)
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    scheduler.advance(by: 3)
    subscriber.subscription?.request(.none)
    subscriber.subscription?.request(.max(2))
    expectEqual(upstream.requestedDemands, [.none, .max(2)])
    scheduler.advance(by: 4)
    #expect(subscriber.stampedEvents.isEmpty)
    scheduler.advance(by: 1)
    expectEqual(subscriber.stampedEvents, ["finished@8"])
  }

  /// A request made before the upstream subscription arrives goes nowhere, so the first request after it still
  /// restarts the clock.
  @Test func requestBeforeUpstreamSubscribesIsNotTheFirstRequest() throws {
    let scheduler = TestScheduler()
    let upstream = SubscriberHolder<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler, initialDemand: .none)
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    try #require(upstream.subscriberAsSubscription).request(.max(1))
    let subscription = TestSubscription()
    upstream.send(subscription: subscription)
    scheduler.advance(by: 3)
    subscriber.subscription?.request(.max(1))
    expectEqual(subscription.requestedDemands, [.max(1)])
    scheduler.advance(by: 4)
    #expect(subscriber.stampedEvents.isEmpty)
    scheduler.advance(by: 1)
    expectEqual(subscriber.stampedEvents, ["finished@8"])
  }

  /// As in Combine, the link to the upstream lasts until its completion has been delivered: a cancel while the
  /// completion waits on the scheduler still reaches the upstream, and the completion is never delivered.
  @Test func cancelWhileTheCompletionIsScheduledCancelsTheUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    upstream.send(completion: .finished)
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
    scheduler.advance(by: 20)
    #expect(subscriber.stampedEvents.isEmpty)
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  /// As in Combine, a cancel before the upstream's subscription arrives does nothing: the subscription is then
  /// taken as usual, neither cancelled nor dropped.
  @Test func cancelBeforeTheUpstreamSubscribesDoesNothing() throws {
    let scheduler = TestScheduler()
    let upstream = SubscriberHolder<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    try #require(upstream.subscriberAsSubscription).cancel()
    let subscription = TestSubscription()
    upstream.send(subscription: subscription)
    expectEqual(subscription.cancelCount, 0)
    expectEqual(subscription.requestedDemands, [.unlimited])
    scheduler.advance(by: 5)
    expectEqual(subscriber.stampedEvents, ["finished"])
    expectEqual(subscription.cancelCount, 1)
  }

  /// As in Combine, the running clock holds the subscription: a pipeline nobody cancels lives until it times out.
  @Test func theRunningClockKeepsThePipelineAlive() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    do {
      let subscriber = TestSubscriber<Int, Never>()
      weakSubscriber = subscriber
      upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    }
    upstream.releaseSubscribers()
    #expect(weakSubscriber != nil)
    scheduler.advance(by: 5)
    #expect(weakSubscriber == nil)
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func mirrorHasNoChildren() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.timeout(5, scheduler: TestScheduler()).subscribe(subscriber)
    let subscription = subscriber.subscription
    #expect(subscription.map { String(describing: $0) } == "Timeout")
    #expect(subscription.map { Mirror(reflecting: $0).children.count } == 0)
  }
}
