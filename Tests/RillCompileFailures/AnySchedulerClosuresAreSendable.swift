// A type-erased scheduler built from closures is Sendable, so its closures are `@Sendable`: this one appends to a
// log that is not safe to share, which two threads scheduling at once would race on.
// expected-error: capture of 'log' with non-Sendable type 'Log' in a '@Sendable' closure
import Rill
import RillExt

final class Log {
  var lines: [String] = []
}

func recordingScheduler(log: Log) -> AnySchedulerOf<Rill.ImmediateScheduler> {
  AnyScheduler(
    minimumTolerance: { Rill.ImmediateScheduler.shared.minimumTolerance },
    now: { Rill.ImmediateScheduler.shared.now },
    scheduleImmediately: { _, action in
      log.lines.append("now")
      action()
    },
    delayed: { _, _, _, action in action() },
    interval: { _, _, _, _, action in
      action()
      return AnyCancellable {}
    }
  )
}
