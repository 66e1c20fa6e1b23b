import RillCore
import RillTesting
import Testing

@Suite struct PrefixUntilOutputTests {
  private func subscribe(
    initialDemand: Subscribers.Demand = .unlimited
  ) -> (TransformUpstream, TestPublisher<String, Never>, TestSubscriber<Int, TransformTestError>) {
    let upstream = TransformUpstream()
    let other = TestPublisher<String, Never>()
    let subscriber = TestSubscriber<Int, TransformTestError>(initialDemand: initialDemand)
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    return (upstream, other, subscriber)
  }

  @Test func republishesUntilTheOtherPublisherEmits() {
    let (upstream, other, subscriber) = subscribe()
    upstream.send(1)
    other.send("stop")
    upstream.send(2)
    #expect(subscriber.eventDescriptions == ["subscription", "value(1)", "finished"])
    #expect(upstream.isCancelled)
    #expect(other.requestedDemands == [.max(1)])
    #expect(other.isCancelled)
  }

  /// Combine forwards a request for `.none` upstream as it is.
  @Test func requestForNoneGoesUpstream() throws {
    let (upstream, _, subscriber) = subscribe(initialDemand: .none)
    try #require(subscriber.subscription).request(.none)
    #expect(upstream.requestedDemands == [.none])
  }

  @Test func otherCompletingLetsUpstreamContinue() {
    let (upstream, other, subscriber) = subscribe()
    other.send(completion: .finished)
    upstream.send(1)
    upstream.send(completion: .failure(.upstream))
    #expect(subscriber.eventDescriptions == ["subscription", "value(1)", "failure(upstream)"])
    #expect(!upstream.isCancelled)
  }

  @Test func upstreamCompletionCancelsTheOther() {
    let (upstream, other, subscriber) = subscribe()
    upstream.send(completion: .finished)
    #expect(subscriber.eventDescriptions == ["subscription", "finished"])
    #expect(other.isCancelled)
  }

  @Test func forwardsDemandExactly() {
    let (upstream, _, subscriber) = subscribe(initialDemand: .max(2))
    #expect(upstream.requestedDemands == [.max(2)])
    subscriber.request(.max(3))
    #expect(upstream.requestedDemands == [.max(2), .max(3)])
  }

  @Test func anOtherPublisherThatEmitsAtOnceFinishesAtOnce() {
    let upstream = TransformUpstream()
    let subscriber = TestSubscriber<Int, TransformTestError>()
    upstream.prefix(untilOutputFrom: Just(())).subscribe(subscriber)
    upstream.send(1)
    #expect(subscriber.eventDescriptions == ["subscription", "finished"])
    #expect(upstream.isCancelled)
  }

  @Test func subscribesToTheOtherPublisherFirst() {
    var order: [String] = []
    let upstream = Deferred { () -> TransformUpstream in
      order.append("upstream")
      return TransformUpstream()
    }
    let other = Deferred { () -> TestPublisher<String, Never> in
      order.append("other")
      return TestPublisher()
    }
    upstream.prefix(untilOutputFrom: other).subscribe(TestSubscriber<Int, TransformTestError>())
    #expect(order == ["other", "upstream"])
  }

  @Test func cancelCancelsBoth() {
    let (upstream, other, subscriber) = subscribe()
    subscriber.cancel()
    #expect(upstream.isCancelled && other.isCancelled)
    other.send("late")
    upstream.send(1)
    #expect(subscriber.eventDescriptions == ["subscription"])
  }

  @Test func contract() {
    transformContract { $0.prefix(untilOutputFrom: Empty<Int, Never>()) }
  }

  @Test func memoryWithAPendingOther() {
    weak var weakSubscriber: TestSubscriber<Int, TransformTestError>?
    weak var weakSubscription: AnyObject?
    do {
      let (upstream, _, subscriber) = subscribe()
      weakSubscriber = subscriber
      weakSubscription = subscriber.subscription.map { $0 as AnyObject }
      subscriber.cancel()
      _ = upstream
    }
    #expect(weakSubscriber == nil)
    #expect(weakSubscription == nil)
  }

  @Test func docMarble() {
    let diagram = TestScheduler.marbles("-1-2-3-4-|", "------x") {
      (upstream: AnyPublisher<Int, MarbleError>, other: AnyPublisher<String, MarbleError>) in
      upstream.prefix(untilOutputFrom: other)
    }
    #expect(diagram == "-1-2-3|")
  }
}
