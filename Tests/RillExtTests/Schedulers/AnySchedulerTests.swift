import Dispatch
import Foundation
import Rill
import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct AnySchedulerTests {
  /// The shape a view model takes: a scheduler it does not know the type of.
  final class Debouncer {
    let scheduler: AnySchedulerOf<DispatchQueue>
    var seen: [String] = []
    var cancellable: AnyCancellable?

    init(_ input: PassthroughSubject<String, Never>, scheduler: AnySchedulerOf<DispatchQueue> = .main) {
      self.scheduler = scheduler
      cancellable = input.debounce(for: .milliseconds(300), scheduler: scheduler).sink { [unowned self] in
        self.seen.append($0)
      }
    }
  }

  @Test func aViewModelTakesAVirtualSchedulerInATest() {
    let scheduler = DispatchQueue.test
    let input = PassthroughSubject<String, Never>()
    let model = Debouncer(input, scheduler: scheduler.eraseToAnyScheduler())
    input.send("r")
    scheduler.advance(by: .milliseconds(100))
    input.send("ri")
    scheduler.advance(by: .milliseconds(299))
    expectEqual(model.seen, [])
    scheduler.advance(by: .milliseconds(1))
    expectEqual(model.seen, ["ri"])
  }

  @Test func forwardsNowToleranceAndEveryScheduleMethod() {
    let wrapped = DispatchQueue.test
    let erased = AnySchedulerOf<DispatchQueue>(wrapped)
    expectEqual(erased.now, wrapped.now)
    expectEqual(erased.minimumTolerance, wrapped.minimumTolerance)
    var order: [String] = []
    erased.schedule(after: erased.now.advanced(by: .seconds(2))) { order.append("after") }
    let repeating = erased.schedule(after: erased.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
      order.append("every")
    }
    erased.schedule { order.append("now") }
    expectEqual(wrapped.scheduledActionCount, 3)
    wrapped.advance(by: .seconds(2))
    // At the second second both are due; "after" was scheduled first.
    expectEqual(order, ["now", "every", "after", "every"])
    expectEqual(erased.now, wrapped.now)
    repeating.cancel()
    wrapped.advance(by: .seconds(5))
    expectEqual(order, ["now", "every", "after", "every"])
    expectEqual(wrapped.scheduledActionCount, 0)
  }

  /// The closures are `@Sendable`: what they record goes through a lock.
  @Test func theClosureInitializerCallsEachClosure() {
    let log = CallLog()
    let erased = AnySchedulerOf<RillTesting.TestScheduler>(
      minimumTolerance: { 7 },
      now: { 42 },
      scheduleImmediately: { _, action in
        log.append("immediately")
        action()
      },
      delayed: { date, tolerance, _, action in
        log.append("delayed(\(date.ticks), \(tolerance.ticks))")
        action()
      },
      interval: { date, interval, tolerance, _, action in
        log.append("interval(\(date.ticks), \(interval.ticks), \(tolerance.ticks))")
        action()
        return AnyCancellable { log.append("cancelled") }
      }
    )
    var ran = 0
    expectEqual(erased.now, 42)
    expectEqual(erased.minimumTolerance, 7)
    erased.schedule { ran += 1 }
    erased.schedule(after: 50, tolerance: 1) { ran += 1 }
    erased.schedule(after: 60, interval: 5, tolerance: 2) { ran += 1 }.cancel()
    expectEqual(ran, 3)
    expectEqual(log.calls, ["immediately", "delayed(50, 1)", "interval(60, 5, 2)", "cancelled"])
  }

  @Test func erasesEveryKindOfScheduler() {
    // Each line type-checks only if the spelling exists; each runs its action.
    var ran = 0
    AnySchedulerOf<DispatchQueue>.immediate.schedule { ran += 1 }
    AnySchedulerOf<RunLoop>.immediate.schedule { ran += 1 }
    AnySchedulerOf<OperationQueue>.immediate.schedule { ran += 1 }
    expectEqual(ran, 3)
    let schedulers: [AnySchedulerOf<DispatchQueue>] = [.main, .global(), .global(qos: .utility), .immediate]
    expectEqual(schedulers.count, 4)
    _ = AnySchedulerOf<RunLoop>.main
    _ = AnySchedulerOf<OperationQueue>.main
    // RillTesting's tick-based scheduler erases too.
    let ticks = TestScheduler()
    let erasedTicks = ticks.eraseToAnyScheduler()
    erasedTicks.schedule(after: 3) { ran += 1 }
    ticks.advance(by: 3)
    expectEqual(ran, 4)
  }

  @Test func aRealQueueStillRunsItsActions() async {
    let erased = DispatchQueue(label: "rill.any-scheduler").eraseToAnyScheduler()
    await withCheckedContinuation { continuation in
      erased.schedule(after: erased.now.advanced(by: .milliseconds(1))) { continuation.resume() }
    }
  }

  @Test func releasesTheActionOfACancelledRepetition() {
    let scheduler = DispatchQueue.test
    weak var captured: AnyObject?
    let cancellable: any Cancellable
    do {
      let object = NSObject()
      captured = object
      cancellable = scheduler.eraseToAnyScheduler().schedule(
        after: scheduler.now,
        interval: .seconds(1)
      ) { _ = object }
    }
    #expect(captured != nil)
    cancellable.cancel()
    #expect(captured == nil)
  }
}

/// Calls recorded from `@Sendable` closures.
private final class CallLog: Sendable {
  private let lock = NSLock()
  // SAFETY: only touched with `lock` held.
  private nonisolated(unsafe) var recorded: [String] = []

  func append(_ call: String) {
    lock.withLock { recorded.append(call) }
  }

  var calls: [String] { lock.withLock { recorded } }
}
