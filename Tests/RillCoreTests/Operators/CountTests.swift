import RillCore
import Testing

@Suite struct CountTests {
  @Test func marble() {
    #expect(reducingRun({ $0.count() }, inputs: [7, 8, 9]) == [.value(3), .finished])
  }

  @Test func emptyUpstreamPublishesZero() {
    #expect(reducingRun({ $0.count() }, inputs: []) == [.value(0), .finished])
  }

  @Test func failure() {
    #expect(reducingRun({ $0.count() }, inputs: [1], completion: .failure(.oops)) == [.failed("oops")])
  }

  @Test func contract() {
    ReducingContract({ $0.count() }, inputs: [4, 5, 6, 7], expected: 4).checkAll()
  }

  @Test func publicSurface() {
    let count: Publishers.Count<Just<Int>> = Just(1).count()
    #expect(count.upstream == Just(1))
    #expect(count == Publishers.Count(upstream: Just(1)))
  }
}
