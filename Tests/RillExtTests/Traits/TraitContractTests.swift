import Dispatch
import Rill
import RillExt
import RillTesting
import Testing

/// RillTesting's contract checker on the trait publishers and operators, under every standard demand plan: the
/// ones that keep their promise and, for the checks, the ones that break it and fail instead.
@Suite struct TraitContractTests {
  @Test func checks() {
    expectContract("checkSingle, one value") { Just(1).setFailureType(to: ExtTestError.self).checkSingle() }
    expectContract("checkSingle, two values") { [1, 2].publisher.checkSingle() }
    expectContract("checkSingle, no value") { Empty<Int, Never>().checkSingle() }
    expectContract("checkMaybe, no value") { Empty<Int, Never>().checkMaybe() }
    expectContract("checkMaybe, two values") { [1, 2].publisher.checkMaybe() }
    expectContract("checkImmediate, immediate") { Just(1).checkImmediate() }
    expectContract("checkImmediate, late") {
      let upstream = TestPublisher<Int, Never>()
      return upstream.checkImmediate()
    }
  }

  @Test func assertions() {
    expectContract("assertSingle") { Just(1).eraseToAnyPublisher().assertSingle() }
    expectContract("assertMaybe") { Empty<Int, Never>().eraseToAnyPublisher().assertMaybe() }
    expectContract("assertImmediate") { Just(1).eraseToAnyPublisher().assertImmediate() }
  }

  @Test func erasedAndUnchecked() {
    expectContract("uncheckedSingle") { Just(1).eraseToAnyPublisher().uncheckedSingle() }
    expectContract("uncheckedMaybe") { Empty<Int, Never>().eraseToAnyPublisher().uncheckedMaybe() }
    expectContract("uncheckedImmediate") { Just(1).eraseToAnyPublisher().uncheckedImmediate() }
    expectContract("eraseToAnySinglePublisher") { Just(1).eraseToAnySinglePublisher() }
    expectContract("eraseToAnyMaybePublisher") { Empty<Int, Never>().eraseToAnyMaybePublisher() }
    expectContract("eraseToAnyImmediatePublisher") { Just(1).eraseToAnyImmediatePublisher() }
    expectContract("AnySinglePublisher.just") { AnySinglePublisher.just(1) }
    expectContract("AnySinglePublisher.fail") { AnySinglePublisher<Int, ExtTestError>.fail(.upstream) }
    expectContract("AnyMaybePublisher.empty") { AnyMaybePublisher<Int, Never>.empty() }
    expectContract("AnyMaybePublisher.never") { AnyMaybePublisher<Int, Never>.never() }
  }

  @Test func mapToVoidAndTheTimer() {
    expectContract("mapToVoid") { [1, 2, 3].publisher.mapToVoid() }
    let scheduler = DispatchQueue.test
    expectContract(
      "timerPublisher",
      { scheduler.timerPublisher(every: .seconds(1)).autoconnect() },
      drive: { _ in scheduler.advance(by: .seconds(3)) }
    )
  }
}
