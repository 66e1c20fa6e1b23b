import Foundation
import Rill
import RillExt
import RillTestSupport
import RillTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private func single<P: SinglePublisher>(_ publisher: P) -> P { publisher }
private func maybe<P: MaybePublisher>(_ publisher: P) -> P { publisher }
private func immediate<P: ImmediatePublisher>(_ publisher: P) -> P { publisher }

/// Combine's publishers carry CombineTraits' traits, under CombineTraits' conditions.
///
/// The refusals (a publisher that
/// can publish two values is no single) are in Tests/RillExtCompileFailures, run by scripts/check-compile-failures.sh.
@Suite struct TraitConformanceTests {
  @Test func publishersWithoutUpstream() {
    _ = single(Just(1))
    _ = single(Fail<Int, ExtTestError>(error: .upstream))
    _ = single(Future<Int, Never> { $0(.success(1)) })
    _ = single(Result<Int, ExtTestError>.success(1).publisher)
    _ = single(Deferred { Just(1) })
    _ = maybe(Empty<Int, Never>())
    _ = maybe(Optional(1).publisher)
    _ = maybe(Deferred { Empty<Int, Never>() })
    _ = maybe(Empty<Never, Never>().eraseToAnyPublisher())
    _ = immediate(Just(1))
    _ = immediate(Fail<Int, ExtTestError>(error: .upstream))
    _ = immediate(Result<Int, ExtTestError>.success(1).publisher)
    _ = immediate(Deferred { Just(1) })
    _ = immediate(Record<Int, Never>(output: [1], completion: .finished))
    _ = single(URLSession.shared.dataTaskPublisher(for: URL(string: "http://localhost")!))
  }

  @Test func reductionsAreSingles() {
    let many = [1, 2, 3].publisher
    _ = single(many.collect())
    _ = single(many.count())
    _ = single(many.reduce(0, +))
    _ = single(many.tryReduce(0, +))
    _ = single(many.allSatisfy { $0 > 0 })
    _ = single(many.tryAllSatisfy { $0 > 0 })
    _ = single(many.contains(2))
    _ = single(many.contains { $0 == 2 })
    _ = single(many.tryContains { $0 == 2 })
    _ = maybe(many.first())
    _ = maybe(many.first { $0 > 1 })
    _ = maybe(many.tryFirst { $0 > 1 })
    _ = maybe(many.last())
    _ = maybe(many.last { $0 > 1 })
    _ = maybe(many.tryLast { $0 > 1 })
    _ = maybe(many.ignoreOutput())
  }

  @Test func operatorsKeepTheirUpstreamsTrait() {
    let one = Future<Int, ExtTestError> { $0(.success(1)) }
    _ = single(one.map { $0 + 1 })
    _ = single(one.tryMap { $0 + 1 })
    _ = single(one.mapError { _ in ExtTestError.other })
    _ = single(one.flatMap { Just($0).setFailureType(to: ExtTestError.self) })
    _ = single(one.catch { _ in Just(0) })
    _ = single(one.tryCatch { _ in Just(0) })
    _ = single(one.replaceError(with: 0))
    _ = single(one.handleEvents(receiveOutput: { _ in }))
    _ = single(one.receive(on: ImmediateScheduler.shared))
    _ = single(one.subscribe(on: ImmediateScheduler.shared))
    _ = single(one.delay(for: .zero, scheduler: ImmediateScheduler.shared))
    _ = single(one.timeout(.seconds(1), scheduler: ImmediateScheduler.shared))
    _ = single(one.print())
    _ = single(one.breakpoint())
    _ = single(one.retry(1))
    _ = single(one.share())
    _ = single(Just(1).makeConnectable().autoconnect())
    _ = single(one.replaceError(with: 0).assertNoFailure())
    _ = single(Just(1).setFailureType(to: ExtTestError.self))
    _ = single(Just((1, 2)).map(\.0))
    _ = single(Just((1, 2)).map(\.0, \.1))
    _ = single(Just((1, 2, 3)).map(\.0, \.1, \.2))
    _ = single(one.zip(one))
    _ = single(one.zip(one, one))
    _ = single(one.zip(one, one, one))
    _ = single(one.combineLatest(one))
    _ = single(one.combineLatest(one, one))
    _ = single(one.combineLatest(one, one, one))
    _ = single(one.map { _ in one }.switchToLatest())
    _ = single(Empty<Int, Never>().replaceEmpty(with: 0))
    _ = single(Just(Data("1".utf8)).setFailureType(to: (any Error).self).decode(type: Int.self, decoder: JSONDecoder()))
    _ = single(Just(1).encode(encoder: JSONEncoder()))
    let none = Empty<Int, ExtTestError>()
    _ = maybe(none.filter { $0 > 0 })
    _ = maybe(none.tryFilter { $0 > 0 })
    _ = maybe(none.compactMap { $0 })
    _ = maybe(none.tryCompactMap { $0 })
    _ = maybe(none.map { $0 })
    _ = maybe(none.flatMap { _ in none })
  }

  @Test func immediateOperators() {
    let now = Just(1)
    _ = immediate(now.map { $0 })
    _ = immediate(now.tryMap { $0 })
    _ = immediate(now.first())
    _ = immediate(now.append(now))
    _ = immediate(now.merge(with: now))
    _ = immediate(now.merge(with: now, now, now, now, now, now, now))
    _ = immediate(Publishers.MergeMany([now, now]))
    _ = immediate(now.scan(0, +))
    _ = immediate(now.tryScan(0, +))
    _ = immediate(now.removeDuplicates())
    _ = immediate(now.tryRemoveDuplicates { $0 == $1 })
    _ = immediate(now.zip(now))
    _ = immediate(now.combineLatest(now))
    _ = immediate(now.flatMap { Just($0) })
    _ = immediate(now.replaceEmpty(with: 0))
  }

  @Test func conformingPipelinesPublishOneValue() {
    var results: [Result<Int, ExtTestError>] = []
    let future = Future<Int, ExtTestError> { $0(.success(2)) }
    _ = future.map { $0 * 10 }.flatMap { value in Just(value + 1).setFailureType(to: ExtTestError.self) }
      .sinkSingle { results.append($0) }
    _ = [1, 2, 3].publisher.setFailureType(to: ExtTestError.self).reduce(0, +).sinkSingle { results.append($0) }
    _ = Fail<Int, ExtTestError>(error: .upstream).catch { _ in Just(7) }.setFailureType(to: ExtTestError.self)
      .sinkSingle { results.append($0) }
    #expect(results.map { try? $0.get() } == [21, 6, 7])

    var maybes: [MaybeResult<Int, Never>] = []
    _ = [1, 2, 3].publisher.first { $0 > 5 }.sinkMaybe { maybes.append($0) }
    _ = [1, 2, 3].publisher.last().sinkMaybe { maybes.append($0) }
    _ = Optional<Int>.none.publisher.sinkMaybe { maybes.append($0) }
    expectEqual(maybes, [.finished, .success(3), .finished])
  }
}
