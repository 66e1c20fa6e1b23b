import RillCore
import RillTestSupport
import Testing

@Suite struct ResultPublisherSpecializationsTests {
  private typealias E = ReducingTestError
  private let success = Result<Int, ReducingTestError>.success(2).publisher
  private let failure = Result<Int, ReducingTestError>.failure(.oops).publisher

  @Test func sameResult() {
    let min: Result<Int, E>.Publisher = success.min()
    let max: Result<Int, E>.Publisher = success.max()
    let minBy: Result<Int, E>.Publisher = success.min(by: <)
    let maxBy: Result<Int, E>.Publisher = success.max(by: <)
    let first: Result<Int, E>.Publisher = success.first()
    let last: Result<Int, E>.Publisher = success.last()
    let dedup: Result<Int, E>.Publisher = success.removeDuplicates()
    let dedupBy: Result<Int, E>.Publisher = success.removeDuplicates { _, _ in true }
    let replaceEmpty: Result<Int, E>.Publisher = success.replaceEmpty(with: 0)
    let retry: Result<Int, E>.Publisher = success.retry(2)
    for same in [min, max, minBy, maxBy, first, last, dedup, dedupBy, replaceEmpty, retry] {
      expectEqual(same, success)
    }
    expectEqual(failure.retry(2), failure)
  }

  @Test func transforms() throws {
    let map: Result<String, E>.Publisher = success.map { "\($0)" }
    expectEqual(map.result, .success("2"))
    #expect(failure.map { $0 * 2 }.result == .failure(.oops))
    let tryMap: Result<Int, any Error>.Publisher = success.tryMap { _ in throw E.thrown }
    #expect(throws: E.thrown) { try tryMap.result.get() }
    #expect(throws: E.oops) { try failure.tryMap { $0 }.result.get() }
    let mapError: Result<Int, E>.Publisher = failure.mapError { _ in E.thrown }
    expectEqual(mapError.result, .failure(.thrown))
    let replaceError: Result<Int, Never>.Publisher = failure.replaceError(with: 7)
    expectEqual(replaceError.result, .success(7))
    expectEqual(success.replaceError(with: 7).result, .success(2))
    let setFailure: Result<Int, E>.Publisher = Result<Int, Never>.success(1).publisher.setFailureType(to: E.self)
    expectEqual(setFailure.result, .success(1))
    let ignore: Empty<Int, E> = failure.ignoreOutput()
    expectEqual(reducingEvents(ignore), ["finished"])
    #expect(reducingEvents(failure.map { $0 }) == ["failure(oops)"])
  }

  @Test func reductions() throws {
    let contains: Result<Bool, E>.Publisher = success.contains(2)
    expectEqual(contains.result, .success(true))
    let containsWhere: Result<Bool, E>.Publisher = failure.contains { $0 > 0 }
    expectEqual(containsWhere.result, .failure(.oops))
    let tryContains: Result<Bool, any Error>.Publisher = success.tryContains { $0 > 5 }
    #expect(try tryContains.result.get() == false)
    let allSatisfy: Result<Bool, E>.Publisher = success.allSatisfy { $0 > 0 }
    expectEqual(allSatisfy.result, .success(true))
    let tryAll: Result<Bool, any Error>.Publisher = success.tryAllSatisfy { _ in throw E.thrown }
    #expect(throws: E.thrown) { try tryAll.result.get() }
    let collect: Result<[Int], E>.Publisher = success.collect()
    expectEqual(collect.result, .success([2]))
    let count: Result<Int, E>.Publisher = success.count()
    expectEqual(count.result, .success(1))
    expectEqual(failure.count().result, .failure(.oops))
    let tryMin: Result<Int, any Error>.Publisher = success.tryMin { _, _ in throw E.thrown }
    #expect(throws: E.thrown) { try tryMin.result.get() }
    let tryMax: Result<Int, any Error>.Publisher = success.tryMax(by: <)
    #expect(try tryMax.result.get() == 2)
    let tryDedup: Result<Int, any Error>.Publisher = success.tryRemoveDuplicates { $0 == $1 }
    #expect(try tryDedup.result.get() == 2)
    let reduce: Result<Int, E>.Publisher = success.reduce(10, +)
    expectEqual(reduce.result, .success(12))
    let tryReduce: Result<Int, any Error>.Publisher = success.tryReduce(10, +)
    #expect(try tryReduce.result.get() == 12)
    let scan: Result<Int, E>.Publisher = failure.scan(10, +)
    expectEqual(scan.result, .failure(.oops))
    let tryScan: Result<Int, any Error>.Publisher = success.tryScan(10) { _, _ in throw E.thrown }
    #expect(throws: E.thrown) { try tryScan.result.get() }
    expectEqual(reducingEvents(success.reduce(1, +)), ["value(3)", "finished"])
  }
}
