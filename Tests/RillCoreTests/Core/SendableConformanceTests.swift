import RillCore
import RillTestSupport
import Testing

/// Compiles only for `Sendable` values; the values that must not be `Sendable` are in Tests/RillCompileFailures.
private func sendable<T: Sendable>(_ value: T) -> T { value }

/// Where a publisher is `Sendable`, it is so for everything it can hold; these are the cases that hold.
@Suite struct SendableConformanceTests {
  @Test func aFutureOfASendableValueIsSendable() async {
    let future = sendable(Future<Int, Never> { $0(.success(1)) })
    let value = await Task.detached { await future.value }.value
    expectEqual(value, 1)
  }

  @Test func aShareOfASendableUpstreamAndValuesIsSendable() {
    let shared = sendable(Just(1).share())
    var received: [Int] = []
    let cancellable = shared.sink { received.append($0) }
    expectEqual(received, [1])
    cancellable.cancel()
  }

  @Test func publishersOfSendablePartsAreSendable() {
    _ = sendable(Just(1))
    _ = sendable([1, 2].publisher)
    _ = sendable(Record<Int, Never>(output: [1], completion: .finished))
    _ = sendable(Just(1).count())
  }
}
