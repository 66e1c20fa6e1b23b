import RillCore
import RillTesting
import Testing

@Suite struct DropUntilOutputTests {
  private func subscribe(
    initialDemand: Subscribers.Demand = .unlimited
  ) -> (TransformUpstream, TransformUpstream, TestSubscriber<Int, TransformTestError>) {
    let upstream = TransformUpstream()
    let other = TransformUpstream()
    let subscriber = TestSubscriber<Int, TransformTestError>(initialDemand: initialDemand)
    upstream.drop(untilOutputFrom: other).subscribe(subscriber)
    return (upstream, other, subscriber)
  }

  @Test func dropsUntilTheOtherPublisherEmits() {
    let (upstream, other, subscriber) = subscribe()
    upstream.send(1)
    other.send(0)
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(subscriber.eventDescriptions == ["subscription", "value(2)", "finished"])
    #expect(other.requestedDemands == [.max(1)])
    #expect(other.isCancelled)
  }

  @Test func upstreamFailurePassesAndCancelsTheOther() {
    let (upstream, other, subscriber) = subscribe()
    upstream.send(completion: .failure(.upstream))
    #expect(subscriber.eventDescriptions == ["subscription", "failure(upstream)"])
    #expect(other.isCancelled)
  }

  @Test func otherCompletingFirstEndsTheStream() {
    let (upstream, other, subscriber) = subscribe()
    other.send(completion: .failure(.thrown))
    upstream.send(1)
    #expect(subscriber.eventDescriptions == ["subscription", "failure(thrown)"])
    #expect(upstream.isCancelled)
    let (upstream2, other2, subscriber2) = subscribe()
    other2.send(completion: .finished)
    #expect(subscriber2.eventDescriptions == ["subscription", "finished"])
    #expect(upstream2.isCancelled)
  }

  @Test func otherCompletingAfterTheTriggerChangesNothing() {
    let (upstream, other, subscriber) = subscribe()
    other.send(0)
    other.send(completion: .failure(.thrown))
    upstream.send(1)
    #expect(subscriber.eventDescriptions == ["subscription", "value(1)"])
  }

  @Test func droppedElementsUseUpDemand() {
    let (upstream, other, subscriber) = subscribe(initialDemand: .max(2))
    #expect(upstream.requestedDemands == [.max(2)])
    #expect(upstream.send(1) == .none)
    other.send(0)
    upstream.send(2)
    subscriber.request(.max(3))
    #expect(upstream.requestedDemands == [.max(2), .max(3)])
  }

  @Test func subscribesToTheOtherPublisherFirst() {
    var order: [String] = []
    let upstream = Deferred { () -> TransformUpstream in
      order.append("upstream")
      return TransformUpstream()
    }
    let other = Deferred { () -> TransformUpstream in
      order.append("other")
      return TransformUpstream()
    }
    upstream.drop(untilOutputFrom: other).subscribe(TestSubscriber<Int, TransformTestError>())
    #expect(order == ["other", "upstream"])
  }

  @Test func cancelCancelsBoth() {
    let (upstream, other, subscriber) = subscribe()
    subscriber.cancel()
    #expect(upstream.isCancelled && other.isCancelled)
    other.send(0)
    upstream.send(1)
    #expect(subscriber.eventDescriptions == ["subscription"])
  }

  /// Combine accepts a request for `.none`, here made before the upstream has subscribed and added to what it is
  /// asked for once it does.
  @Test func requestForNoneBeforeTheUpstreamSubscribesIsAccepted() {
    let upstream = HeldSubscriberUpstream<Int, TransformTestError>()
    let subscriber = TestSubscriber<Int, TransformTestError>(
      initialDemand: .none,
      onSubscription: { _, subscription in
        subscription.request(.max(10))
        subscription.request(.max(4))
        subscription.request(.none)
      }
    )
    upstream.drop(untilOutputFrom: Empty<Int, TransformTestError>(completeImmediately: false)).subscribe(subscriber)
    let late = CombiningTestSubscription()
    upstream.sendSubscription(late)
    #expect(late.requests == [.max(14)])
    #expect(subscriber.eventDescriptions == ["subscription"])
  }

  @Test func isEquatable() {
    let publisher = Publishers.DropUntilOutput(upstream: Just(1), other: Just(2))
    #expect(publisher == Publishers.DropUntilOutput(upstream: Just(1), other: Just(2)))
    #expect(publisher != Publishers.DropUntilOutput(upstream: Just(1), other: Just(3)))
  }

  @Test func contract() {
    transformContract { $0.drop(untilOutputFrom: Just(0).setFailureType(to: TransformTestError.self)) }
  }

  @Test func memoryWithAPendingOther() {
    weak var weakSubscriber: TestSubscriber<Int, TransformTestError>?
    do {
      let (upstream, _, subscriber) = subscribe()
      weakSubscriber = subscriber
      upstream.send(completion: .finished)
    }
    #expect(weakSubscriber == nil)
  }

  @Test func docMarble() {
    let diagram = TestScheduler.marbles("-1-2-3-4-|", "----x") {
      (upstream: AnyPublisher<Int, MarbleError>, other: AnyPublisher<String, MarbleError>) in
      upstream.drop(untilOutputFrom: other)
    }
    #expect(diagram == "-----3-4-|")
  }
}
