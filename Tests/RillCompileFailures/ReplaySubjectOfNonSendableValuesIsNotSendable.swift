// A replay subject keeps values and hands them to subscribers on any thread, so one of values that are not
// Sendable is not Sendable.
// expected-error: capture of 'subject' with non-Sendable type 'ReplaySubject<Tally, Never>'
import RillExt

final class Tally {
  var count = 0
}

func startTwice() {
  let subject = ReplaySubject<Tally, Never>(bufferSize: 1)
  let subscribe: @Sendable () -> Void = { _ = subject.sink { $0.count += 1 } }
  Task.detached(operation: subscribe)
  Task.detached(operation: subscribe)
}
