// Every subscriber of a shared publisher receives the same values, on whichever thread upstream sends them, so a
// share of values that are not Sendable is not Sendable, even when its upstream is.
// expected-error: capture of 'shared' with non-Sendable type 'Publishers.Share<Empty<Tally, Never>>'
import Rill

final class Tally {
  var count = 0
}

func startTwice(source: Empty<Tally, Never>) {
  let shared = source.share()
  let subscribe: @Sendable () -> Void = { _ = shared.sink { $0.count += 1 } }
  Task.detached(operation: subscribe)
  Task.detached(operation: subscribe)
}
