import RillCore
import RillTesting
import Testing

/// The first test of each transforming operator: its documented marble diagram, character for character.
@Suite struct TransformMarbleTests {
  private struct MarbleTestFailure: Error {}

  private static func checked(_ value: Int) throws -> Int {
    if value > 2 { throw MarbleTestFailure() }
    return value
  }

  private static func even(_ value: Int) throws -> Bool {
    if value > 2 { throw MarbleTestFailure() }
    return value % 2 == 0
  }

  private static func small(_ value: Int) throws -> Bool {
    if value >= 2 { throw MarbleTestFailure() }
    return true
  }

  private static func add(_ total: Int, _ value: Int) throws -> Int {
    if value > 2 { throw MarbleTestFailure() }
    return total + value
  }

  @Test func mapMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.map { $0 * 2 } } == "-2-4-6-|")
  }

  @Test func tryMapMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryMap { try Self.checked($0) } } == "-1-2-^")
  }

  @Test func mapKeyPathMarble() {
    #expect(TestScheduler.marbles("-a-'bb'-|") { $0.map(\.count) } == "-1-2-|")
  }

  @Test func filterMarble() {
    #expect(TestScheduler.marbles("-1-2-3-4-|") { $0.filter { $0 % 2 == 0 } } == "---2---4-|")
  }

  @Test func tryFilterMarble() {
    #expect(TestScheduler.marbles("-1-2-3-4-|") { $0.tryFilter { try Self.even($0) } } == "---2-^")
  }

  @Test func scanMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.scan(0) { $0 + $1 } } == "-1-3-6-|")
  }

  @Test func tryScanMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryScan(0) { try Self.add($0, $1) } } == "-1-3-^")
  }

  @Test func compactMapMarble() {
    #expect(TestScheduler.marbles("-a-1-b-2-|", as: String.self) { $0.compactMap { Int($0) } } == "---1---2-|")
  }

  @Test func removeDuplicatesMarble() {
    #expect(TestScheduler.marbles("-1-1-2-2-1-|", as: Int.self) { $0.removeDuplicates() } == "-1---2---1-|")
  }

  @Test func removeDuplicatesByMarble() {
    #expect(
      TestScheduler.marbles("-1-3-2-4-|") { $0.removeDuplicates { $0 % 2 == $1 % 2 } } == "-1---2---|"
    )
  }

  @Test func prefixWhileMarble() {
    #expect(TestScheduler.marbles("-1-2-3-1-|") { $0.prefix { $0 < 3 } } == "-1-2-|")
  }

  @Test func tryPrefixWhileMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryPrefix { try Self.small($0) } } == "-1-^")
  }

  @Test func dropWhileMarble() {
    #expect(TestScheduler.marbles("-1-2-3-1-|") { $0.drop { $0 < 3 } } == "-----3-1-|")
  }

  @Test func tryDropWhileMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryDrop { try Self.small($0) } } == "---^")
  }

  @Test func dropFirstMarble() {
    #expect(TestScheduler.marbles("-1-2-3-4-|", as: Int.self) { $0.dropFirst(2) } == "-----3-4-|")
  }

  @Test func prefixMarble() {
    #expect(TestScheduler.marbles("-1-2-3-4-|", as: Int.self) { $0.prefix(2) } == "-1-[2|]")
  }

  @Test func outputAtMarble() {
    #expect(TestScheduler.marbles("-a-b-c-d-|") { $0.output(at: 1) } == "---[b|]")
  }

  @Test func outputInMarble() {
    #expect(TestScheduler.marbles("-a-b-c-d-e-|") { $0.output(in: 1...2) } == "---b-[c|]")
  }

  @Test func ignoreOutputMarble() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.ignoreOutput() } == "-------|")
  }

  @Test func replaceErrorMarble() {
    #expect(TestScheduler.marbles("-1-2-^", as: Int.self) { $0.replaceError(with: 0) } == "-1-2-[0|]")
  }

  @Test func replaceEmptyMarble() {
    #expect(TestScheduler.marbles("---|", as: Int.self) { $0.replaceEmpty(with: 0) } == "---[0|]")
  }

  @Test func catchMarble() {
    #expect(TestScheduler.marbles("-1-2-^") { $0.catch { _ in Just("9") } } == "-1-2-[9|]")
  }

  @Test func tryCatchMarble() {
    #expect(TestScheduler.marbles("-1-2-^") { $0.tryCatch { _ in Just("9") } } == "-1-2-[9|]")
  }

  @Test func mapErrorMarble() {
    #expect(TestScheduler.marbles("-1-2-^") { $0.mapError { _ in MarbleTestFailure() } } == "-1-2-^")
  }

  @Test func setFailureTypeMarble() {
    #expect(
      TestScheduler.marbles("-1-2-|") { $0.replaceError(with: "0").setFailureType(to: MarbleTestFailure.self) }
        == "-1-2-|"
    )
  }

  @Test func handleEventsMarble() {
    #expect(TestScheduler.marbles("-1-2-|") { $0.handleEvents(receiveOutput: { _ in }) } == "-1-2-|")
  }

  @Test func breakpointMarble() {
    #expect(TestScheduler.marbles("-1-2-|") { $0.breakpoint(receiveOutput: { _ in false }) } == "-1-2-|")
  }

  @Test func breakpointOnErrorMarble() {
    #expect(TestScheduler.marbles("-1-2-|") { $0.breakpointOnError() } == "-1-2-|")
  }

  @Test func assertNoFailureMarble() {
    #expect(TestScheduler.marbles("-1-2-|") { $0.assertNoFailure() } == "-1-2-|")
  }
}
