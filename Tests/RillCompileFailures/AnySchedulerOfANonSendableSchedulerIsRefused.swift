// A type-erased scheduler is Sendable, so it wraps only a scheduler that is: this one counts its calls in a plain
// property, which two threads scheduling at once would race on.
// expected-error: type 'CountingScheduler' does not conform to the 'Sendable' protocol
import Rill
import RillExt

final class CountingScheduler: Scheduler {
  typealias SchedulerTimeType = Rill.ImmediateScheduler.SchedulerTimeType
  typealias SchedulerOptions = Rill.ImmediateScheduler.SchedulerOptions

  var calls = 0
  var now: SchedulerTimeType { Rill.ImmediateScheduler.shared.now }
  var minimumTolerance: SchedulerTimeType.Stride { Rill.ImmediateScheduler.shared.minimumTolerance }

  func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    calls += 1
    action()
  }

  func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    calls += 1
    action()
  }

  func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    calls += 1
    action()
    return AnyCancellable {}
  }
}

let erased = AnyScheduler(CountingScheduler())
