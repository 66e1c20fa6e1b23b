import RillTestSupport
import RillTesting
import Testing

@Suite struct TestSchedulerTests {
  @Test func strideUnits() {
    typealias Stride = TestScheduler.SchedulerTimeType.Stride
    expectEqual(Stride.seconds(1).ticks, 1_000_000_000)
    expectEqual(Stride.seconds(0.5).ticks, 500_000_000)
    expectEqual(Stride.milliseconds(2).ticks, 2_000_000)
    expectEqual(Stride.microseconds(3).ticks, 3_000)
    expectEqual(Stride.nanoseconds(4).ticks, 4)
    expectEqual((5 as Stride).ticks, 5)
    expectEqual((1.5 as Stride).ticks, 1_500_000_000)
    expectEqual(-Stride(3), Stride(-3))
    expectEqual(Stride(-3).magnitude, 3)
    expectEqual(Stride(2) * 3, 6)
    let start: TestScheduler.SchedulerTimeType = 10
    expectEqual(start.advanced(by: 5), 15)
    expectEqual(start.distance(to: 4), -6)
  }

  @Test func runsActionsInDateOrderAsTheClockAdvances() {
    let scheduler = TestScheduler()
    var log: [String] = []
    scheduler.schedule(after: 3) { log.append("3@\(scheduler.now)") }
    scheduler.schedule(after: 1) { log.append("1@\(scheduler.now)") }
    scheduler.schedule { log.append("now@\(scheduler.now)") }
    #expect(log.isEmpty)
    expectEqual(scheduler.scheduledActionCount, 3)
    scheduler.advance()
    expectEqual(log, ["now@0"])
    scheduler.advance(by: 2)
    expectEqual(log, ["now@0", "1@1"])
    expectEqual(scheduler.now, 2)
    scheduler.advance(to: 10)
    expectEqual(log, ["now@0", "1@1", "3@3"])
    expectEqual(scheduler.now, 10)
  }

  @Test func sameInstantRunsFirstInFirstOut() {
    let scheduler = TestScheduler()
    var log: [Int] = []
    for index in 0..<5 {
      scheduler.schedule(after: 2) { log.append(index) }
    }
    scheduler.schedule(after: 1) { log.append(-1) }
    scheduler.advance(by: 2)
    expectEqual(log, [-1, 0, 1, 2, 3, 4])
  }

  @Test func actionsScheduledDuringAdvanceRunIfDue() {
    let scheduler = TestScheduler(now: 100)
    var log: [Int] = []
    scheduler.schedule(after: 101) {
      log.append(scheduler.now.ticks)
      scheduler.schedule { log.append(scheduler.now.ticks) }
      scheduler.schedule(after: scheduler.now.advanced(by: 2)) { log.append(scheduler.now.ticks) }
      scheduler.schedule(after: scheduler.now.advanced(by: 50)) { log.append(scheduler.now.ticks) }
    }
    scheduler.advance(by: 5)
    expectEqual(log, [101, 101, 103])
    expectEqual(scheduler.now, 105)
    scheduler.run()
    expectEqual(log, [101, 101, 103, 151])
    expectEqual(scheduler.now, 151)
  }

  @Test func pastDatesRunNowAndTheClockNeverGoesBack() {
    let scheduler = TestScheduler(now: 10)
    var log: [Int] = []
    scheduler.schedule { log.append(0) }
    scheduler.schedule(after: 3) { log.append(scheduler.now.ticks) }
    scheduler.advance(to: 5)
    expectEqual(log, [0, 10])
    expectEqual(scheduler.now, 10)
  }

  @Test func repeatingActionsRunUntilCancelled() {
    let scheduler = TestScheduler()
    var times: [Int] = []
    let cancellable = scheduler.schedule(after: 2, interval: 3) { times.append(scheduler.now.ticks) }
    scheduler.advance(by: 10)
    expectEqual(times, [2, 5, 8])
    cancellable.cancel()
    scheduler.advance(by: 10)
    expectEqual(times, [2, 5, 8])
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func repeatingActionCanCancelItselfWhileRunning() {
    let scheduler = TestScheduler()
    var count = 0
    var cancellable: (any Cancellable)?
    cancellable = scheduler.schedule(after: 0, interval: 1) {
      count += 1
      if count == 3 { cancellable?.cancel() }
    }
    scheduler.advance(by: 100)
    expectEqual(count, 3)
    _ = cancellable
  }

  @Test func releasingTheRepeatingCancellableCancels() {
    let scheduler = TestScheduler()
    var count = 0
    _ = scheduler.schedule(after: 0, interval: 1) { count += 1 }
    scheduler.advance(by: 5)
    expectEqual(count, 0)
  }

  @Test func zeroIntervalCountsAsOneTick() {
    let scheduler = TestScheduler()
    var count = 0
    let cancellable = scheduler.schedule(after: 0, interval: 0) { count += 1 }
    scheduler.advance(by: 4)
    expectEqual(count, 5)
    cancellable.cancel()
  }

  @Test func runStopsAfterMaxActions() {
    let scheduler = TestScheduler()
    var count = 0
    let cancellable = scheduler.schedule(after: 0, interval: .seconds(1)) { count += 1 }
    scheduler.run(maxActions: 4)
    expectEqual(count, 4)
    expectEqual(scheduler.now, TestScheduler.SchedulerTimeType(3_000_000_000))
    cancellable.cancel()
  }

  @Test func concurrentSchedulingIsSafe() async {
    let scheduler = TestScheduler()
    let counter = TestSubscriber<Int, Never>()
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<8 {
        group.addTask {
          for step in 0..<100 {
            scheduler.schedule(after: .init(step)) { _ = counter.receive(index) }
          }
        }
      }
    }
    await scheduler.run()
    expectEqual(counter.values.count, 800)
  }

  /// The `async` advance lets a task that awaits a publisher's `values` take each value, and ask for the next,
  /// before the clock moves on. (`values` asks for one value at a time, so a subject's value sent before the loop
  /// asked again would be dropped, as in Combine.)
  @Test func asyncAdvanceLetsAnAwaitingTaskTakeEachValue() async {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let seen = TestSubscriber<Int, Never>()
    let loop = Task {
      for await value in subject.delay(for: 10, scheduler: scheduler).values {
        _ = seen.receive(value)
      }
      seen.receive(completion: .finished)
    }
    await scheduler.advance()
    for value in 1...3 {
      subject.send(value)
      await scheduler.advance(by: 9)
      expectEqual(seen.values, Array(1..<value))
      await scheduler.advance(by: 1)
      expectEqual(seen.values, Array(1...value))
    }
    subject.send(completion: .finished)
    await scheduler.run()
    await loop.value
    expectEqual(seen.values, [1, 2, 3])
    expectEqual(scheduler.now, 40)
  }
}
