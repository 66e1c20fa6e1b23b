/// Delivers one value and `.finished` on the first request; the subscription of `Just`, `Optional.Publisher`
/// and `Result.Publisher`.
// SAFETY: all mutable state is in `state`; the downstream is called outside the lock.
final class OneShotSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  let state: Locked<(Downstream, Downstream.Input)?>

  private let name: String

  init(downstream: Downstream, value: Downstream.Input, name: String) {
    state = Locked((downstream, value))
    self.name = name
  }

  var description: String { name }

  var customMirror: Mirror { Mirror(self, children: ["value": state.withLock { $0?.1 } as Any]) }

  var playgroundDescription: Any { description }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    guard let (downstream, value) = state.withLock({ $0.take() }) else { return }
    _ = downstream.receive(value)
    downstream.receive(completion: .finished)
  }

  func cancel() {
    _ = state.withLock { $0.take() }
  }
}
