import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct FilterTests {
  private static func even(_ value: Int) throws -> Bool {
    if value == 5 { throw TransformTestError.thrown }
    return value.isMultiple(of: 2)
  }

  @Test func republishesMatchingElements() {
    #expect(
      transformRun({ $0.tryFilter(Self.even) }, [1, 2, 3, 4])
        == ["subscription", "value(2)", "value(4)", "finished"]
    )
    #expect(
      transformRun({ $0.tryFilter(Self.even) }, [2], then: .failure(.upstream))
        == ["subscription", "value(2)", "failure(upstream)"]
    )
  }

  @Test func droppedElementsAskUpstreamForOneMore() {
    let (upstream, _) = transformSubscribe({ $0.tryFilter(Self.even) }, initialDemand: .max(1), demandPerValue: .max(3))
    expectEqual(upstream.requestedDemands, [.max(1)])
    expectEqual(upstream.send(1), .max(1))
    expectEqual(upstream.send(2), .max(3))
  }

  @Test func throwingCancelsUpstreamAndFails() {
    let (upstream, subscriber) = transformSubscribe { $0.tryFilter(Self.even) }
    upstream.send(2)
    upstream.send(5)
    upstream.send(6)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(2)", "failure(thrown)"])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func fusions() {
    let upstream = TransformUpstream()
    let fused: Publishers.TryFilter<TransformUpstream> = upstream.filter { $0 > 1 }.tryFilter(Self.even)
      .filter { $0 < 8 }.tryFilter { $0 != 4 }
    #expect(
      transformRun(upstream, { _ in fused }, [1, 2, 4, 6, 8])
        == ["subscription", "value(2)", "value(6)", "finished"]
    )
  }

  @Test func filterPassesTheFailureAndAsksUpstreamForOneMoreForEachDroppedElement() {
    #expect(
      transformRun({ $0.filter { $0 > 1 } }, [1, 2], then: .failure(.upstream))
        == ["subscription", "value(2)", "failure(upstream)"]
    )
    let (upstream, subscriber) = transformSubscribe(
      { $0.filter { $0.isMultiple(of: 2) } },
      initialDemand: .max(1),
      demandPerValue: .max(3)
    )
    expectEqual(upstream.requestedDemands, [.max(1)])
    expectEqual(upstream.send(1), .max(1))
    expectEqual(upstream.send(2), .max(3))
    subscriber.request(.max(4))
    expectEqual(upstream.requestedDemands, [.max(1), .max(4)])
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
  }

  /// The subscriber and what the predicate captures are freed once the stream ends and upstream lets go.
  @Test func filterReleasesTheSubscriberAndThePredicateAfterCompletionAndCancel() {
    expectTransformReleasesItsClosure(
      { upstream, captured in upstream.filter { $0 > captured.value } },
      captured: 2,
      sending: [1, 5],
      receives: [5]
    )
  }

  @Test func filterContract() {
    transformContract({ $0.filter { $0 != 2 } }, ownsSubscription: false)
  }

  @Test func contract() {
    transformContract { $0.tryFilter(Self.even) }
  }

  @Test func docMarble() {
    let even = { (value: Int) throws -> Bool in
      if value == 3 { throw TransformTestError.thrown }
      return value.isMultiple(of: 2)
    }
    #expect(TestScheduler.marbles("-1-2-3-4-|") { $0.tryFilter(even) } == "---2-^")
  }
}
