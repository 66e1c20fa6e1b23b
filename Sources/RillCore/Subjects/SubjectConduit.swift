public import Atomics

/// A subscriber's subscription to a subject: where its entry is in the subject's table, and the lock held around
/// each call to the subscriber.
///
/// The subscription is its delivery lock's storage: one allocation holds the lock, the entry word (the lock's gate)
/// and the link to the subject (``SubjectConduitLinks``). Calls on a subscription that has ended find no entry and do
/// nothing.
///
/// Not `Sendable`, as no `ManagedBuffer` is; its mutable state is the entry, read and written atomically, and its
/// links are written once, when the subscription is made.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: LockedStorage<Gated<SubjectConduitLinks>>, Subscription,
  CombineDescribable
{
  /// Makes a subscription to the subject whose engine is `core`.
  @inlinable
  static func make(core: SubjectCore<Output, Failure>) -> SubjectConduit {
    let links = SubjectConduitLinks(core: core, specialized: core.conduitEntry)
    return unsafeDowncast(make(Gated(links), recursive: true), to: SubjectConduit.self)
  }

  /// The subject's engine.
  @inlinable
  var core: SubjectCore<Output, Failure> {
    readOwned { unsafeDowncast($0.core, to: SubjectCore<Output, Failure>.self) }
  }

  /// Held around each call to the subscriber: a send from another thread waits until the subscriber returns, and
  /// one from inside the subscriber is delivered at once.
  @inlinable
  var delivery: DeliveryLock<SubjectConduitLinks> { DeliveryLock(in: self) }

  /// The index of the subscription's entry in the subject's table, or a negative number once the subscription has
  /// ended, which encodes the demand it had left (``ended(with:)``): the delivery lock's gate (WritingAnOperator.md,
  /// "Hot-path idioms").
  ///
  /// Written under the subject's lock. A delivery reads it under the delivery lock, to call no subscriber that has
  /// ended.
  @inlinable
  var entry: LockGate<SubjectConduitLinks> { LockGate(self) }

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
    readOwned { $0.specialized }(self, demand)
  }

  @inlinable
  func cancel() {
    readOwned { $0.specialized }(self, Subscribers.Demand(rawValue: 0))
  }
}

/// What a subject's subscription keeps beside its delivery lock: its subject's engine and the entry that runs
/// `request` and `cancel` in specialised code.
///
/// Not generic, so that the subscription's header lies at the same place for every subject: `request` and `cancel`
/// reached through `any Subscription` run unspecialised, and find the entry there without looking up metadata.
@usableFromInline
struct SubjectConduitLinks {
  /// The subject's engine, a `SubjectCore` of the subscription's `Output` and `Failure`.
  @usableFromInline let core: AnyObject
  /// Runs `request` and `cancel` (`.none`) in specialised code (a specialised entry: WritingAnOperator.md, "Hot-path
  /// idioms"); the subject's, shared by its subscriptions.
  @usableFromInline let specialized: SpecializedEntry<AnyObject>

  @inlinable
  init(core: AnyObject, specialized: SpecializedEntry<AnyObject>) {
    self.core = core
    self.specialized = specialized
  }
}
