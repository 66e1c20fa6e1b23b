import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ReplaceNilTests {
  private typealias Upstream = TestPublisher<Int?, TransformTestError>

  @Test func replacesNilWithTheElement() {
    let publisher: Publishers.Map<Upstream, Int> = Upstream().replaceNil(with: 0)
    _ = publisher
    #expect(
      transformRun(Upstream(), { $0.replaceNil(with: 0) }, [1, nil, 3])
        == ["subscription", "value(1)", "value(0)", "value(3)", "finished"]
    )
    #expect(
      transformRun(Upstream(), { $0.replaceNil(with: 0) }, [nil], then: .failure(.upstream))
        == ["subscription", "value(0)", "failure(upstream)"]
    )
  }

  @Test func passesDemandStraightUpstream() {
    let (upstream, _) = transformSubscribe(
      Upstream(),
      { $0.replaceNil(with: 0) },
      initialDemand: .max(1),
      demandPerValue: .max(2)
    )
    expectEqual(upstream.requestedDemands, [.max(1)])
    #expect(upstream.send(nil) == .max(2))
  }

  @Test func contract() {
    transformContract(Upstream.self, { $0.replaceNil(with: 0) }, elements: [1, nil], ownsSubscription: false)
  }

  @Test func docMarble() {
    #expect(TestScheduler.marbles("-1-n-3-|") { $0.map { Int($0) }.replaceNil(with: 0) } == "-1-0-3-|")
  }
}
