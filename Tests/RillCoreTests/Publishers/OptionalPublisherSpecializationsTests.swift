import RillCore
import RillTestSupport
import Testing

@Suite struct OptionalPublisherSpecializationsTests {
  private let some = Optional(2).publisher
  private let none = Optional<Int>.none.publisher

  @Test func transforms() {
    let map: Optional<String>.Publisher = some.map { "\($0)" }
    expectEqual(map.output, "2")
    #expect(none.map { $0 * 2 }.output == nil)
    let compactMap: Optional<Int>.Publisher = Optional("7").publisher.compactMap { Int($0) }
    expectEqual(compactMap.output, 7)
    let filter: Optional<Int>.Publisher = some.filter { $0 > 5 }
    #expect(filter.output == nil)
    let drop: Optional<Int>.Publisher = some.drop { $0 > 5 }
    expectEqual(drop.output, 2)
    let dropFirst: Optional<Int>.Publisher = some.dropFirst()
    #expect(dropFirst.output == nil)
    expectEqual(some.dropFirst(0).output, 2)
    let first: Optional<Int>.Publisher = some.first()
    let last: Optional<Int>.Publisher = some.last()
    let min: Optional<Int>.Publisher = some.min()
    let max: Optional<Int>.Publisher = some.max()
    let minBy: Optional<Int>.Publisher = some.min(by: <)
    let maxBy: Optional<Int>.Publisher = some.max(by: <)
    let dedup: Optional<Int>.Publisher = some.removeDuplicates()
    let dedupBy: Optional<Int>.Publisher = some.removeDuplicates { _, _ in true }
    let replaceError: Optional<Int>.Publisher = some.replaceError(with: 0)
    let retry: Optional<Int>.Publisher = some.retry(1)
    for same in [first, last, min, max, minBy, maxBy, dedup, dedupBy, replaceError, retry] {
      expectEqual(same, some)
    }
    #expect(some.first { $0 == 2 }.output == 2)
    #expect(some.last { $0 == 3 }.output == nil)
    expectEqual(some.prefix(1).output, 2)
    #expect(some.prefix(0).output == nil)
    #expect(some.prefix { $0 < 3 }.output == 2)
    expectEqual(some.output(at: 0).output, 2)
    #expect(some.output(at: 1).output == nil)
    expectEqual(some.output(in: 0..<1).output, 2)
    #expect(some.output(in: 0..<0).output == nil)
    // An unbounded range (`1...`) traps, as in Combine: see outputInRangeTrapsOnAnUpperBoundTooCloseToIntMax.
    #expect(some.output(in: 1...5).output == nil)
  }

  @Test func reductions() {
    let contains: Optional<Bool>.Publisher = some.contains(2)
    expectEqual(contains.output, true)
    #expect(none.contains(2).output == nil)
    let containsWhere: Optional<Bool>.Publisher = some.contains { $0 > 5 }
    expectEqual(containsWhere.output, false)
    let allSatisfy: Optional<Bool>.Publisher = some.allSatisfy { $0 > 0 }
    expectEqual(allSatisfy.output, true)
    #expect(none.allSatisfy { $0 > 0 }.output == nil)
    let collect: Optional<[Int]>.Publisher = some.collect()
    expectEqual(collect.output, [2])
    expectEqual(none.collect().output, [])
    let count: Optional<Int>.Publisher = some.count()
    expectEqual(count.output, 1)
    #expect(none.count().output == nil)
    let reduce: Optional<Int>.Publisher = some.reduce(10, +)
    expectEqual(reduce.output, 12)
    let scan: Optional<Int>.Publisher = none.scan(10, +)
    #expect(scan.output == nil)
    let replaceEmpty: Just<Int> = none.replaceEmpty(with: 9)
    expectEqual(replaceEmpty.output, 9)
    expectEqual(some.replaceEmpty(with: 9).output, 2)
    let ignore: Empty<Int, Never> = some.ignoreOutput()
    expectEqual(reducingEvents(ignore), ["finished"])
    #expect(reducingEvents(some.map { $0 + 1 }) == ["value(3)", "finished"])
    expectEqual(reducingEvents(none.count()), ["finished"])
  }
}

extension OptionalPublisherSpecializationsTests {
  /// As in Combine, `output(in:)` accepts an upper bound up to `Int.max - 2` and traps beyond, naming
  /// the range.
  @Test func outputInRangeTrapsOnAnUpperBoundTooCloseToIntMax() async {
    expectEqual(Optional(12).publisher.output(in: 0..<(Int.max - 2)), Optional(12).publisher)
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Optional(12).publisher.output(in: 0..<(Int.max - 1))
    }.map { result in
      #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("output(in:)"))
    }
  }
}
