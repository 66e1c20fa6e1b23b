import Rill
import RillExt
import Testing

/// With both `Rill` and `RillExt` imported, Combine's operators on trait publishers still return Combine's types:
/// the traits come from conformances, never from overloads that would shadow Combine's methods.
@Suite struct TraitCollisionTests {
  @Test func combinesOperatorsKeepTheirTypes() {
    let subject = PassthroughSubject<Int, ExtTestError>()
    let future = Future<Int, ExtTestError> { $0(.success(1)) }
    let _: Publishers.First<PassthroughSubject<Int, ExtTestError>> = subject.first()
    let _: Publishers.Last<PassthroughSubject<Int, ExtTestError>> = subject.last()
    let _: Publishers.Map<Future<Int, ExtTestError>, Int> = future.map { $0 + 1 }
    let _: Publishers.TryMap<Future<Int, ExtTestError>, Int> = future.tryMap { $0 + 1 }
    let _: Publishers.MapError<Future<Int, ExtTestError>, ExtTestError> = future.mapError { _ in .other }
    let _: Publishers.FlatMap<Future<Int, ExtTestError>, Future<Int, ExtTestError>> = future.flatMap { _ in future }
    let _: Publishers.ReplaceEmpty<Future<Int, ExtTestError>> = future.replaceEmpty(with: 0)
    let _: Publishers.ReplaceError<Future<Int, ExtTestError>> = future.replaceError(with: 0)
    let _: Publishers.Catch<Future<Int, ExtTestError>, Just<Int>> = future.catch { _ in Just(0) }
    let _: Publishers.Reduce<PassthroughSubject<Int, ExtTestError>, Int> = subject.reduce(0, +)
    let _: Publishers.Collect<PassthroughSubject<Int, ExtTestError>> = subject.collect()
    let _: Publishers.Count<PassthroughSubject<Int, ExtTestError>> = subject.count()
    let _: AnyPublisher<Int, ExtTestError> = future.eraseToAnyPublisher()
    let _: AnySinglePublisher<Int, ExtTestError> = future.map { $0 + 1 }.eraseToAnySinglePublisher()
  }
}
