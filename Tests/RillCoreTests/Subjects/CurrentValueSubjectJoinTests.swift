import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

/// A subscriber of a `CurrentValueSubject` that asks for values while a send is reaching the subscribers gets each
/// value once: as the current value or from the send, never both.
@Suite struct CurrentValueSubjectJoinTests {
  /// A subscriber beyond the first 64 asks for values from inside the send's delivery to the first subscriber: it
  /// gets the value in flight as the current value, and the send, which reaches it later, does not repeat it.
  @Test func aRequestDuringASendGetsTheValueOnce() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let late = TestSubscriber<Int, Never>(initialDemand: .none)
    let trigger = TestSubscriber<Int, Never>(onValue: { _, value in
      if value == 1 { late.request(.unlimited) }
      return .none
    })
    subject.subscribe(trigger)
    let others = (0..<70).map { _ in TestSubscriber<Int, Never>() }
    for other in others { subject.subscribe(other) }
    subject.subscribe(late)
    subject.send(1)
    expectEqual(late.values, [1])
    subject.send(2)
    expectEqual(late.values, [1, 2])
    #expect(others.allSatisfy { $0.values == [0, 1, 2] })
  }

  /// The same through the `value` setter.
  @Test func aRequestDuringAValueChangeGetsTheValueOnce() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let late = TestSubscriber<Int, Never>(initialDemand: .none)
    let trigger = TestSubscriber<Int, Never>(onValue: { _, value in
      if value == 1 { late.request(.max(1)) }
      return .none
    })
    subject.subscribe(trigger)
    let others = (0..<70).map { _ in TestSubscriber<Int, Never>() }
    for other in others { subject.subscribe(other) }
    subject.subscribe(late)
    subject.value = 1
    expectEqual(late.values, [1])
    late.request(.max(1))
    expectEqual(late.values, [1])
    subject.value = 2
    expectEqual(late.values, [1, 2])
  }

  /// Subscribers join, beyond the first 64, and ask for values while another thread sends rising values: each sees
  /// rising values, none twice.
  @Test(.tags(.stress), .timeLimit(.minutes(1))) func subscribersJoiningDuringSendsSeeEachValueOnce() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let crowd = (0..<100).map { _ in TestSubscriber<Int, Never>() }
    for subscriber in crowd { subject.subscribe(subscriber) }
    let joins = StressThreads.scaled(2_000)
    let done = StressLocked(false)
    let repeated = StressLocked([[Int]]())
    let finished = StressThreads.run(2) { index in
      if index == 0 {
        var value = 0
        while !done.withLock({ $0 }) {
          value += 1
          subject.send(value)
        }
      } else {
        for _ in 0..<joins {
          let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
          subject.subscribe(subscriber)
          subscriber.request(.unlimited)
          subscriber.cancel()
          let values = subscriber.values
          if !zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) { repeated.withLock { $0.append(values) } }
        }
        done.withLock { $0 = true }
      }
    }
    #expect(finished)
    #expect(repeated.withLock { $0 }.isEmpty, "\(repeated.withLock { $0.prefix(3) })")
    #expect(crowd.allSatisfy { $0.values.count == $0.values.last.map { $0 + 1 } })
  }
}
