import RillCore
import RillTesting
import Testing

/// The first test of each reducing operator: its documented marble diagram, character for character.
@Suite struct ReducingMarbleTests {
  private struct MarbleTestFailure: Error {}
  @Test func firstMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.first() } == "-[1|]")
  }

  @Test func firstWhereMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.first { $0 % 2 == 0 } } == "---[2|]")
  }

  @Test func lastMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.last() } == "-------[3|]")
  }

  @Test func lastWhereMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.last { $0 % 2 == 1 } } == "-------[3|]")
  }

  @Test func collectMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|", as: Int.self) { $0.collect() } == "-------['[1, 2, 3]'|]")
  }

  @Test func collectCountMarble() {
    #expect(
      TestScheduler.marbles("-1-2-3-4-5-|", as: Int.self) { $0.collect(2) }
        == "---'[1, 2]'---'[3, 4]'---['[5]'|]"
    )
  }

  @Test func reduceMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.reduce(0) { $0 + $1 } } == "-------[6|]")
  }

  @Test func tryReduceMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryReduce(0) { $0 + $1 } } == "-------[6|]")
  }

  @Test func countMarble() {
    #expect(TestScheduler.marbles("-a-b-c-|") { $0.count() } == "-------[3|]")
  }

  @Test func minMarble() {
    #expect(TestScheduler.marbles("-3-1-2-|", as: Int.self) { $0.min() } == "-------[1|]")
  }

  @Test func maxMarble() {
    #expect(TestScheduler.marbles("-1-3-2-|", as: Int.self) { $0.max() } == "-------[3|]")
  }

  @Test func minByMarble() {
    #expect(TestScheduler.marbles("-3-1-2-|", as: Int.self) { $0.min(by: (<)) } == "-------[1|]")
  }

  @Test func maxByMarble() {
    #expect(TestScheduler.marbles("-1-3-2-|", as: Int.self) { $0.max(by: (<)) } == "-------[3|]")
  }

  @Test func containsMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|", as: Int.self) { $0.contains(2) } == "---['true'|]")
    #expect(TestScheduler.marbles("-1-2-3-|", as: Int.self) { $0.contains(5) } == "-------['false'|]")
  }

  @Test func containsWhereMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.contains { $0 > 1 } } == "---['true'|]")
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.contains { $0 > 5 } } == "-------['false'|]")
  }

  @Test func allSatisfyMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.allSatisfy { $0 > 0 } } == "-------['true'|]")
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.allSatisfy { $0 < 2 } } == "---['false'|]")
  }

  @Test func tryReduceThrowingMarble() {
    #expect(
      TestScheduler.marbles("-1-2-3-|", as: Int.self) { $0.tryReduce(0) { _, _ in throw MarbleTestFailure() } } == "-^"
    )
  }

  @Test func tryAllSatisfyMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryAllSatisfy { $0 > 0 } } == "-------['true'|]")
    #expect(
      TestScheduler.marbles("-1-2-3-|", as: Int.self) { $0.tryAllSatisfy { _ in throw MarbleTestFailure() } } == "-^"
    )
  }

  @Test func tryContainsWhereMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryContains { $0 > 1 } } == "---['true'|]")
    #expect(
      TestScheduler.marbles("-1-2-3-|", as: Int.self) { $0.tryContains { _ in throw MarbleTestFailure() } } == "-^"
    )
  }

  @Test func tryMinMarble() {
    #expect(TestScheduler.marbles("-3-1-2-|", as: Int.self) { $0.tryMin(by: (<)) } == "-------[1|]")
    #expect(
      TestScheduler.marbles("-3-1-2-|", as: Int.self) { $0.tryMin { _, _ in throw MarbleTestFailure() } } == "---^"
    )
  }

  @Test func tryMaxMarble() {
    #expect(TestScheduler.marbles("-1-3-2-|", as: Int.self) { $0.tryMax(by: (<)) } == "-------[3|]")
    #expect(
      TestScheduler.marbles("-1-3-2-|", as: Int.self) { $0.tryMax { _, _ in throw MarbleTestFailure() } } == "---^"
    )
  }
}
