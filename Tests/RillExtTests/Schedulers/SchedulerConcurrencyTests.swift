import Dispatch
import Foundation
import Rill
import RillExt
import RillTestSupport
import Testing

/// A flag set from a task and read from the test.
// SAFETY: all mutable state is in `state`.
private final class Flag: @unchecked Sendable {
  private let state = Locked(false)
  var isSet: Bool { state.withLock { $0 } }
  func set() { state.withLock { $0 = true } }
}

/// Waits until `scheduler` holds `count` actions, so that a task's sleep or timer is in place before the clock moves.
private func waitForActions(on scheduler: TestSchedulerOf<DispatchQueue>, count: Int = 1) async {
  while scheduler.scheduledActionCount != count {
    await Task.yield()
  }
}

@Suite(.timeLimit(.minutes(1))) struct SchedulerConcurrencyTests {
  @Test func sleepEndsWhenTheClockReachesItsEnd() async throws {
    let scheduler = DispatchQueue.test
    let woke = Flag()
    let task = Task {
      try await scheduler.sleep(for: .seconds(1))
      woke.set()
    }
    await waitForActions(on: scheduler)
    await scheduler.advance(by: .milliseconds(999))
    #expect(!woke.isSet)
    await scheduler.advance(by: .milliseconds(1))
    try await task.value
    #expect(woke.isSet)
    // The sleep's action on the scheduler is gone once it has ended.
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func sleepUntilEndsAtTheDeadline() async throws {
    let scheduler = DispatchQueue.test
    let deadline = scheduler.now.advanced(by: .seconds(3))
    let task = Task { try await scheduler.sleep(until: deadline) }
    await waitForActions(on: scheduler)
    await scheduler.advance(to: deadline)
    try await task.value
    expectEqual(scheduler.now, deadline)
  }

  @Test func cancellingASleepingTaskThrowsAndRemovesItsAction() async {
    let scheduler = DispatchQueue.test
    let task = Task { try await scheduler.sleep(for: .seconds(10)) }
    await waitForActions(on: scheduler)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    await waitForActions(on: scheduler, count: 0)
  }

  @Test func aCancelledTaskDoesNotSleep() async {
    let scheduler = DispatchQueue.test
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await scheduler.sleep(for: .seconds(10))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func sleepOnADispatchQueueWaitsRealTime() async throws {
    let start = DispatchTime.now()
    try await DispatchQueue.global().sleep(for: .milliseconds(50))
    #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 50_000_000)
  }

  @Test func timerSendsTheTimeEveryIntervalAndStopsWhenNoLongerIterated() async {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let task = Task {
      var times: [DispatchQueue.SchedulerTimeType] = []
      for await time in scheduler.timer(interval: .seconds(1)).prefix(3) {
        times.append(time)
      }
      return times
    }
    await waitForActions(on: scheduler)
    await scheduler.advance(by: .seconds(5))
    #expect(await task.value == [1, 2, 3].map { start.advanced(by: .seconds($0)) })
    await waitForActions(on: scheduler, count: 0)
  }

  @Test func cancellingTheIteratingTaskEndsTheTimer() async {
    let scheduler = DispatchQueue.test
    let task = Task {
      var count = 0
      for await _ in scheduler.timer(interval: .seconds(1)) { count += 1 }
      return count
    }
    await waitForActions(on: scheduler)
    await scheduler.advance(by: .seconds(2))
    task.cancel()
    #expect(await task.value >= 0)
    await waitForActions(on: scheduler, count: 0)
  }

  @Test func timerOnADispatchQueueDeliversOnItsOwnThreads() async {
    var count = 0
    for await _ in DispatchQueue(label: "timer").timer(interval: .milliseconds(10)).prefix(3) {
      count += 1
    }
    expectEqual(count, 3)
  }

  @Test func measureReturnsHowFarTheClockMoved() {
    let scheduler = RunLoop.test
    let elapsed = scheduler.measure { scheduler.advance(by: 2.5) }
    expectEqual(elapsed, 2.5)
    #expect(DispatchQueue.immediate.measure {} == .zero)
  }
}
