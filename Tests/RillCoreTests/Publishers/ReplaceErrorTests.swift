import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ReplaceErrorTests {
  @Test func replacesTheFailureWithTheElement() {
    #expect(
      transformRun({ $0.replaceError(with: 0) }, [1], then: .failure(.upstream))
        == ["subscription", "value(1)", "value(0)", "finished"]
    )
    #expect(transformRun({ $0.replaceError(with: 0) }, [1]) == ["subscription", "value(1)", "finished"])
  }

  @Test func forwardsDemandExactly() {
    let (upstream, subscriber) = transformSubscribe(
      { $0.replaceError(with: 0) },
      initialDemand: .max(2),
      demandPerValue: .max(1)
    )
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(1))
    subscriber.request(.max(3))
    expectEqual(upstream.requestedDemands, [.max(2), .max(3)])
  }

  @Test func theReplacementWaitsForDemand() {
    let (upstream, subscriber) = transformSubscribe({ $0.replaceError(with: 9) }, initialDemand: .max(1))
    upstream.send(1)
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)"])
    subscriber.request(.max(1))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "value(9)", "finished"])
    expectEqual(upstream.requestedDemands, [.max(1)])
  }

  @Test func isEquatable() {
    let upstream = Empty<Int, TransformTestError>()
    expectEqual(upstream.replaceError(with: 1), upstream.replaceError(with: 1))
    #expect(upstream.replaceError(with: 1) != upstream.replaceError(with: 2))
  }

  @Test func contract() {
    transformContract { $0.replaceError(with: 0) }
  }

  @Test func docMarble() {
    #expect(TestScheduler.marbles("-1-2-^") { $0.replaceError(with: 0) } == "-1-2-[0|]")
  }
}
