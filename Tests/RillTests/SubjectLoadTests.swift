import Dispatch
import Foundation
import Rill
import RillTestSupport
import RillTesting
import Testing

/// Heavy loads on a subject: many values sent behind a subscriber without demand, re-entrant or from several
/// threads, on the main thread and on Dispatch threads.
///
/// A value that finds no demand is dropped at once, as in Combine, so no count of values grows the stack or a
/// queue.
@Suite(.tags(.stress), .timeLimit(.minutes(1)))
struct SubjectLoadTests {
  /// A subscriber that asks for one value and, inside `receive(_:)` for the first, sends `count` more into the
  /// subject it is subscribed to.
  static func sendsFromInsideItsFirstValue(count: Int) -> [Int] {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { _, value in
        if value == 0 { for next in 1...count { subject.send(next) } }
        return .none
      }
    )
    subject.subscribe(recorder)
    subject.send(0)
    return recorder.values
  }

  @Test func reentrantSendsWithoutDemandOnADispatchThread() {
    let values = DispatchQueue.global().sync { Self.sendsFromInsideItsFirstValue(count: 100_000) }
    expectEqual(values, [0])
  }

  @Test @MainActor func reentrantSendsWithoutDemandOnTheMainThread() {
    expectEqual(Self.sendsFromInsideItsFirstValue(count: 100_000), [0])
  }

  /// Four producers send 1,500 values each into a subscriber that asks for one value, through an operator that
  /// hops or holds values.
  @Test(arguments: ["buffer", "delay", "receive(on:)"])
  func producersBehindASubscriberOfOneValueThroughAnOperator(operator name: String) {
    let subject = PassthroughSubject<Int, Never>()
    let queue = DispatchQueue(label: "rill.tests.subject-load")
    let publisher: AnyPublisher<Int, Never> =
      switch name {
      case "buffer": subject.buffer(size: 10, prefetch: .byRequest, whenFull: .dropOldest).eraseToAnyPublisher()
      case "delay": subject.delay(for: .milliseconds(1), scheduler: queue).eraseToAnyPublisher()
      default: subject.receive(on: queue).eraseToAnyPublisher()
      }
    let received = DispatchSemaphore(value: 0)
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { _, _ in
        received.signal()
        return .none
      }
    )
    publisher.subscribe(recorder)
    #expect(StressThreads.run(4) { producer in for index in 0..<1_500 { subject.send(producer * 1_500 + index) } })
    expectEqual(received.wait(timeout: .now() + 10), .success)
    // Whatever else was in flight on the queue has been delivered or dropped once the queue is idle.
    queue.sync {}
    expectEqual(recorder.values.count, 1)
    recorder.cancel()
  }
}
