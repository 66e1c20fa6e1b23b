import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct SequenceSpecializationsTests {
  private typealias E = ReducingTestError

  @Test func transformsReturnSequencePublishers() {
    let numbers = [1, 2, 3, 4].publisher
    let map: Publishers.Sequence<[Int], Never> = numbers.map { $0 * 2 }
    expectEqual(map.sequence, [2, 4, 6, 8])
    let compactMap: Publishers.Sequence<[Int], Never> = numbers.compactMap { $0 == 2 ? nil : $0 }
    expectEqual(compactMap.sequence, [1, 3, 4])
    let filter: Publishers.Sequence<[Int], Never> = numbers.filter { $0 % 2 == 0 }
    expectEqual(filter.sequence, [2, 4])
    let prefixWhile: Publishers.Sequence<[Int], Never> = numbers.prefix { $0 < 3 }
    expectEqual(prefixWhile.sequence, [1, 2])
    let prefix: Publishers.Sequence<PrefixSequence<[Int]>, Never> = numbers.prefix(2)
    expectEqual(Array(prefix.sequence), [1, 2])
    let dropWhile: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = numbers.drop { $0 < 3 }
    expectEqual(Array(dropWhile.sequence), [3, 4])
    let dropFirst: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = numbers.dropFirst()
    expectEqual(Array(dropFirst.sequence), [2, 3, 4])
    expectEqual(Array(numbers.dropFirst(3).sequence), [4])
    let scan: Publishers.Sequence<[Int], Never> = numbers.scan(0, +)
    expectEqual(scan.sequence, [1, 3, 6, 10])
    let removeDuplicates: Publishers.Sequence<[Int], Never> = [1, 1, 2, 2, 1].publisher.removeDuplicates()
    expectEqual(removeDuplicates.sequence, [1, 2, 1])
    let replaceNil: Publishers.Sequence<[Int?], Never> = [1, nil, 3].publisher.replaceNil(with: 0)
    expectEqual(replaceNil.sequence, [1, 0, 3])
    let failing: Publishers.Sequence<[Int], E> = numbers.setFailureType(to: E.self)
    expectEqual(failing.sequence, [1, 2, 3, 4])
    let outputIn: Publishers.Sequence<[Int], Never> = numbers.output(in: 1..<3)
    expectEqual(outputIn.sequence, [2, 3])
    let set: Set = [5]
    let setOutput: Publishers.Sequence<[Int], Never> = set.publisher.output(in: set.startIndex..<set.endIndex)
    expectEqual(setOutput.sequence, [5])
  }

  /// A sequence that reports fewer elements than it has, as `underestimatedCount` may.
  private struct Understated: Sequence {
    let count: Int
    let claimed: Int
    var underestimatedCount: Int { claimed }
    func makeIterator() -> Range<Int>.Iterator { (0..<count).makeIterator() }
  }

  @Test(arguments: [(0, 0), (10, 0), (10, 3), (10, 10), (1_000, 1_000)])
  func eagerMapAndFilterKeepEveryElementWhateverTheCountClaimed(count: Int, claimed: Int) {
    let publisher = Publishers.Sequence<Understated, Never>(sequence: Understated(count: count, claimed: claimed))
    #expect(publisher.map { $0 * 2 }.sequence == (0..<count).map { $0 * 2 })
    #expect(publisher.filter { $0 % 3 == 0 }.sequence == (0..<count).filter { $0 % 3 == 0 })
    #expect(publisher.filter { _ in true }.sequence == Array(0..<count))
    #expect(publisher.filter { _ in false }.sequence == [])
  }

  @Test func eagerFilterKeepingFewElementsDoesNotKeepTheWholeBuffer() {
    let kept = (0..<10_000).publisher.filter { $0 % 1_000 == 0 }.sequence
    expectEqual(kept, [0, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000])
    #expect(kept.capacity < 100)
  }

  /// Arrays, contiguous arrays and slices map and filter as the standard library does.
  @Test(arguments: [0, 1, 2, 3, 10, 1_000])
  func eagerMapAndFilterOfContiguousSequencesKeepWhatTheStandardOnesKeep(count: Int) {
    let array = (0..<count).map { $0 &* 7 }
    for isIncluded in [{ (value: Int) in value % 3 == 0 }, { _ in true }, { _ in false }, { $0 < 7 }] {
      let expected = array.filter(isIncluded)
      expectEqual(array.publisher.filter(isIncluded).sequence, expected)
      expectEqual(ContiguousArray(array).publisher.filter(isIncluded).sequence, expected)
      expectEqual(array[...].publisher.filter(isIncluded).sequence, expected)
      #expect(array.publisher.map { $0 &+ 1 }.filter(isIncluded).sequence == array.map { $0 &+ 1 }.filter(isIncluded))
      let kept = array.publisher.filter(isIncluded).sequence
      #expect(kept.isEmpty || kept.count >= kept.capacity / 3)
    }
    #expect(array.dropFirst(2).publisher.filter { _ in true }.sequence == Array(array.dropFirst(2)))
    #expect(array.dropFirst(2).publisher.map { $0 / 7 }.sequence == Array(2..<max(count, 2)))
  }

  @Test func eagerFilterOfAnArrayOfClassesKeepsEachKeptObjectOnceAndReleasesTheRest() {
    final class Box {
      let index: Int
      init(_ index: Int) { self.index = index }
    }
    weak var dropped: Box?
    weak var kept: Box?
    do {
      let boxes = (0..<6).map(Box.init)
      dropped = boxes[1]
      kept = boxes[2]
      let filtered = boxes.publisher.filter { $0.index % 2 == 0 }.sequence
      expectEqual(filtered.map(\.index), [0, 2, 4])
      #expect(filtered[1] === boxes[2])
    }
    #expect(dropped == nil)
    #expect(kept == nil)
  }

  @Test func eagerMapOfClassesKeepsEachObjectOnce() {
    final class Box {}
    weak var first: Box?
    do {
      let boxes = (0..<5).publisher.map { _ in Box() }.sequence
      first = boxes[0]
      expectEqual(Set(boxes.map(ObjectIdentifier.init)).count, 5)
    }
    #expect(first == nil)
  }

  @Test func transformsPublishTheirElements() {
    #expect(reducingEvents([1, 2, 3].publisher.map { $0 * 2 }) == ["value(2)", "value(4)", "value(6)", "finished"])
    #expect(reducingEvents([Int]().publisher.filter { $0 > 0 }) == ["finished"])
    expectEqual(reducingEvents([1, 2].publisher.setFailureType(to: E.self).dropFirst()), ["value(2)", "finished"])
  }

  @Test func scanRunsItsClosureOncePerElementAtCreation() {
    var calls = 0
    let scan = [1, 2, 3].publisher.scan(0) {
      calls += 1
      return $0 + $1
    }
    expectEqual(calls, 3)
    _ = reducingEvents(scan)
    _ = reducingEvents(scan)
    expectEqual(calls, 3)
  }

  @Test func appendAndPrepend() {
    let numbers = [3, 4].publisher
    let prepended: Publishers.Sequence<[Int], Never> = numbers.prepend(1, 2)
    expectEqual(prepended.sequence, [1, 2, 3, 4])
    expectEqual(numbers.prepend(1...2).sequence, [1, 2, 3, 4])
    expectEqual(numbers.prepend([1, 2].publisher).sequence, [1, 2, 3, 4])
    let appended: Publishers.Sequence<[Int], Never> = numbers.append(5, 6)
    expectEqual(appended.sequence, [3, 4, 5, 6])
    expectEqual(numbers.append(5...6).sequence, [3, 4, 5, 6])
    expectEqual(numbers.append([5].publisher).sequence, [3, 4, 5])
    let text: Publishers.Sequence<String, Never> = "bc".publisher.prepend("a").append("d")
    expectEqual(text.sequence, "abcd")
  }

  @Test func reductionsReturnResultPublishers() throws {
    let numbers = [3, 1, 2].publisher.setFailureType(to: E.self)
    let all: Result<Bool, E>.Publisher = numbers.allSatisfy { $0 > 0 }
    expectEqual(all.result, .success(true))
    let tryAll: Result<Bool, any Error>.Publisher = numbers.tryAllSatisfy { _ in throw E.thrown }
    #expect(throws: E.thrown) { try tryAll.result.get() }
    let collect: Result<[Int], E>.Publisher = numbers.collect()
    expectEqual(collect.result, .success([3, 1, 2]))
    let containsWhere: Result<Bool, E>.Publisher = numbers.contains { $0 == 2 }
    expectEqual(containsWhere.result, .success(true))
    let tryContains: Result<Bool, any Error>.Publisher = numbers.tryContains { $0 == 9 }
    #expect(try tryContains.result.get() == false)
    let contains: Result<Bool, E>.Publisher = numbers.contains(4)
    expectEqual(contains.result, .success(false))
    let reduce: Result<Int, E>.Publisher = numbers.reduce(10, +)
    expectEqual(reduce.result, .success(16))
    let tryReduce: Result<Int, any Error>.Publisher = numbers.tryReduce(0) { _, _ in throw E.thrown }
    #expect(throws: E.thrown) { try tryReduce.result.get() }
    let count: Result<Int, E>.Publisher = numbers.count()
    expectEqual(count.result, .success(3))
    let setCount: Result<Int, E>.Publisher = Set([1, 2]).publisher.setFailureType(to: E.self).count()
    expectEqual(setCount.result, .success(2))
    let ignore: Empty<Int, E> = numbers.ignoreOutput()
    #expect(ignore.completeImmediately)
    expectEqual(reducingEvents(numbers.reduce(0, +)), ["value(6)", "finished"])
  }

  @Test func neverFailingReductionsReturnOptionalPublishersAndJust() {
    let numbers = [3, 1, 2].publisher
    let min: Optional<Int>.Publisher = numbers.min()
    expectEqual(min.output, 1)
    let max: Optional<Int>.Publisher = numbers.max()
    expectEqual(max.output, 3)
    let minBy: Optional<Int>.Publisher = numbers.min(by: >)
    expectEqual(minBy.output, 3)
    let maxBy: Optional<Int>.Publisher = numbers.max(by: >)
    expectEqual(maxBy.output, 1)
    let firstWhere: Optional<Int>.Publisher = numbers.first { $0 < 3 }
    expectEqual(firstWhere.output, 1)
    let first: Optional<Int>.Publisher = numbers.first()
    expectEqual(first.output, 3)
    let last: Optional<Int>.Publisher = numbers.last()
    expectEqual(last.output, 2)
    let lastWhere: Optional<Int>.Publisher = numbers.last { $0 > 1 }
    expectEqual(lastWhere.output, 2)
    let outputAt: Optional<Int>.Publisher = numbers.output(at: 1)
    expectEqual(outputAt.output, 1)
    #expect(numbers.output(at: 3).output == nil)
    let setFirst: Optional<Int>.Publisher = Set([7]).publisher.first()
    expectEqual(setFirst.output, 7)
    let count: Just<Int> = numbers.count()
    expectEqual(count.output, 3)
    #expect([Int]().publisher.min().output == nil)
    expectEqual(reducingEvents([Int]().publisher.max()), ["finished"])
    expectEqual(reducingEvents(numbers.min()), ["value(1)", "finished"])
  }

  /// `prepend` builds an empty collection, reserves room for both parts and appends them, as Combine
  /// does, so a collection sees the same calls (`count` of the base, `underestimatedCount` of the prefix).
  @Test func prependOfASequenceReservesThenAppendsBothParts() {
    let base = LoggingCollection([4, 5, 6, 7])
    let prefix = LoggingCollection([1, 2, 3])
    let joined = Publishers.Sequence<LoggingCollection, Never>(sequence: base).prepend(prefix).sequence
    expectEqual(joined.elements, [1, 2, 3, 4, 5, 6, 7])
    expectEqual(joined.calls, ["init()", "reserveCapacity(7)", "append(contentsOf:)", "append(contentsOf:)"])
    expectEqual(base.calls.prefix(2), ["init(_:)", "count"])
    expectEqual(prefix.calls.prefix(2), ["init(_:)", "underestimatedCount"])
    let variadic = Publishers.Sequence<LoggingCollection, Never>(sequence: base).prepend(1, 2, 3).sequence
    expectEqual(variadic.elements, [1, 2, 3, 4, 5, 6, 7])
    expectEqual(variadic.calls, ["init()", "reserveCapacity(7)", "append(contentsOf:)", "append(contentsOf:)"])
  }

  /// `prepend(publisher)` appends this sequence to the other publisher's collection, as Combine
  /// does; a collection with reference semantics is extended in place and keeps every value.
  @Test func prependOfAPublisherAppendsToItsCollection() {
    let base = LoggingCollection([4, 5, 6, 7])
    let prefix = LoggingCollection([1, 2, 3])
    let joined = Publishers.Sequence<LoggingCollection, Never>(sequence: base)
      .prepend(Publishers.Sequence(sequence: prefix))
      .sequence
    #expect(joined === prefix)
    expectEqual(joined.elements, [1, 2, 3, 4, 5, 6, 7])
    expectEqual(prefix.calls, ["init(_:)", "append(contentsOf:)"])
    expectEqual(base.elements, [4, 5, 6, 7])
    #expect(!base.calls.contains("count"))
  }
}

