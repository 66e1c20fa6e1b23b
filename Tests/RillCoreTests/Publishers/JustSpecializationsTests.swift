import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct JustSpecializationsTests {
  private typealias E = ReducingTestError
  private let just = Just(2)

  @Test func specializationsReturningJust() {
    let map: Just<String> = just.map { "\($0)" }
    expectEqual(map.output, "2")
    let min: Just<Int> = just.min()
    let max: Just<Int> = just.max()
    let minBy: Just<Int> = just.min(by: >)
    let maxBy: Just<Int> = just.max(by: >)
    let first: Just<Int> = just.first()
    let last: Just<Int> = just.last()
    let dedup: Just<Int> = just.removeDuplicates()
    let dedupBy: Just<Int> = just.removeDuplicates { _, _ in true }
    let replaceError: Just<Int> = just.replaceError(with: 0)
    let replaceEmpty: Just<Int> = just.replaceEmpty(with: 0)
    let retry: Just<Int> = just.retry(3)
    for same in [min, max, minBy, maxBy, first, last, dedup, dedupBy, replaceError, replaceEmpty, retry] {
      expectEqual(same, just)
    }
    let contains: Just<Bool> = just.contains(2)
    #expect(contains.output)
    #expect(!just.contains(3).output)
    let containsWhere: Just<Bool> = just.contains { $0 > 5 }
    #expect(!containsWhere.output)
    let allSatisfy: Just<Bool> = just.allSatisfy { $0 > 0 }
    #expect(allSatisfy.output)
    let collect: Just<[Int]> = just.collect()
    expectEqual(collect.output, [2])
    let count: Just<Int> = just.count()
    expectEqual(count.output, 1)
  }

  @Test func specializationsReturningOptionalPublisher() {
    let filter: Optional<Int>.Publisher = just.filter { $0 > 5 }
    #expect(filter.output == nil)
    #expect(just.filter { $0 < 5 }.output == 2)
    let compactMap: Optional<Int>.Publisher = Just("7").compactMap { Int($0) }
    expectEqual(compactMap.output, 7)
    let dropFirst: Optional<Int>.Publisher = just.dropFirst()
    #expect(dropFirst.output == nil)
    expectEqual(just.dropFirst(0).output, 2)
    let dropWhile: Optional<Int>.Publisher = just.drop { $0 > 5 }
    expectEqual(dropWhile.output, 2)
    let firstWhere: Optional<Int>.Publisher = just.first { $0 > 5 }
    #expect(firstWhere.output == nil)
    let lastWhere: Optional<Int>.Publisher = just.last { $0 < 5 }
    expectEqual(lastWhere.output, 2)
    let outputAt: Optional<Int>.Publisher = just.output(at: 0)
    expectEqual(outputAt.output, 2)
    #expect(just.output(at: 1).output == nil)
    let outputIn: Optional<Int>.Publisher = just.output(in: 0..<3)
    expectEqual(outputIn.output, 2)
    #expect(just.output(in: 1...).output == nil)
    // As in Combine, only a lower bound of zero publishes, even for an empty range, and a negative one does not trap.
    expectEqual(just.output(in: 0..<0).output, 2)
    expectEqual(just.output(in: 0...0).output, 2)
    expectEqual(just.output(in: 0..<Int.max).output, 2)
    #expect(just.output(in: -10..<10).output == nil)
    #expect(just.output(in: (-10)...).output == nil)
    #expect(just.output(in: -10...10).output == nil)
    #expect(just.output(in: -10 ..< -5).output == nil)
    let prefix: Optional<Int>.Publisher = just.prefix(1)
    expectEqual(prefix.output, 2)
    #expect(just.prefix(0).output == nil)
    let prefixWhile: Optional<Int>.Publisher = just.prefix { $0 > 5 }
    #expect(prefixWhile.output == nil)
    #expect(reducingEvents(just.filter { $0 > 5 }) == ["finished"])
  }

  @Test func specializationsReturningResultPublisher() throws {
    let tryMap: Result<Int, any Error>.Publisher = just.tryMap { $0 * 3 }
    #expect(try tryMap.result.get() == 6)
    #expect(throws: E.thrown) { try just.tryMap { _ -> Int in throw E.thrown }.result.get() }
    let setFailure: Result<Int, E>.Publisher = just.setFailureType(to: E.self)
    expectEqual(setFailure.result, .success(2))
    let mapError: Result<Int, E>.Publisher = just.mapError(absurd)
    expectEqual(mapError.result, .success(2))
    let tryAll: Result<Bool, any Error>.Publisher = just.tryAllSatisfy { $0 > 5 }
    #expect(try tryAll.result.get() == false)
    let tryContains: Result<Bool, any Error>.Publisher = just.tryContains { _ in throw E.thrown }
    #expect(throws: E.thrown) { try tryContains.result.get() }
    let reduce: Result<Int, Never>.Publisher = just.reduce(10, +)
    expectEqual(reduce.result, .success(12))
    let tryReduce: Result<Int, any Error>.Publisher = just.tryReduce(10, +)
    #expect(try tryReduce.result.get() == 12)
    let scan: Result<Int, Never>.Publisher = just.scan(10, +)
    expectEqual(scan.result, .success(12))
    let tryScan: Result<Int, any Error>.Publisher = just.tryScan(10) { _, _ in throw E.thrown }
    #expect(throws: E.thrown) { try tryScan.result.get() }
    let tryDedup: Result<Int, any Error>.Publisher = just.tryRemoveDuplicates { $0 == $1 }
    #expect(try tryDedup.result.get() == 2)
    expectEqual(reducingEvents(just.setFailureType(to: E.self)), ["value(2)", "finished"])
  }

  @Test func specializationsReturningEmptyAndSequence() {
    let ignore: Empty<Int, Never> = just.ignoreOutput()
    expectEqual(reducingEvents(ignore), ["finished"])
    let prepend: Publishers.Sequence<[Int], Never> = just.prepend(0, 1)
    expectEqual(prepend.sequence, [0, 1, 2])
    expectEqual(just.prepend(0...1).sequence, [0, 1, 2])
    let append: Publishers.Sequence<[Int], Never> = just.append(3, 4)
    expectEqual(append.sequence, [2, 3, 4])
    expectEqual(just.append(3...4).sequence, [2, 3, 4])
    expectEqual(reducingEvents(just.append(3)), ["value(2)", "value(3)", "finished"])
  }
}

