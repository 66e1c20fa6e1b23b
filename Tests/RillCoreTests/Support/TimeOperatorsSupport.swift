import RillTesting

@testable import RillCore

/// A scheduler with integer options that forwards every call to a ``TestScheduler`` and logs what it was asked.
///
/// `TestScheduler` takes no options, so tests that check an operator hands its `options` and `tolerance` to the
/// scheduler use this wrapper; the clock, the queue and `advance` are the wrapped scheduler's.
// SAFETY: all mutable state is in `calls`; the wrapped scheduler is called outside the lock.
final class TimeOpsOptionsScheduler: Scheduler, @unchecked Sendable {
  typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
  typealias SchedulerOptions = Int

  /// The scheduler that runs the actions.
  let base: TestScheduler

  private let calls = Locked<[String]>([])

  /// Whether reads of `now` and `minimumTolerance` are logged too, as `clock` and `tolerance`.
  private let logsClockReads: Bool

  init(_ base: TestScheduler = TestScheduler(), logsClockReads: Bool = false) {
    self.base = base
    self.logsClockReads = logsClockReads
  }

  var now: SchedulerTimeType {
    if logsClockReads { record("clock", nil) }
    return base.now
  }

  var minimumTolerance: SchedulerTimeType.Stride {
    if logsClockReads { record("tolerance", nil) }
    return base.minimumTolerance
  }

  /// What was asked of the scheduler: `now`, `at 5 tolerance 0`, `every 5 from 5 tolerance 0`, with options.
  var log: [String] { calls.withLock { $0 } }

  private func record(_ text: String, _ options: Int?) {
    let suffix = options.map { " options \($0)" } ?? ""
    calls.withLock { $0.append(text + suffix) }
  }

  func schedule(options: Int?, _ action: @escaping () -> Void) {
    record("now", options)
    base.schedule(action)
  }

  func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: Int?,
    _ action: @escaping () -> Void
  ) {
    record("at \(date) tolerance \(tolerance)", options)
    base.schedule(after: date, tolerance: tolerance, action)
  }

  func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: Int?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    record("every \(interval) from \(date) tolerance \(tolerance)", options)
    return base.schedule(after: date, interval: interval, tolerance: tolerance, action)
  }
}

extension TestSubscriber {
  /// The values and completions received, as `"value@time"`, `"finished@time"` and `"failure@time"`, the time
  /// only for a subscriber made with a scheduler; the subscription is left out.
  var stampedEvents: [String] {
    records.compactMap { record in
      let text: String
      switch record.event {
      case .subscription: return nil
      case .value(let value): text = "\(value)"
      case .completion(.finished): text = "finished"
      case .completion(.failure): text = "failure"
      }
      return record.time.map { "\(text)@\($0)" } ?? text
    }
  }
}

/// The failure the time operator tests send.
enum TimeOpsError: Error, Equatable {
  case boom
  case timedOut
}
