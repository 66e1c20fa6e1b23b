import Dispatch
import Foundation
import Rill
import RillExt
import RillTestSupport
import Testing

/// combine-schedulers' generic spellings, where a type is expected, in a file that imports Rill and RillExt.
@Suite struct CombineSchedulersSpellingTests {
  @Test func genericTestSchedulerAsCombineSchedulersSpellsIt() {
    let scheduler: TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions> = DispatchQueue.test
    let alias: TestSchedulerOf<DispatchQueue> = scheduler
    var fired = false
    alias.schedule(after: alias.now.advanced(by: 1)) { fired = true }
    scheduler.advance(by: 1)
    #expect(fired)
    let renamed = VirtualTimeScheduler<RunLoop.SchedulerTimeType, RunLoop.SchedulerOptions>.self
    #expect(renamed == TestSchedulerOf<RunLoop>.self)
  }

  @Test func genericImmediateSchedulerNextToCombinesOwn() {
    // In an expression the generic arguments pick combine-schedulers' type, their absence Combine's.
    let generic = ImmediateScheduler<DispatchQueue.SchedulerTimeType, Never>(now: DispatchQueue.main.now)
    var ran = 0
    generic.schedule { ran += 1 }
    ImmediateScheduler.shared.schedule { ran += 1 }
    expectEqual(ran, 2)
    // Where a type is expected, the module's name or the alias picks one.
    let qualified: RillExt.ImmediateScheduler<RunLoop.SchedulerTimeType, Never> = .init(now: .init(Date()))
    let combines: Rill.ImmediateScheduler = .shared
    let alias: ImmediateSchedulerOf<OperationQueue> = OperationQueue.immediate
    _ = (qualified, combines, alias)
    let renamed = VirtualImmediateScheduler<RunLoop.SchedulerTimeType, Never>.self
    #expect(renamed == RillExt.ImmediateScheduler<RunLoop.SchedulerTimeType, Never>.self)
  }

  @Test func immediateActionsAreNotEscaping() {
    // As in combine-schedulers, the immediate and unimplemented schedulers' requirements take non-escaping actions,
    // so an action passed to them directly may change an `inout` parameter.
    func bump(_ value: inout Int) {
      let scheduler = DispatchQueue.immediate
      scheduler.schedule(options: nil) { value += 1 }
      scheduler.schedule(after: scheduler.now, tolerance: .zero, options: nil) { value += 1 }
      _ = scheduler.schedule(after: scheduler.now, interval: 1, tolerance: .zero, options: nil) { value += 1 }
    }
    var value = 0
    bump(&value)
    expectEqual(value, 3)
  }

  @Test func timerGenericParameterIsNamedScheduler() {
    func makeTimer<Scheduler: _CombineScheduler>(on scheduler: Scheduler) -> Publishers.Timer<Scheduler> {
      Publishers.Timer(every: .seconds(1), scheduler: scheduler)
    }
    let scheduler = OperationQueue.test
    var ticks = 0
    let cancellable = makeTimer(on: scheduler).autoconnect().sink { _ in ticks += 1 }
    scheduler.advance(by: 3)
    expectEqual(ticks, 3)
    cancellable.cancel()
  }

  /// The closures are `@Sendable`: what they record goes through a lock.
  @Test func aTimerWithoutToleranceAsksForNone() {
    let tolerances = ToleranceLog()
    let base = DispatchQueue.test
    let recording = AnySchedulerOf<DispatchQueue>(
      minimumTolerance: { .seconds(5) },
      now: { base.now },
      scheduleImmediately: { _, action in action() },
      delayed: { _, _, _, action in action() },
      interval: { date, interval, tolerance, options, action in
        tolerances.append(tolerance)
        return base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
      }
    )
    let connection = recording.timerPublisher(every: .seconds(1)).connect()
    let withTolerance = recording.timerPublisher(every: .seconds(1), tolerance: .seconds(2)).connect()
    expectEqual(tolerances.all, [.zero, .seconds(2)])
    connection.cancel()
    withTolerance.cancel()
  }
}

/// Tolerances recorded from `@Sendable` closures.
private final class ToleranceLog: Sendable {
  private let lock = NSLock()
  // SAFETY: only touched with `lock` held.
  private nonisolated(unsafe) var recorded: [DispatchQueue.SchedulerTimeType.Stride] = []

  func append(_ tolerance: DispatchQueue.SchedulerTimeType.Stride) {
    lock.withLock { recorded.append(tolerance) }
  }

  var all: [DispatchQueue.SchedulerTimeType.Stride] { lock.withLock { recorded } }
}
