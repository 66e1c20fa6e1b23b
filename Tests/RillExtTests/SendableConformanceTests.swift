import Dispatch
import RillExt
import RillTestSupport
import Testing

/// Compiles only for `Sendable` values; the values that must not be `Sendable` are in Tests/RillCompileFailures.
private func sendable<T: Sendable>(_ value: T) -> T { value }

/// RillExt's subjects, relays and handles are `Sendable` when what they carry is.
@Suite(.timeLimit(.minutes(1)))
struct ExtSendableConformanceTests {
  @Test func aReplaySubjectOfSendableValuesCrossesIntoATask() async {
    let subject = sendable(ReplaySubject<Int, Never>(bufferSize: 2))
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    // `values` asks for one value at a time: as with CombineExt's replay subject, the completion follows the first
    // value asked for, and drops the other.
    let received = await Task.detached { await subject.values.reduce(into: []) { $0.append($1) } }.value
    expectEqual(received, [1])
  }

  @Test func relaysOfSendableValuesCrossIntoATask() async {
    let current = sendable(CurrentValueRelay(1))
    let passthrough = sendable(PassthroughRelay<Int>())
    await Task.detached {
      current.accept(2)
      passthrough.accept(3)
    }.value
    expectEqual(current.value, 2)
  }

  @Test func aCreateSubscriberOfSendableValuesIsSendable() {
    var received: [Int] = []
    let cancellable = AnyPublisher<Int, Never> { subscriber in
      let handle = sendable(subscriber)
      handle.send(1)
      handle.send(completion: .finished)
      return AnyCancellable {}
    }.sink { received.append($0) }
    expectEqual(received, [1])
    cancellable.cancel()
  }

  @Test func aTimerOnASendableSchedulerIsSendable() {
    _ = sendable(DispatchQueue.main.timerPublisher(every: .seconds(1)))
  }
}
