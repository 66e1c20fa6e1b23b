import Foundation
import RillCore
import RillTestSupport
import Synchronization
import Testing

/// The per-subscriber delivery lock under load: many threads sending into subjects that feed each other through
/// their sinks, requesting and cancelling at the same time.
///
/// What Combine deadlocks on, Rill may deadlock on too, and these tests stay clear of it: two threads that feed a
/// cycle of subjects from opposite ends each hold one subscriber's lock and wait for the other's (Threading.md,
/// "Deadlocks Combine has, and Rill too"). Everything else must finish: a chain of subjects fed from many threads,
/// a cycle fed from one thread, and subscribers requesting and cancelling from other threads.
@Suite(.tags(.stress), .timeLimit(.minutes(1)))
struct DeliveryLockStressTests {
  static let threads = 8
  static let perThread = StressThreads.scaled(1_000)

  /// What the last subscriber of a chain saw, checked for overlapping calls.
  final class Tally: @unchecked Sendable {
    let values = StressLocked<[Int]>([])
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)

    func record(_ value: Int) {
      if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 { overlaps.add(1, ordering: .relaxed) }
      values.withLock { $0.append(value) }
      inside.subtract(1, ordering: .sequentiallyConsistent)
    }
  }

  /// Eight threads send into the first of three subjects, each subject's sink sending into the next: every value
  /// reaches the end once, on its own thread and before its `send` returns, one call at a time, each thread's values
  /// in order.
  @Test func aChainOfSubjectsFedFromManyThreadsDeliversEveryValueOnceInOrder() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let third = PassthroughSubject<Int, Never>()
    let tally = Tally()
    let lastSeen = StressLocked<[Int: Int]>([:])
    let links = [
      first.sink { second.send($0) },
      second.map { $0 }.sink { third.send($0) },
      third.sink { tally.record($0) },
    ]
    let finished = StressThreads.run(Self.threads) { thread in
      for index in 0..<Self.perThread {
        let value = thread * 1_000_000 + index
        first.send(value)
        // Delivered before `send` returned, whatever the other threads are doing.
        let arrived = tally.values.withLock { $0.contains(value) }
        lastSeen.withLock { $0[thread] = arrived ? index : -1 }
        if !arrived { return }
      }
    }
    #expect(finished)
    let values = tally.values.withLock { $0 }
    expectEqual(values.count, Self.threads * Self.perThread)
    expectEqual(Set(values).count, values.count)
    expectEqual(tally.overlaps.load(ordering: .relaxed), 0)
    #expect(lastSeen.withLock { $0.values.allSatisfy { $0 == Self.perThread - 1 } })
    for thread in 0..<Self.threads {
      let mine = values.filter { $0 / 1_000_000 == thread }
      expectEqual(mine, mine.sorted())
    }
    withExtendedLifetime(links) {}
  }

  /// Two subjects feed each other through their sinks, each value going round until it has made ten hops.
  ///
  /// From one thread at a time the cycle nests and finishes; it is the second thread feeding the other end at once
  /// that Combine, and Rill, can deadlock on.
  @Test func aCycleOfSubjectsFedFromOneThreadAtATimeFinishes() {
    let ping = PassthroughSubject<Int, Never>()
    let pong = PassthroughSubject<Int, Never>()
    let hops = Atomic<Int>(0)
    let links = [
      ping.sink { value in
        hops.add(1, ordering: .relaxed)
        if value % 10 != 9 { pong.send(value + 1) }
      },
      pong.sink { value in
        hops.add(1, ordering: .relaxed)
        if value % 10 != 9 { ping.send(value + 1) }
      },
    ]
    let serial = NSLock()
    let finished = StressThreads.run(4) { thread in
      for index in 0..<Self.perThread / 10 {
        serial.withLock { ping.send((thread * 100_000 + index) * 10) }
      }
    }
    #expect(finished)
    expectEqual(hops.load(ordering: .relaxed), 4 * (Self.perThread / 10) * 10)
    withExtendedLifetime(links) {}
  }

  /// Four threads send while two request one value at a time from other threads and two subscribe and cancel:
  /// no call overlaps another, no value goes beyond the demand, and after a cancel has returned at most the one value
  /// whose delivery was already under way arrives.
  ///
  /// As in Combine, a cancel does not wait for a delivery running on another thread: a send that passed the
  /// subscription's gate before the cancel ended it can still be inside the subscriber when the cancel returns.
  @Test func sendsRequestsAndCancelsFromManyThreadsKeepTheContract() {
    let subject = PassthroughSubject<Int, Never>()
    let steady = (0..<2).map { _ in StressRecorder<Int, Never>(initialDemand: .max(1)) }
    for recorder in steady { subject.subscribe(recorder) }
    let churned = StressLocked<[StressRecorder<Int, Never>]>([])
    let sent = StressLocked(0)
    let finished = StressThreads.run(8) { thread in
      switch thread {
      case 0..<4:
        for index in 0..<Self.perThread { subject.send(thread * 1_000_000 + index) }
        sent.withLock { $0 += 1 }
      case 4..<6:
        let recorder = steady[thread - 4]
        while sent.withLock({ $0 }) < 4 { recorder.request(.max(1)) }
      default:
        for _ in 0..<Self.perThread / 10 {
          let recorder = StressRecorder<Int, Never>(initialDemand: .unlimited)
          subject.subscribe(recorder)
          recorder.cancel()
          churned.withLock { $0.append(recorder) }
        }
      }
    }
    #expect(finished)
    subject.send(completion: .finished)
    for recorder in steady + churned.withLock({ $0 }) {
      expectEqual(recorder.violations, [])
      #expect(recorder.eventsAfterCancel <= 1)
    }
    for recorder in steady { #expect(recorder.completions == 1) }
  }
}