/// A collection with reference semantics that logs the calls made to it, to pin which methods the
/// sequence specialisations use.
private final class LoggingCollection: RangeReplaceableCollection {
  private(set) var elements: [Int]
  private(set) var calls: [String]

  init() {
    elements = []
    calls = ["init()"]
  }

  init(_ elements: [Int]) {
    self.elements = elements
    calls = ["init(_:)"]
  }

  var startIndex: Int { elements.startIndex }
  var endIndex: Int { elements.endIndex }
  func index(after index: Int) -> Int { index + 1 }
  subscript(position: Int) -> Int { elements[position] }

  var count: Int {
    calls.append("count")
    return elements.count
  }

  var underestimatedCount: Int {
    calls.append("underestimatedCount")
    return elements.count
  }

  func makeIterator() -> IndexingIterator<[Int]> {
    calls.append("makeIterator()")
    return elements.makeIterator()
  }

  func reserveCapacity(_ capacity: Int) {
    calls.append("reserveCapacity(\(capacity))")
    elements.reserveCapacity(capacity)
  }

  func append<S: Sequence>(contentsOf newElements: S) where S.Element == Int {
    calls.append("append(contentsOf:)")
    elements.append(contentsOf: newElements)
  }

  func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Int {
    calls.append("replaceSubrange(_:with:)")
    elements.replaceSubrange(subrange, with: newElements)
  }
}

extension SequenceSpecializationsTests {
  /// As in Combine, a sequence's subscription describes itself as the sequence and mirrors it while it
  /// delivers, and is called "Sequence", with no elements in its mirror, once it has finished or been cancelled.
  @Test func subscriptionShowsTheSequenceUntilItEnds() throws {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    [1, 2].publisher.subscribe(recorder)
    let subscription = try #require(recorder.subscription)
    expectEqual(String(describing: subscription), "[1, 2]")
    expectEqual(Mirror(reflecting: subscription).children.first?.label, "sequence")
    expectEqual(Mirror(reflecting: subscription).children.first?.value as? [Int], [1, 2])
    subscription.request(.unlimited)
    expectEqual(String(describing: subscription), "Sequence")
    expectEqual(Mirror(reflecting: subscription).children.first?.value as? [Int], [])

    let cancelled = TestSubscriber<Int, Never>(initialDemand: .none)
    (1...3).publisher.subscribe(cancelled)
    let other = try #require(cancelled.subscription)
    expectEqual(String(describing: other), "1...3")
    other.cancel()
    expectEqual(String(describing: other), "Sequence")
  }
}
