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

  @Test func theTraitOperatorsLeaveCombinesAlone() {
    let future = Future<Int, ExtTestError> { $0(.success(1)) }
    let empty = Empty<Int, ExtTestError>()
    // `replaceEmpty(with:)` stays Combine's; `replaceEmpty(withError:)` is the trait operator.
    let _: Publishers.ReplaceEmpty<Empty<Int, ExtTestError>> = empty.replaceEmpty(with: 0)
    let _: AnySinglePublisher<Int, ExtTestError> = empty.replaceEmpty(withError: .other)
    // Combine's `zip` and CombineExt's `Collection.zip()` keep their types next to `zipSingle()`.
    let _: Publishers.Zip<Future<Int, ExtTestError>, Future<Int, ExtTestError>> = future.zip(future)
    let _: AnyPublisher<[Int], ExtTestError> = [future, future].zip()
    let _: TraitPublishers.ZipSingle<[Future<Int, ExtTestError>]> = [future, future].zipSingle()
    // The operators applied to the trait publishers are still Combine's.
    let _: Publishers.Map<TraitPublishers.PreventCancellation<Future<Int, ExtTestError>>, Int> =
      future.preventCancellation().map { $0 + 1 }
    let single = TraitPublishers.Single<Int, ExtTestError> { promise in
      promise(.success(1))
      return AnyCancellable {}
    }
    let _: Publishers.FlatMap<TraitPublishers.Single<Int, ExtTestError>, TraitPublishers.Single<Int, ExtTestError>> =
      single.flatMap { _ in single }
    let _: Publishers.MapError<TraitPublishers.Single<Int, ExtTestError>, ExtTestError> = single.mapError { $0 }
    let _: AnySinglePublisher<Int, ExtTestError> = single.map { $0 * 2 }.eraseToAnySinglePublisher()
    let _: AnyMaybePublisher<Int, ExtTestError> =
      TraitPublishers.Maybe<Int, ExtTestError> { _ in AnyCancellable {} }.filter { $0 > 0 }.eraseToAnyMaybePublisher()
  }
}
