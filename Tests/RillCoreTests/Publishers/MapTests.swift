import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct MapTests {
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

  /// As in Combine, elements that upstream still sends after the failure go through the closure to downstream.
  @Test func throwingCancelsUpstreamAndFailsWithTheError() {
    let (upstream, subscriber) = transformSubscribe { $0.tryMap(checked) }
    upstream.send(1)
    upstream.send(3)
    upstream.send(4)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(10)", "failure(thrown)", "value(40)"])
    expectEqual(upstream.cancelCount, 1)
  }

  /// As in Combine, each throw fails downstream, also after an earlier throw ended the subscription, while upstream's
  /// own completions after the end are not passed on and upstream is cancelled once.
  @Test func everyThrowFailsDownstreamAndUpstreamCompletionsAfterTheEndAreIgnored() {
    let (upstream, subscriber) = transformSubscribe { $0.tryMap(checked) }
    upstream.send(3)
    upstream.send(completion: .finished)
    upstream.send(3)
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(thrown)", "failure(thrown)"])
    expectEqual(upstream.cancelCount, 1)
  }

  /// As in Combine, a cancel silences upstream's completions but not its elements.
  @Test func elementsAfterACancelStillArriveButCompletionsDoNot() {
    let (upstream, subscriber) = transformSubscribe { $0.tryMap(checked) }
    subscriber.cancel()
    upstream.send(1)
    upstream.send(completion: .finished)
    upstream.send(2)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(10)", "value(20)"])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func forwardsDemandExactly() {
    let (upstream, subscriber) = transformSubscribe(
      { $0.tryMap { $0 } },
      initialDemand: .max(2),
      demandPerValue: .max(3)
    )
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(3))
    subscriber.request(.max(5))
    expectEqual(upstream.requestedDemands, [.max(2), .max(5)])
  }

  @Test func fusesWithMap() {
    let upstream = TestPublisher<Int, TransformTestError>()
    let fused: Publishers.TryMap<TestPublisher<Int, TransformTestError>, String> = upstream.map { $0 + 1 }
      .tryMap { $0 * 2 }.map { "\($0)" }.tryMap { $0 + "!" }
    let subscriber = TestSubscriber<String, any Error>()
    fused.subscribe(subscriber)
    upstream.send(1)
    expectEqual(subscriber.values, ["4!"])
  }

  @Test func mapPassesTheFailureAndForwardsDemandAndCancelExactly() {
    #expect(
      transformRun({ $0.map { $0 * 10 } }, [1], then: .failure(.upstream))
        == ["subscription", "value(10)", "failure(upstream)"]
    )
    let (upstream, subscriber) = transformSubscribe(
      { $0.map { $0 * 10 } },
      initialDemand: .max(2),
      demandPerValue: .max(3)
    )
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(3))
    subscriber.request(.max(5))
    expectEqual(upstream.requestedDemands, [.max(2), .max(5)])
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
  }

  /// The subscriber and what the transform captures are freed once the stream ends and upstream lets go.
  @Test func mapReleasesTheSubscriberAndTheTransformAfterCompletionAndCancel() {
    expectTransformReleasesItsClosure(
      { upstream, captured in upstream.map { $0 + captured.value } },
      captured: 100,
      sending: [1],
      receives: [101]
    )
  }

  @Test func mapContract() {
    transformContract({ $0.map { $0 * 10 } }, ownsSubscription: false)
  }

  @Test func contract() {
    transformContract({ $0.tryMap { $0 } }, elements: [1, 2, 3], isSilentAfterEnd: false)
  }

  @Test func docMarble() {
    let checked = { (value: Int) throws -> Int in
      if value == 3 { throw TransformTestError.thrown }
      return value
    }
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryMap(checked) } == "-1-2-^")
  }
}
