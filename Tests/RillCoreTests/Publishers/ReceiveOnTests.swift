import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ReceiveOnTests {
  @Test func valuesAndCompletionWaitForTheScheduler() {
    let scheduler = TimeOpsOptionsScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler.base)
    upstream.receive(on: scheduler, options: 7).subscribe(subscriber)
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.send(1), .none)
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(subscriber.stampedEvents.isEmpty)
    expectEqual(scheduler.log, ["now options 7", "now options 7", "now options 7"])
    scheduler.base.advance()
    expectEqual(subscriber.stampedEvents, ["1@0", "2@0", "finished@0"])
  }

  @Test func failureIsScheduled() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<Int, TimeOpsError>()
    upstream.receive(on: scheduler).subscribe(subscriber)
    upstream.send(completion: .failure(.boom))
    upstream.send(3)
    scheduler.advance()
    expectEqual(subscriber.stampedEvents, ["failure"])
    expectEqual(subscriber.completion, .failure(.boom))
  }

  @Test func demandReturnedFromScheduledValueGoesUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(3))
    upstream.receive(on: scheduler).subscribe(subscriber)
    upstream.send(1)
    expectEqual(upstream.requestedDemands, [.max(2)])
    scheduler.advance()
    expectEqual(upstream.requestedDemands, [.max(2), .max(3)])
    subscriber.subscription?.request(.max(5))
    expectEqual(upstream.requestedDemands, [.max(2), .max(3), .max(5)])
  }

  @Test func cancelSilencesScheduledEventsAndCancelsUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.receive(on: scheduler).subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
    upstream.send(2)
    upstream.send(completion: .finished)
    scheduler.advance()
    #expect(subscriber.stampedEvents.isEmpty)
  }

  /// As in Combine, an upstream completion already scheduled when downstream cancels is still delivered, and the
  /// subscription keeps its subscriber until then; the values scheduled before it are not delivered.
  @Test func aCompletionScheduledBeforeACancelStillArrives() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    do {
      let subscriber = TestSubscriber<Int, Never>()
      weakSubscriber = subscriber
      upstream.receive(on: scheduler).subscribe(subscriber)
      upstream.send(1)
      upstream.send(completion: .finished)
      subscriber.cancel()
    }
    upstream.releaseSubscribers()
    expectEqual(upstream.cancelCount, 0)
    expectEqual(weakSubscriber?.stampedEvents.isEmpty, true)
    scheduler.advance()
    #expect(weakSubscriber == nil)

    let failing = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<Int, TimeOpsError>()
    failing.receive(on: scheduler).subscribe(subscriber)
    failing.send(1)
    failing.send(completion: .failure(.boom))
    subscriber.cancel()
    scheduler.advance()
    expectEqual(subscriber.stampedEvents, ["failure"])
    expectEqual(failing.cancelCount, 0)
  }

  @Test func reentrantCancelFromReceive() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(onValue: { subscriber, _ in
      subscriber.cancel()
      return .none
    })
    upstream.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    expectEqual(subscriber.values, [1])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func reentrantSendIsDeliveredAfterTheCurrentValue() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.receive(on: ImmediateScheduler.shared).sink { value in
      received.append(value)
      if value == 1 { subject.send(2) }
      received.append(-value)
    }
    subject.send(1)
    expectEqual(received, [1, -1, 2, -2])
    cancellable.cancel()
  }

  @Test func secondSubscriptionIsCancelled() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
    let extra = TestSubscription()
    upstream.send(subscription: extra)
    expectEqual(extra.cancelCount, 1)
  }

  @Test func pipelineIsFreedAfterCompletionAndAfterCancel() {
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    do {
      let subscriber = TestSubscriber<Int, Never>()
      weakSubscriber = subscriber
      upstream.receive(on: scheduler).subscribe(subscriber)
      upstream.send(completion: .finished)
      scheduler.advance()
    }
    upstream.releaseSubscribers()
    #expect(weakSubscriber == nil)

    let other = TestPublisher<Int, Never>()
    var cancellable: AnyCancellable?
    weak var weakOther: TestSubscription?
    do {
      let upstream = TestPublisher<Int, Never>()
      cancellable = upstream.receive(on: scheduler).sink { _ in }
      weakOther = upstream.subscriptions.first
    }
    cancellable?.cancel()
    cancellable = nil
    _ = other
    #expect(weakOther == nil || weakOther?.cancelCount == 1)
  }

  /// Combine forwards a request for `.none` upstream as it is.
  @Test func requestForNoneGoesUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.receive(on: scheduler).subscribe(subscriber)
    subscriber.subscription?.request(.max(4))
    subscriber.subscription?.request(.none)
    upstream.send(1)
    scheduler.advance()
    expectEqual(subscriber.values, [1])
    expectEqual(upstream.requestedDemands, [.max(4), .none])
  }

  /// As in Combine, the demand returned for a value delivered while the upstream's completion waits on the
  /// scheduler still goes upstream; a request from the subscriber then does not.
  @Test func demandReturnedBeforeTheScheduledCompletionGoesUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(4))
    upstream.receive(on: scheduler).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .finished)
    subscriber.subscription?.request(.max(2))
    scheduler.advance()
    expectEqual(subscriber.stampedEvents, ["1", "finished"])
    expectEqual(upstream.requestedDemands, [.max(1), .max(4)])
    expectEqual(upstream.cancelCount, 0)
  }

  /// As in Combine, a cancel before the upstream's subscription arrives does nothing: the subscription is then
  /// taken as usual, neither cancelled nor dropped.
  @Test func cancelBeforeTheUpstreamSubscribesDoesNothing() throws {
    let scheduler = TestScheduler()
    let upstream = SubscriberHolder<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.receive(on: scheduler).subscribe(subscriber)
    try #require(upstream.subscriberAsSubscription).cancel()
    let subscription = TestSubscription()
    upstream.send(subscription: subscription)
    expectEqual(subscription.cancelCount, 0)
    expectEqual(subscription.requestedDemands, [.unlimited])
    _ = upstream.send(1)
    scheduler.advance()
    expectEqual(subscriber.values, [1])
  }

  @Test func describesItselfAsReceiveOnWithAnEmptyMirror() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.receive(on: TestScheduler()).subscribe(subscriber)
    let subscription = subscriber.subscription
    #expect(subscription.map { String(describing: $0) } == "ReceiveOn")
    #expect(subscription.map { Mirror(reflecting: $0).children.count } == 0)
    expectEqual(
      (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String,
      "ReceiveOn"
    )
  }
}
