public import Atomics

/// A subscriber's subscription to a subject: where its entry is in the subject's table, and the lock held around
/// each call to the subscriber.
///
/// Calls on a subscription that has ended find no entry and do nothing.
// SAFETY: no mutable stored property; the entry is the delivery lock's gate, read and written atomically.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CombineDescribable, @unchecked Sendable {
  @usableFromInline
  let core: SubjectCore<Output, Failure>

  /// Held around each call to the subscriber: a send from another thread waits until the subscriber returns, and
  /// one from inside the subscriber is delivered at once.
  @usableFromInline
  let delivery = DeliveryLock()

  /// The index of the subscription's entry in the subject's table, or a negative number once the subscription has
  /// ended, which encodes the demand it had left (``ended(with:)``): the delivery lock's gate (WritingAnOperator.md,
  /// "Hot-path idioms").
  ///
  /// Written under the subject's lock. A delivery reads it under the delivery lock, to call no subscriber that has
  /// ended.
  @inlinable
  var entry: LockGate<Void> { delivery.gate }

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

  /// The index of the subscription's entry, or a negative number once it has ended; under the subject's lock.
  @inlinable
  var index: Int { entry.load(ordering: .relaxed) }

  /// Records where the subscription's entry is, as it joins the table or compaction moves it; under the subject's
  /// lock.
  @inlinable
  func move(to index: Int) {
    entry.store(index, ordering: .relaxed)
  }

  /// Records that the subscription has ended, with the demand it had left; under the subject's lock.
  @inlinable
  func recordEnd(demand: Subscribers.Demand) {
    entry.store(Self.ended(with: demand), ordering: .releasing)
  }

  /// The entry of a subscription that has ended with `demand` left, kept for the mirror.
  ///
  /// `Int.min` for unlimited demand, `-1 - n` for `.max(n)`. A stored property would cost a dynamic exclusivity
  /// check per cancel; the word has room for every demand but `.max(Int.max)`, which reads back as
  /// `.max(Int.max - 1)`.
  @inlinable
  static func ended(with demand: Subscribers.Demand) -> Int {
    guard demand.rawValue < Subscribers.Demand.unlimitedRawValue else { return Int.min }
    return -1 - Int(Swift.min(demand.rawValue, UInt(Int.max - 1)))
  }

  /// The demand an ended subscription had left, from its entry (``ended(with:)``).
  @usableFromInline
  static func demand(endedAt entry: Int) -> Subscribers.Demand {
    entry == Int.min ? .unlimited : Subscribers.Demand(rawValue: UInt(-1 - entry))
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
      guard index >= 0 else { return (nil, nil, Self.demand(endedAt: index)) }
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
