// A subject hands its values to subscribers on whichever thread sends them, so a subject of values that are not
// Sendable is not Sendable.
// expected-error: capture of 'subject' with non-Sendable type 'PassthroughSubject<Tally, Never>'
import Rill

final class Tally {
  var count = 0
}

func sendFromTwoTasks() {
  let subject = PassthroughSubject<Tally, Never>()
  let send: @Sendable () -> Void = { subject.send(Tally()) }
  Task.detached(operation: send)
  Task.detached(operation: send)
}
