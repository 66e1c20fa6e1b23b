import RillCore
import RillTestSupport
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
    expectEqual(upstream.requestedDemands, [.max(5)])
    expectEqual(upstream.send(1), .none)
    expectEqual(upstream.send(2), .none)
    expectEqual(upstream.send(3), .max(1))
    subscriber.request(.max(2))
    expectEqual(upstream.requestedDemands, [.max(5), .max(2)])
  }

  @Test func requestsTheDroppedElementsEvenWithoutDemand() {
    let (upstream, subscriber) = transformSubscribe({ $0.dropFirst(2) }, initialDemand: .none)
    expectEqual(upstream.requestedDemands, [.max(2)])
    upstream.send(1)
    upstream.send(2)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
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
    expectEqual(order, ["downstream", "upstream"])
  }

  /// As in Combine, a cancel before the upstream subscription arrives has nothing to cancel and changes nothing: the
  /// subscription is taken and asked for the demand requested and the elements to drop.
  @Test func cancelBeforeUpstreamSubscribesDoesNothing() {
    let upstream = TransformUpstream()
    let subscriber = TestSubscriber<Int, TransformTestError>(
      initialDemand: .max(1),
      onSubscription: { _, subscription in subscription.cancel() }
    )
    upstream.dropFirst().subscribe(subscriber)
    #expect(!upstream.isCancelled)
    expectEqual(upstream.requestedDemands, [.max(2)])
  }

  /// As in Combine, every completion is passed on, and elements after the end are still counted and passed on.
  @Test func everythingAfterTheEndIsCountedAndPassedOn() {
    let (upstream, subscriber) = transformSubscribe({ $0.dropFirst(1) }, demandPerValue: .max(3))
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(.upstream))
    expectEqual(upstream.send(1), .none)
    expectEqual(upstream.send(2), .max(3))
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished", "failure(upstream)", "value(2)"])
    expectEqual(upstream.cancelCount, 0)
  }

  /// As in Combine, a completion or a cancel lets go of the upstream subscription, and one that comes later is taken
  /// and asked for the demand requested meanwhile and the elements still to drop.
  @Test func aSubscriptionAfterTheEndIsTakenUp() {
    let upstream = TestPublisher<Int, TransformTestError>()
    var subscription: (any Subscription)?
    let subscriber = TestSubscriber<Int, TransformTestError>(
      initialDemand: .none,
      demandPerValue: .max(3),
      onSubscription: { _, received in subscription = received }
    )
    upstream.dropFirst(3).subscribe(subscriber)
    expectEqual(upstream.requestedDemands, [.max(3)])
    upstream.send(completion: .finished)
    subscription?.cancel()
    expectEqual(upstream.cancelCount, 0)
    subscription?.request(.max(312))
    subscription?.request(.max(100))
    expectEqual(upstream.send(1), .none)
    expectEqual(upstream.send(2), .none)
    let second = TestSubscription()
    upstream.send(subscription: second)
    expectEqual(second.requestedDemands, [.max(413)])
    expectEqual(upstream.send(3), .none)
    expectEqual(upstream.send(4), .max(3))
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished", "value(4)"])
  }

  @Test func isEquatable() {
    let publisher = Publishers.Drop(upstream: Just(1), count: 3)
    expectEqual(publisher.count, 3)
    expectEqual(publisher, Publishers.Drop(upstream: Just(1), count: 3))
    #expect(publisher != Publishers.Drop(upstream: Just(1), count: 1))
    #expect(Empty<Int, Never>().dropFirst().count == 1)
  }

  @Test func contract() {
    transformContract({ $0.dropFirst() }, isSilentAfterEnd: false)
  }

  @Test func docMarble() {
    #expect(TestScheduler.marbles("-1-2-3-4-|") { $0.dropFirst(2) } == "-----3-4-|")
  }
}
