import Dispatch
import Foundation
import Rill
import RillExt
import RillTestSupport
import RillTesting
import Synchronization
import Testing

private final class Counter: Sendable {
  let count = Atomic<Int>(0)
}

@Suite struct VirtualTimeSchedulerTests {
  @Test func runsActionsInDateOrderThenSchedulingOrder() {
    let scheduler = DispatchQueue.test
    var order: [String] = []
    let start = scheduler.now
    scheduler.schedule(after: start.advanced(by: .seconds(2))) { order.append("b2") }
    scheduler.schedule(after: start.advanced(by: .seconds(1))) { order.append("a1") }
    scheduler.schedule(after: start.advanced(by: .seconds(2))) { order.append("c2") }
    scheduler.schedule { order.append("now") }
    expectEqual(order, [])
    scheduler.advance()
    expectEqual(order, ["now"])
    scheduler.advance(by: .seconds(2))
    expectEqual(order, ["now", "a1", "b2", "c2"])
    expectEqual(scheduler.now, start.advanced(by: .seconds(2)))
  }

  @Test func advanceToMovesTheClockToEachActionsDate() {
    let scheduler = RunLoop.test
    var seen: [RunLoop.SchedulerTimeType] = []
    let start = scheduler.now
    expectEqual(start.date, Date(timeIntervalSince1970: 0))
    scheduler.schedule(after: start.advanced(by: 1.5)) { seen.append(scheduler.now) }
    scheduler.advance(to: start.advanced(by: 4))
    expectEqual(seen, [start.advanced(by: 1.5)])
    expectEqual(scheduler.now, start.advanced(by: 4))
    // The clock never runs backwards; a past date means now.
    scheduler.advance(to: start)
    expectEqual(scheduler.now, start.advanced(by: 4))
    scheduler.schedule(after: start) { seen.append(scheduler.now) }
    scheduler.advance()
    expectEqual(seen, [start.advanced(by: 1.5), start.advanced(by: 4)])
  }

  @Test func actionsScheduledByActionsRunInTheSameAdvance() {
    let scheduler = OperationQueue.test
    var order: [Int] = []
    scheduler.schedule(after: scheduler.now.advanced(by: 1)) {
      order.append(1)
      scheduler.schedule(after: scheduler.now.advanced(by: 1)) { order.append(2) }
      scheduler.schedule { order.append(3) }
    }
    scheduler.advance(by: 2)
    expectEqual(order, [1, 3, 2])
  }

  @Test func repeatingActionsRunEveryIntervalUntilCancelled() {
    let scheduler = DispatchQueue.test
    var ticks: [Int] = []
    let start = scheduler.now
    let cancellable = scheduler.schedule(after: start.advanced(by: .seconds(1)), interval: .seconds(2)) {
      ticks.append(Int(start.distance(to: scheduler.now).magnitude / 1_000_000_000))
    }
    scheduler.advance(by: .seconds(6))
    expectEqual(ticks, [1, 3, 5])
    expectEqual(scheduler.scheduledActionCount, 1)
    cancellable.cancel()
    expectEqual(scheduler.scheduledActionCount, 0)
    scheduler.advance(by: .seconds(10))
    expectEqual(ticks, [1, 3, 5])
  }

  @Test func aRepeatingActionCanCancelItself() {
    let scheduler = DispatchQueue.test
    var count = 0
    var cancellable: (any Cancellable)?
    cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
      count += 1
      if count == 3 { cancellable?.cancel() }
    }
    scheduler.advance(by: .seconds(100))
    expectEqual(count, 3)
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  /// A zero interval, which `debounce(for: 0)` and `timeout(0)` ask for, repeats a nanosecond later instead of
  /// trapping.
  @Test func aZeroIntervalDebounceCoalescesToTheNextInstant() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    let cancellable = subject.debounce(for: 0, scheduler: scheduler).sink { values.append($0) }
    subject.send(1)
    subject.send(2)
    scheduler.advance()
    expectEqual(values, [2])
    cancellable.cancel()
  }

  @Test func releasingTheCancellableCancelsAndFreesTheAction() {
    let scheduler = DispatchQueue.test
    weak var captured: AnyObject?
    var count = 0
    do {
      let object = NSObject()
      captured = object
      let cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
        _ = object
        count += 1
      }
      scheduler.advance(by: .seconds(1))
      _ = cancellable
    }
    expectEqual(count, 2)
    #expect(captured == nil)
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func runDrainsTheQueue() {
    let scheduler = DispatchQueue.test
    var order: [Int] = []
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { order.append(10) }
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) {
      order.append(5)
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(20))) { order.append(25) }
    }
    scheduler.run()
    expectEqual(order, [5, 10, 25])
    #expect(
      scheduler.now == DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)).advanced(by: .seconds(25))
    )
  }

  @Test func drivesTimeOperators() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    let cancellable = subject.delay(for: .seconds(1), scheduler: scheduler).sink { values.append($0) }
    subject.send(1)
    scheduler.advance(by: .milliseconds(999))
    expectEqual(values, [])
    scheduler.advance(by: .milliseconds(1))
    expectEqual(values, [1])
    cancellable.cancel()
  }

  @Test func immediateSchedulersRunAtOnceWithAFixedClock() {
    var values: [Int] = []
    let cancellable = [1, 2, 3].publisher
      .receive(on: DispatchQueue.immediate)
      .delay(for: .seconds(5), scheduler: RunLoop.immediate)
      .subscribe(on: OperationQueue.immediate)
      .sink { values.append($0) }
    expectEqual(values, [1, 2, 3])
    cancellable.cancel()
    let immediate = DispatchQueue.immediate
    var ran = 0
    _ = immediate.schedule(after: immediate.now.advanced(by: .seconds(9)), interval: .seconds(1)) { ran += 1 }
    expectEqual(ran, 1)
    expectEqual(immediate.now, DispatchQueue.immediate.now)
  }

  @Test func coexistsWithCombinesAndRillTestingsSchedulerNames() {
    // Both names resolve unambiguously with Rill, RillExt and RillTesting imported.
    let ticks = TestScheduler()
    let combines = ImmediateScheduler.shared
    var ran = 0
    combines.schedule { ran += 1 }
    ticks.schedule { ran += 1 }
    ticks.advance()
    expectEqual(ran, 2)
  }

  @Test(.tags(.stress)) func schedulingFromManyThreadsLosesNothing() {
    let scheduler = DispatchQueue.test
    let counter = Counter()
    DispatchQueue.concurrentPerform(iterations: 1_000) { index in
      scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(index % 10))) {
        counter.count.add(1, ordering: .relaxed)
      }
    }
    scheduler.advance(by: .seconds(1))
    expectEqual(counter.count.load(ordering: .relaxed), 1_000)
  }

  /// The `async` advance lets a task that awaits a publisher's `values` take each value, and ask for the next,
  /// before the clock moves on.
  @MainActor
  @Test func asyncAdvanceLetsAnAwaitingTaskTakeEachValue() async {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let seen = TestSubscriber<Int, Never>()
    let loop = Task.detached {
      for await value in subject.receive(on: scheduler).values {
        _ = seen.receive(value)
      }
      seen.receive(completion: .finished)
    }
    await scheduler.advance()
    for value in 1...3 {
      subject.send(value)
      expectEqual(seen.values, Array(1..<value))
      await scheduler.advance()
      expectEqual(seen.values, Array(1...value))
    }
    subject.send(completion: .finished)
    await scheduler.run()
    await loop.value
    expectEqual(seen.values, [1, 2, 3])
  }
}
