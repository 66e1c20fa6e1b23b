import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct DematerializeTests {
  private typealias Events = TestPublisher<Event<Int, ExtTestError>, Never>

  private func subscribe(
    initialDemand: Subscribers.Demand = .unlimited,
    demandPerValue: Subscribers.Demand = .none
  ) -> (Events, TestSubscriber<Int, ExtTestError>) {
    let upstream = Events()
    let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: initialDemand, demandPerValue: demandPerValue)
    upstream.dematerialize().subscribe(subscriber)
    return (upstream, subscriber)
  }

  @Test func docMarbles() {
    #expect(TestScheduler.marbles("-1-2-^") { $0.materialize().dematerialize() } == "-1-2-^")
    #expect(TestScheduler.marbles("-1-2-|") { $0.materialize().dematerialize() } == "-1-2-|")
  }

  @Test func eventsBecomeValuesAndACompletion() {
    let (upstream, subscriber) = subscribe()
    upstream.send(.value(1))
    upstream.send(.value(2))
    upstream.send(.failure(.upstream))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "value(2)", "failure(upstream)"])
    // The event that ends the stream cancels upstream; what follows is ignored.
    expectEqual(upstream.cancelCount, 1)
    upstream.send(.value(3))
    upstream.send(.finished)
    upstream.send(completion: .finished)
    #expect(subscriber.completionCount == 1 && subscriber.values == [1, 2])

    let (finishing, finished) = subscribe()
    finishing.send(.value(1))
    finishing.send(.finished)
    expectEqual(finished.eventDescriptions, ["subscription", "value(1)", "finished"])
    expectEqual(finishing.cancelCount, 1)
  }

  @Test func upstreamFinishingWithoutAnEventFinishes() {
    let (upstream, subscriber) = subscribe()
    upstream.send(.value(1))
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
    expectEqual(upstream.cancelCount, 0)
  }

  @Test func demandGoesStraightUpstream() {
    let (upstream, subscriber) = subscribe(initialDemand: .max(2), demandPerValue: .max(1))
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(.value(1)), .max(1))
    expectEqual(upstream.send(.finished), .none)
    subscriber.request(.max(3))
    expectEqual(upstream.requestedDemands, [.max(2)])
  }

  @Test func cancellationAndReentrancy() {
    let (upstream, subscriber) = subscribe()
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
    upstream.send(.value(1))
    upstream.send(.finished)
    expectEqual(subscriber.eventDescriptions, ["subscription"])

    let source = Events()
    let cancelling = TestSubscriber<Int, ExtTestError>(onValue: { subscriber, _ in
      subscriber.cancel()
      source.send(.value(9))
      return .none
    })
    source.dematerialize().subscribe(cancelling)
    source.send(.value(1))
    source.send(.failure(.upstream))
    expectEqual(cancelling.eventDescriptions, ["subscription", "value(1)"])
    expectEqual(source.cancelCount, 1)
  }

  @Test func memory() {
    weak var inner: AnyObject?
    for ending in [Event<Int, ExtTestError>.finished, .failure(.upstream)] {
      do {
        let (upstream, subscriber) = subscribe()
        inner = subscriber.subscription as AnyObject?
        upstream.send(ending)
        upstream.releaseSubscribers()
      }
      #expect(inner == nil)
    }
    do {
      let (upstream, subscriber) = subscribe()
      inner = subscriber.subscription as AnyObject?
      subscriber.cancel()
      upstream.releaseSubscribers()
    }
    #expect(inner == nil)
  }

  @Test func contract() {
    expectContract("dematerialize, failure") {
      [Event<Int, ExtTestError>.value(1), .value(2), .failure(.upstream), .value(3)].publisher.dematerialize()
    }
    expectContract("dematerialize, round trip") { [1, 2, 3].publisher.materialize().dematerialize() }
    expectContract("dematerialize, finished") {
      Record<Int, ExtTestError>(output: [1, 2], completion: .failure(.other)).materialize().dematerialize()
    }
  }

  @Test func publicSurface() {
    let dematerialized: Publishers.Dematerialize<Publishers.Materialize<Just<Int>>> = Just(1).materialize()
      .dematerialize()
    expectEqual(dematerialized.upstream.upstream, Just(1))
    let (_, subscriber) = subscribe()
    #expect(subscriber.subscription.map { String(describing: $0) } == "Dematerialize.Subscription<Int, ExtTestError>")
  }
}
