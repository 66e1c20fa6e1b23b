// An erased pipeline can hold anything, here a map that changes a class that is not Sendable, so two tasks may
// not share it (the example of Porting from Combine's "Sharing a pipeline across tasks in Swift 6").
// expected-error: capture of 'totals' with non-Sendable type 'AnyPublisher<Int, Never>' in a '@Sendable' closure
import Rill

final class Tally {
  var count = 0
}

func startTwice(tally: Tally) {
  let totals: AnyPublisher<Int, Never> = Just(1).map { value -> Int in
    tally.count += value
    return tally.count
  }.eraseToAnyPublisher()
  let subscribe: @Sendable () -> Void = { _ = totals.sink { print($0) } }
  Task.detached(operation: subscribe)
  Task.detached(operation: subscribe)
}
