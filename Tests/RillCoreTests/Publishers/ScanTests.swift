import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ScanTests {
  private static func add(_ sum: Int, _ value: Int) throws -> Int {
    if value == 3 { throw TransformTestError.thrown }
    return sum + value
  }

  @Test func accumulatesAndFinishes() {
    #expect(
      transformRun({ $0.tryScan(10, Self.add) }, [1, 2])
        == ["subscription", "value(11)", "value(13)", "finished"]
    )
    #expect(
      transformRun({ $0.tryScan(10, Self.add) }, [1], then: .failure(.upstream))
        == ["subscription", "value(11)", "failure(upstream)"]
    )
  }

  /// As in Combine, elements that upstream still sends after the failure go on being scanned and passed on, but a
  /// second throw and upstream's completions are not passed on.
  @Test func throwingCancelsUpstreamAndFails() {
    let (upstream, subscriber) = transformSubscribe { $0.tryScan(0, Self.add) }
    upstream.send(1)
    upstream.send(3)
    upstream.send(4)
    upstream.send(3)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "failure(thrown)", "value(5)"])
    expectEqual(upstream.cancelCount, 1)
  }

  /// As in Combine, elements after a completion or a cancel are scanned and passed on; completions are not.
  @Test func elementsAfterTheEndStillArriveButCompletionsDoNot() {
    let (finished, afterFinish) = transformSubscribe { $0.tryScan(0, Self.add) }
    finished.send(completion: .finished)
    finished.send(1)
    finished.send(completion: .failure(.upstream))
    expectEqual(afterFinish.eventDescriptions, ["subscription", "finished", "value(1)"])

    let (cancelled, afterCancel) = transformSubscribe { $0.tryScan(0, Self.add) }
    afterCancel.cancel()
    cancelled.send(1)
    cancelled.send(2)
    cancelled.send(completion: .finished)
    expectEqual(afterCancel.eventDescriptions, ["subscription", "value(1)", "value(3)"])
    expectEqual(cancelled.cancelCount, 1)
  }

  @Test func eachSubscriptionStartsFromTheInitialResult() {
    let upstream = TransformUpstream()
    let scan = upstream.tryScan(0, Self.add)
    expectEqual(scan.initialResult, 0)
    let first = TestSubscriber<Int, any Error>()
    scan.subscribe(first)
    upstream.send(1)
    let second = TestSubscriber<Int, any Error>()
    scan.subscribe(second)
    upstream.send(2)
    expectEqual(first.values, [1, 3])
    expectEqual(second.values, [2])
  }

  @Test func forwardsDemandExactly() {
    let (upstream, subscriber) = transformSubscribe(
      { $0.tryScan(0, Self.add) },
      initialDemand: .max(2),
      demandPerValue: .max(1)
    )
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(1))
    subscriber.request(.max(7))
    expectEqual(upstream.requestedDemands, [.max(2), .max(7)])
  }

  @Test func scanPassesTheFailureAndForwardsDemandAndCancelExactly() {
    #expect(
      transformRun({ $0.scan(10, +) }, [1, 2], then: .failure(.upstream))
        == ["subscription", "value(11)", "value(13)", "failure(upstream)"]
    )
    let (upstream, subscriber) = transformSubscribe({ $0.scan(0, +) }, initialDemand: .max(2), demandPerValue: .max(1))
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(1))
    subscriber.request(.max(7))
    expectEqual(upstream.requestedDemands, [.max(2), .max(7)])
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
  }

  /// The subscriber and what the closure captures are freed once the stream ends and upstream lets go.
  @Test func scanReleasesTheSubscriberAndTheClosureAfterCompletionAndCancel() {
    expectTransformReleasesItsClosure(
      { upstream, captured in upstream.scan(0) { $0 + $1 * captured.value } },
      captured: 2,
      sending: [1, 2],
      receives: [2, 6]
    )
  }

  @Test func scanContract() {
    transformContract({ $0.scan(0, +) }, ownsSubscription: false)
  }

  @Test func contract() {
    transformContract({ $0.tryScan(0, Self.add) }, isSilentAfterEnd: false)
  }

  @Test func docMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryScan(0, Self.add) } == "-1-3-^")
  }
}
