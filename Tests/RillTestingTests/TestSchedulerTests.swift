import RillTesting
import Testing

@Suite struct TestSchedulerTests {
  @Test func strideUnits() {
    typealias Stride = TestScheduler.SchedulerTimeType.Stride
    #expect(Stride.seconds(1).ticks == 1_000_000_000)
    #expect(Stride.seconds(0.5).ticks == 500_000_000)
    #expect(Stride.milliseconds(2).ticks == 2_000_000)
    #expect(Stride.microseconds(3).ticks == 3_000)
    #expect(Stride.nanoseconds(4).ticks == 4)
    #expect((5 as Stride).ticks == 5)
    #expect((1.5 as Stride).ticks == 1_500_000_000)
    #expect(-Stride(3) == Stride(-3))
    #expect(Stride(-3).magnitude == 3)
    #expect(Stride(2) * 3 == 6)
    let start: TestScheduler.SchedulerTimeType = 10
    #expect(start.advanced(by: 5) == 15)
    #expect(start.distance(to: 4) == -6)
  }

  @Test func runsActionsInDateOrderAsTheClockAdvances() {
    let scheduler = TestScheduler()
    var log: [String] = []
    scheduler.schedule(after: 3) { log.append("3@\(scheduler.now)") }
    scheduler.schedule(after: 1) { log.append("1@\(scheduler.now)") }
    scheduler.schedule { log.append("now@\(scheduler.now)") }
    #expect(log.isEmpty)
    #expect(scheduler.scheduledActionCount == 3)
    scheduler.advance()
    #expect(log == ["now@0"])
    scheduler.advance(by: 2)
    #expect(log == ["now@0", "1@1"])
    #expect(scheduler.now == 2)
    scheduler.advance(to: 10)
    #expect(log == ["now@0", "1@1", "3@3"])
    #expect(scheduler.now == 10)
  }

  @Test func sameInstantRunsFirstInFirstOut() {
    let scheduler = TestScheduler()
    var log: [Int] = []
    for index in 0..<5 {
      scheduler.schedule(after: 2) { log.append(index) }
    }
    scheduler.schedule(after: 1) { log.append(-1) }
    scheduler.advance(by: 2)
    #expect(log == [-1, 0, 1, 2, 3, 4])
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
    #expect(log == [101, 101, 103])
    #expect(scheduler.now == 105)
    scheduler.run()
    #expect(log == [101, 101, 103, 151])
    #expect(scheduler.now == 151)
  }

  @Test func pastDatesRunNowAndTheClockNeverGoesBack() {
    let scheduler = TestScheduler(now: 10)
    var log: [Int] = []
    scheduler.schedule { log.append(0) }
    scheduler.schedule(after: 3) { log.append(scheduler.now.ticks) }
    scheduler.advance(to: 5)
    #expect(log == [0, 10])
    #expect(scheduler.now == 10)
  }

  @Test func repeatingActionsRunUntilCancelled() {
    let scheduler = TestScheduler()
    var times: [Int] = []
    let cancellable = scheduler.schedule(after: 2, interval: 3) { times.append(scheduler.now.ticks) }
    scheduler.advance(by: 10)
    #expect(times == [2, 5, 8])
    cancellable.cancel()
    scheduler.advance(by: 10)
    #expect(times == [2, 5, 8])
    #expect(scheduler.scheduledActionCount == 0)
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
    #expect(count == 3)
    _ = cancellable
  }

  @Test func releasingTheRepeatingCancellableCancels() {
    let scheduler = TestScheduler()
    var count = 0
    _ = scheduler.schedule(after: 0, interval: 1) { count += 1 }
    scheduler.advance(by: 5)
    #expect(count == 0)
  }

  @Test func zeroIntervalCountsAsOneTick() {
    let scheduler = TestScheduler()
    var count = 0
    let cancellable = scheduler.schedule(after: 0, interval: 0) { count += 1 }
    scheduler.advance(by: 4)
    #expect(count == 5)
    cancellable.cancel()
  }

  @Test func runStopsAfterMaxActions() {
    let scheduler = TestScheduler()
    var count = 0
    let cancellable = scheduler.schedule(after: 0, interval: .seconds(1)) { count += 1 }
    scheduler.run(maxActions: 4)
    #expect(count == 4)
    #expect(scheduler.now == TestScheduler.SchedulerTimeType(3_000_000_000))
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
    #expect(counter.values.count == 800)
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
      #expect(seen.values == Array(1..<value))
      await scheduler.advance(by: 1)
      #expect(seen.values == Array(1...value))
    }
    subject.send(completion: .finished)
    await scheduler.run()
    await loop.value
    #expect(seen.values == [1, 2, 3])
    #expect(scheduler.now == 40)
  }
}
