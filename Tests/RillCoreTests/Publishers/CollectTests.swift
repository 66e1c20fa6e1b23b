import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct CollectTests {
  @Test func marble() {
    #expect(reducingRun({ $0.collect() }, inputs: [1, 2, 3]) == ["value([1, 2, 3])", "finished"])
  }

  @Test func emptyUpstreamPublishesEmptyArray() {
    #expect(reducingRun({ $0.collect() }, inputs: []) == ["value([])", "finished"])
  }

  @Test func failureDropsCollectedElements() {
    #expect(reducingRun({ $0.collect() }, inputs: [1, 2], completion: .failure(.oops)) == ["failure(oops)"])
  }

  @Test func contract() {
    ReducingContract({ $0.collect() }, inputs: [1, 2, 3], expected: [1, 2, 3]).checkAll()
  }

  @Test func publicSurface() {
    let upstream = Just(1)
    let collect: Publishers.Collect<Just<Int>> = upstream.collect()
    expectEqual(collect.upstream, upstream)
    expectEqual(collect, Publishers.Collect(upstream: Just(1)))
    #expect(collect != Publishers.Collect(upstream: Just(2)))
  }

  @Test func description() {
    let recorder = TestSubscriber<[Int], Never>(initialDemand: .none)
    PassthroughSubject<Int, Never>().collect().subscribe(recorder)
    #expect("\(recorder.subscription.map { "\($0)" } ?? "")" == "Collect")
  }
}
