// A relay's current value is read on any thread, so a relay of a value that is not Sendable is not Sendable.
// expected-error: capture of 'relay' with non-Sendable type 'CurrentValueRelay<Tally>'
import RillExt

final class Tally {
  var count = 0
}

func startTwice() {
  let relay = CurrentValueRelay(Tally())
  let subscribe: @Sendable () -> Void = { relay.value.count += 1 }
  Task.detached(operation: subscribe)
  Task.detached(operation: subscribe)
}
