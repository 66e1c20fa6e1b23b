public import Atomics

/// A subscriber's subscription to a subject: where its entry is in the subject's table, and the lock held around
/// each call to the subscriber.
///
/// Calls on a subscription that has ended find no entry and do nothing.
// SAFETY: `demandAtEnd` is read and written under the subject's lock only; the entry is the delivery lock's gate.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CombineDescribable, @unchecked Sendable {
  @usableFromInline
  let core: SubjectCore<Output, Failure>

  /// Held around each call to the subscriber: a send from another thread waits until the subscriber returns, and
  /// one from inside the subscriber is delivered at once.
  @usableFromInline
  let delivery = DeliveryLock()

  /// The index of the subscription's entry in the subject's table, or `-1` once the subscription has ended: the
  /// delivery lock's gate (WritingAnOperator.md, "Hot-path idioms").
  ///
  /// Written under the subject's lock. A delivery reads it under the delivery lock, to call no subscriber that has
  /// ended.
  @inlinable
  var entry: LockGate<Void> { delivery.gate }

  /// The demand left when the subscription ended, for the mirror; under the subject's lock.
  @usableFromInline
  var demandAtEnd = Subscribers.Demand(rawValue: 0)

  /// Runs `request` and `cancel` in specialised code (a specialised entry: WritingAnOperator.md, "Hot-path
  /// idioms"); one entry for both, `.none` for a cancel, keeps an idle subscription at one closure.
  @usableFromInline
  let specialized: SpecializedEntry<SubjectConduit>

  @inlinable
  init(core: SubjectCore<Output, Failure>) {
    self.core = core
    specialized = SpecializedEntry { conduit, demand in
      if demand.rawValue != 0 { conduit.core.request(demand, for: conduit) } else { conduit.core.cancel(conduit) }
    }
  }

  /// The index of the subscription's entry, or `-1` once it has ended; under the subject's lock.
  @inlinable
  var index: Int { entry.load(ordering: .relaxed) }

  /// Records where the subscription's entry is, as it joins the table or compaction moves it; under the subject's
  /// lock.
  @inlinable
  func move(to index: Int) {
    entry.store(index, ordering: .relaxed)
  }

  /// Whether the subscription has not ended.
  @inlinable
  var isLive: Bool { entry.load(ordering: .acquiring) >= 0 }

  /// Records that the subscription has ended, with the demand it had left; under the subject's lock.
  @inlinable
  func recordEnd(demand: Subscribers.Demand) {
    demandAtEnd = demand
    entry.store(-1, ordering: .releasing)
  }

  @usableFromInline
  var description: String { core.name }

  /// As in Combine: the subject twice (as `parent` and `subject`), the subscriber and the demand left; the subject
  /// and the subscriber are `nil` once the subscription has ended.
  @usableFromInline
  var customMirror: Mirror {
    let (receiver, subject, demand) = core.state.withLock {
      state -> (SubjectReceiver<Output, Failure>?, AnyObject?, Subscribers.Demand) in
      let index = entry.load(ordering: .relaxed)
      guard index >= 0 else { return (nil, nil, demandAtEnd) }
      return (state.entries[index].receiver, state.subject, state.demands[index].demand)
    }
    let probe = SubjectProbe()
    _ = receiver?(self, .describe(probe))
    if core.signalsFromFirstRequest { return Mirror(self, children: ["downstream": probe.downstream as Any]) }
    return Mirror(
      self,
      children: [
        "parent": subject as Any, "downstream": probe.downstream as Any, "demand": demand, "subject": subject as Any,
      ]
    )
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(core.name): a subscriber requested \(demand); demand must be greater than zero")
    specialized(self, demand)
  }

  @inlinable
  func cancel() {
    specialized(self, Subscribers.Demand(rawValue: 0))
  }
}
