// A future hands the same result to every subscriber, whatever thread each is on, so a future of a value that is
// not Sendable is not Sendable.
// expected-error: capture of 'future' with non-Sendable type 'Future<Tally, Never>'
import Rill

final class Tally {
  var count = 0
}

func startTwice() {
  let future = Future<Tally, Never> { promise in promise(.success(Tally())) }
  let subscribe: @Sendable () -> Void = { _ = future.sink { $0.count += 1 } }
  Task.detached(operation: subscribe)
  Task.detached(operation: subscribe)
}
