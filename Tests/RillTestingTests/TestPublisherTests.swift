import RillTestSupport
import RillTesting
import Testing

@Suite struct TestPublisherTests {
  @Test func recordsDemandAndCancellationThroughAnOperator() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.map { $0 * 10 }.subscribe(subscriber)
    expectEqual(upstream.subscriberCount, 1)
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.pendingDemand, .max(2))
    upstream.send(1)
    expectEqual(upstream.pendingDemand, .max(1))
    subscriber.cancel()
    #expect(upstream.isCancelled)
    expectEqual(upstream.subscriptions.first?.isCancelled, true)
    expectEqual(subscriber.values, [10])
  }

  @Test func sendReturnsTheDemandSubscribersReturn() {
    let upstream = TestPublisher<Int, Never>()
    let first = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
    let second = TestSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(1))
    upstream.subscribe(first)
    upstream.subscribe(second)
    expectEqual(upstream.send(5), .max(3))
    expectEqual(upstream.totalDemand, .max(4))
    expectEqual(first.values, [5])
    expectEqual(second.values, [5])
  }

  @Test func sendsRegardlessOfDemand() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .finished)
    expectEqual(subscriber.values, [1])
    #expect(subscriber.isFinished)
    expectEqual(upstream.pendingDemand, .none)
  }

  @Test func onRequestHookCanSendSynchronously() {
    let upstream = TestPublisher<Int, Never>(onRequest: { publisher, demand in
      for value in 0..<(demand.max ?? 3) { publisher.send(value) }
    })
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .none)
    upstream.subscribe(subscriber)
    expectEqual(subscriber.values, [0, 1])
  }

  @Test func releasesNothingUntilItIsReleased() {
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    weak var weakPublisher: TestPublisher<Int, Never>?
    do {
      let upstream = TestPublisher<Int, Never>()
      let subscriber = TestSubscriber<Int, Never>()
      upstream.subscribe(subscriber)
      weakSubscriber = subscriber
      weakPublisher = upstream
      subscriber.cancel()
    }
    #expect(weakSubscriber == nil)
    #expect(weakPublisher == nil)
  }
}

@Suite struct TestPublisherReleaseTests {
  @Test func releaseSubscribersFreesThePipelineWhileThePublisherLives() {
    let upstream = TestPublisher<Int, Never>()
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    do {
      let subscriber = TestSubscriber<Int, Never>()
      upstream.map { $0 + 1 }.subscribe(subscriber)
      weakSubscriber = subscriber
      upstream.send(1)
      upstream.send(completion: .finished)
    }
    #expect(weakSubscriber != nil)
    upstream.releaseSubscribers()
    #expect(weakSubscriber == nil)
    expectEqual(upstream.subscriberCount, 1)
    #expect(upstream.subscribers.isEmpty)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(2)
  }

  @Test func aSubscriberThatKeepsItsSubscriptionIsACycleOnceThePublisherIsGone() {
    weak var weakHolder: SubscriptionHolder?
    do {
      let upstream = TestPublisher<Int, Never>()
      let holder = SubscriptionHolder()
      upstream.subscribe(holder)
      weakHolder = holder
      holder.subscription?.cancel()
    }
    // The holder keeps the subscription, which keeps the holder.
    #expect(weakHolder != nil)
    weakHolder?.subscription = nil
    #expect(weakHolder == nil)
  }

  @Test func releaseSubscribersAlsoReleasesThemFromTheirSubscriptions() {
    let upstream = TestPublisher<Int, Never>()
    weak var weakHolder: SubscriptionHolder?
    do {
      let holder = SubscriptionHolder()
      upstream.subscribe(holder)
      weakHolder = holder
    }
    upstream.releaseSubscribers()
    #expect(weakHolder == nil)
  }
}

/// A subscriber that (wrongly) keeps its subscription after cancelling.
private final class SubscriptionHolder: Subscriber, @unchecked Sendable {
  var subscription: (any Subscription)?

  func receive(subscription: any Subscription) { self.subscription = subscription }

  func receive(_ input: Int) -> Subscribers.Demand { .none }

  func receive(completion: Subscribers.Completion<Never>) {}
}
