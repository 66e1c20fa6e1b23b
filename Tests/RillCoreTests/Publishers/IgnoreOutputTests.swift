import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct IgnoreOutputTests {
  @Test func ignoresValuesAndPassesCompletions() {
    #expect(transformRun({ $0.ignoreOutput() }, [1, 2]) == ["subscription", "finished"])
    #expect(
      transformRun({ $0.ignoreOutput() }, [1], then: .failure(.upstream)) == ["subscription", "failure(upstream)"]
    )
  }

  @Test func requestsUnlimitedFromUpstream() {
    let (upstream, _) = transformSubscribe({ $0.ignoreOutput() }, initialDemand: .none)
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.send(1), .none)
  }

  @Test func isEquatable() {
    expectEqual(Publishers.IgnoreOutput(upstream: Just(1)), Publishers.IgnoreOutput(upstream: Just(1)))
    #expect(Publishers.IgnoreOutput(upstream: Just(1)) != Publishers.IgnoreOutput(upstream: Just(2)))
  }

  @Test func contract() {
    transformContract({ $0.ignoreOutput() }, ownsSubscription: false)
  }

  @Test func docMarble() {
    #expect(
      TestScheduler.marbles("-1-2-3-|") { (source: AnyPublisher<Int, MarbleError>) in source.ignoreOutput() }
        == "-------|"
    )
  }
}
