/// Delivers one value and `.finished` on the first request; the subscription of `Just`, `Optional.Publisher`
/// and `Result.Publisher`.
///
/// Its state lives in `OneShotSubscriptionStorage`, whose generic parameter is the payload's whole type: the
/// deinitialiser of a generic class always runs unspecialised, and this way it destroys the payload through the
/// metadata it already has instead of looking up `(Downstream, Downstream.Input)?` and a lock around it at run
/// time.
// SAFETY: all mutable state is `payload`, which is read and written only inside `lock.withLock`; the downstream
// is called outside the lock.
@usableFromInline
final class OneShotSubscription<Downstream: Subscriber>:
  OneShotSubscriptionStorage<(Downstream, Downstream.Input)?>, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  @usableFromInline
  let name: String

  /// Runs `requestNow` in code specialised for this subscription's types (`request` arrives through
  /// `any Subscription`, which lands in the unspecialised generic implementation).
  @usableFromInline
  let requestThunk: (OneShotSubscription, Subscribers.Demand) -> Void

  @inlinable
  init(downstream: Downstream, value: Downstream.Input, name: String) {
    self.name = name
    requestThunk = { $0.requestNow($1) }
    super.init((downstream, value))
  }

  @usableFromInline
  var description: String { name }

  /// As in Combine, one unlabelled child: the value still to be delivered.
  @usableFromInline
  var customMirror: Mirror {
    let value = lock.withLock { _ in payload?.1 }
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
    guard let (downstream, value) = lock.withLock({ _ in payload.take() }) else { return }
    _ = downstream.receive(value)
    downstream.receive(completion: .finished)
  }

  @inlinable
  func cancel() {
    _ = lock.withLock { _ in payload.take() }
  }
}

/// The state of a `OneShotSubscription`, typed by a generic parameter so that the unspecialised deinitialiser
/// needs no run-time metadata lookup.
// SAFETY: `payload` is read and written only inside `lock.withLock`.
@usableFromInline
class OneShotSubscriptionStorage<Payload>: @unchecked Sendable {
  @usableFromInline
  final let lock = Locked(())

  @usableFromInline
  @exclusivity(unchecked)
  final var payload: Payload

  @inlinable
  init(_ payload: Payload) {
    self.payload = payload
  }
}
