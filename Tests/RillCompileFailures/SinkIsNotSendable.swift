// A sink runs closures that may change state that is not safe to share, here a class that is not Sendable, on the
// thread that delivers each event: as in Combine, two tasks may not share it. Its AnyCancellable may be shared.
// expected-error: capture of 'sink' with non-Sendable type 'Subscribers.Sink<Int, Never>' in a '@Sendable' closure
import Rill

final class Tally {
  var count = 0
}

func deliverTwice(tally: Tally) {
  let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { tally.count += $0 })
  let deliver: @Sendable () -> Void = { _ = sink.receive(1) }
  Task.detached(operation: deliver)
  Task.detached(operation: deliver)
}