/// Converts the failure of a publisher that never fails.
private func absurd<T>(_ never: Never) -> T {}

extension JustSpecializationsTests {
  /// `Just.prepend(_:)` reserves room for both parts and appends them, as Combine does, so the prefix
  /// is asked for its `underestimatedCount` twice and iterated once.
  @Test func prependOfASequenceReservesThenAppends() {
    let prefix = CallLoggingSequence([1, 2, 3, 4])
    expectEqual(Just(5).prepend(prefix), Publishers.Sequence(sequence: [1, 2, 3, 4, 5]))
    expectEqual(prefix.log.calls, ["underestimatedCount", "underestimatedCount", "makeIterator"])
    let suffix = CallLoggingSequence([2, 3])
    expectEqual(Just(1).append(suffix), Publishers.Sequence(sequence: [1, 2, 3]))
    expectEqual(suffix.log.calls, ["underestimatedCount", "makeIterator"])
  }

  /// The subscription's mirror has one unlabelled child, the value, as Combine's has.
  @Test func subscriptionMirrorIsTheValue() throws {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    Just(42).subscribe(recorder)
    let mirror = Mirror(reflecting: try #require(recorder.subscription))
    expectEqual(mirror.children.count, 1)
    #expect(mirror.children.first?.label == nil)
    expectEqual(mirror.children.first?.value as? Int, 42)
  }
}

/// A sequence that logs which of its requirements are used.
private struct CallLoggingSequence: Sequence {
  final class Log {
    var calls: [String] = []
  }

  let elements: [Int]
  let log = Log()

  init(_ elements: [Int]) {
    self.elements = elements
  }

  var underestimatedCount: Int {
    log.calls.append("underestimatedCount")
    return elements.count
  }

  func makeIterator() -> IndexingIterator<[Int]> {
    log.calls.append("makeIterator")
    return elements.makeIterator()
  }
}
