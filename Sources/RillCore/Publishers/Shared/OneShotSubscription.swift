/// Delivers one value and `.finished` on the first request; the subscription of `Just`, `Optional.Publisher`
/// and `Result.Publisher`.
///
/// As in Combine, it lets go of its subscriber once it has delivered or is cancelled, and keeps its value for as long
/// as it lives.
///
/// The value's type is a generic parameter of its own rather than `Downstream.Input`: the deinit, which always runs
/// unspecialised, then finds it in the class's metadata instead of looking the associated type up at run time.
// SAFETY: all mutable state is in `state`; the downstream is called outside the lock.
@usableFromInline
final class OneShotSubscription<Value, Downstream: Subscriber>: Subscription, CombineDescribable, @unchecked Sendable
where Downstream.Input == Value {
  /// The subscriber, until the value is delivered or the subscription is cancelled.
  @usableFromInline
  let state: Locked<Downstream?>

  /// The value to deliver.
  @usableFromInline
  let value: Value

  @usableFromInline
  let name: String

  /// Runs `requestNow` in specialised code (a specialised entry: WritingAnOperator.md, "Hot-path idioms").
  @usableFromInline
  let specialized: SpecializedEntry<OneShotSubscription>

  @inlinable
  init(downstream: Downstream, value: Value, name: String) {
    state = Locked(downstream)
    self.value = value
    self.name = name
    specialized = SpecializedEntry { $0.requestNow($1) }
  }

  @usableFromInline
  var description: String { name }

  /// As in Combine, one unlabelled child: the value.
  @usableFromInline
  var customMirror: Mirror {
    Mirror(self, children: [(label: nil, value: value)], ancestorRepresentation: .suppressed)
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    specialized(self, demand)
  }

  @inlinable
  func requestNow(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    guard let downstream = state.withLock({ $0.take() }) else { return }
    _ = downstream.receive(value)
    downstream.receive(completion: .finished)
  }

  @inlinable
  func cancel() {
    // Released here, outside the lock.
    _ = state.withLock { $0.take() }
  }
}
