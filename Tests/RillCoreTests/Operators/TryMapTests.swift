import RillCore
import RillTesting
import Testing

@Suite struct TryMapTests {
  private func checked(_ value: Int) throws -> Int {
    if value == 3 { throw TransformTestError.thrown }
    return value * 10
  }

  @Test func mapsValuesAndFinishes() {
    #expect(
      transformRun({ $0.tryMap { $0 * 10 } }, [1, 2])
        == ["subscription", "value(10)", "value(20)", "finished"]
    )
  }

  @Test func forwardsUpstreamFailure() {
    #expect(
      transformRun({ $0.tryMap { $0 } }, [1], then: .failure(.upstream))
        == ["subscription", "value(1)", "failure(upstream)"]
    )
  }

  @Test func throwingCancelsUpstreamAndFailsWithTheError() {
    let (upstream, subscriber) = transformSubscribe { $0.tryMap(checked) }
    upstream.send(1)
    upstream.send(3)
    upstream.send(4)
    #expect(subscriber.eventDescriptions == ["subscription", "value(10)", "failure(thrown)"])
    #expect(subscriber.failure as? TransformTestError == .thrown)
    #expect(upstream.cancelCount == 1)
  }

  @Test func forwardsDemandExactly() {
    let (upstream, subscriber) = transformSubscribe(
      { $0.tryMap { $0 } },
      initialDemand: .max(2),
      demandPerValue: .max(3)
    )
    #expect(upstream.requestedDemands == [.max(2)])
    #expect(upstream.send(1) == .max(3))
    subscriber.request(.max(5))
    #expect(upstream.requestedDemands == [.max(2), .max(5)])
  }

  @Test func fusesWithMap() {
    let upstream = TestPublisher<Int, TransformTestError>()
    let fused: Publishers.TryMap<TestPublisher<Int, TransformTestError>, String> = upstream.map { $0 + 1 }
      .tryMap { $0 * 2 }.map { "\($0)" }.tryMap { $0 + "!" }
    let subscriber = TestSubscriber<String, any Error>()
    fused.subscribe(subscriber)
    upstream.send(1)
    #expect(subscriber.values == ["4!"])
  }

  @Test func contract() {
    transformContract({ $0.tryMap { $0 } }, elements: [1, 2, 3])
  }

  @Test func docMarble() {
    let checked = { (value: Int) throws -> Int in
      if value == 3 { throw TransformTestError.thrown }
      return value
    }
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryMap(checked) } == "-1-2-^")
  }
}
