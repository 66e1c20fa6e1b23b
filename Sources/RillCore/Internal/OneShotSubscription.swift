/// Delivers one value and `.finished` on the first request; the subscription of `Just`, `Optional.Publisher`
/// and `Result.Publisher`.
// SAFETY: all mutable state is in `state`; the downstream is called outside the lock.
@usableFromInline
final class OneShotSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  /// The subscriber and the value still to be delivered; `nil` once delivered or cancelled.
  @usableFromInline
  let state: Locked<(Downstream, Downstream.Input)?>

  @usableFromInline
  let name: String

  /// Runs `requestNow` in code specialised for this subscription's types (`request` arrives through
  /// `any Subscription`, which lands in the unspecialised generic implementation).
  @usableFromInline
  let requestThunk: (OneShotSubscription, Subscribers.Demand) -> Void

  @inlinable
  init(downstream: Downstream, value: Downstream.Input, name: String) {
    state = Locked((downstream, value))
    self.name = name
    requestThunk = { $0.requestNow($1) }
  }

  @usableFromInline
  var description: String { name }

  /// As in Combine, one unlabelled child: the value still to be delivered.
  @usableFromInline
  var customMirror: Mirror {
    let value = state.withLock { $0?.1 }
    let children: [Mirror.Child] = value.map { [(label: nil, value: $0)] } ?? []
    return Mirror(self, children: children, ancestorRepresentation: .suppressed)
  }

  @usableFromInline
  var playgroundDescription: Any { description }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    requestThunk(self, demand)
  }

  @inlinable
  func requestNow(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    guard let (downstream, value) = state.withLock({ $0.take() }) else { return }
    _ = downstream.receive(value)
    downstream.receive(completion: .finished)
  }

  @inlinable
  func cancel() {
    // Released here, outside the lock.
    _ = state.withLock { $0.take() }
  }
}
