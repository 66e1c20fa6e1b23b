import RillCore
import RillTesting
import Testing

@Suite struct DropTests {
  @Test func omitsTheFirstElements() {
    #expect(
      transformRun({ $0.dropFirst(2) }, [1, 2, 3, 4]) == ["subscription", "value(3)", "value(4)", "finished"]
    )
    #expect(transformRun({ $0.dropFirst() }, [1, 2]) == ["subscription", "value(2)", "finished"])
    #expect(
      transformRun({ $0.dropFirst(5) }, [1], then: .failure(.upstream)) == ["subscription", "failure(upstream)"]
    )
  }

  @Test func requestsTheDroppedElementsWithTheFirstDemand() {
    let (upstream, subscriber) = transformSubscribe(
      { $0.dropFirst(2) },
      initialDemand: .max(3),
      demandPerValue: .max(1)
    )
    #expect(upstream.requestedDemands == [.max(5)])
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .none)
    #expect(upstream.send(3) == .max(1))
    subscriber.request(.max(2))
    #expect(upstream.requestedDemands == [.max(5), .max(2)])
  }

  @Test func requestsTheDroppedElementsEvenWithoutDemand() {
    let (upstream, subscriber) = transformSubscribe({ $0.dropFirst(2) }, initialDemand: .none)
    #expect(upstream.requestedDemands == [.max(2)])
    upstream.send(1)
    upstream.send(2)
    #expect(subscriber.eventDescriptions == ["subscription"])
  }

  @Test func downstreamGetsTheSubscriptionBeforeUpstreamSubscribes() {
    var order: [String] = []
    let upstream = Deferred { () -> TransformUpstream in
      order.append("upstream")
      return TransformUpstream()
    }
    let subscriber = TestSubscriber<Int, TransformTestError>(
      initialDemand: .max(1),
      onSubscription: { _, _ in order.append("downstream") }
    )
    upstream.dropFirst().subscribe(subscriber)
    #expect(order == ["downstream", "upstream"])
  }

  @Test func cancelBeforeUpstreamSubscribesCancelsItsSubscription() {
    let upstream = TransformUpstream()
    let subscriber = TestSubscriber<Int, TransformTestError>(
      initialDemand: .max(1),
      onSubscription: { _, subscription in subscription.cancel() }
    )
    upstream.dropFirst().subscribe(subscriber)
    #expect(upstream.isCancelled)
    #expect(upstream.requestedDemands == [])
  }

  @Test func isEquatable() {
    let publisher = Publishers.Drop(upstream: Just(1), count: 3)
    #expect(publisher.count == 3)
    #expect(publisher == Publishers.Drop(upstream: Just(1), count: 3))
    #expect(publisher != Publishers.Drop(upstream: Just(1), count: 1))
    #expect(Empty<Int, Never>().dropFirst().count == 1)
  }

  @Test func contract() {
    transformContract { $0.dropFirst() }
  }
}
