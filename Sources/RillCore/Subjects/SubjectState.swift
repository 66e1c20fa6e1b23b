/// The state behind a subject's lock: its subscribers in subscription order, their demand, its completion, and
/// its upstream subscriptions.
///
/// A send claims, under the lock, one value of demand from each subscriber that has some, copies the table of
/// entries (one reference count), and calls the claimed subscribers from the copy outside the lock, each under its
/// delivery lock. Several sends may be delivering at once, from several threads or nested in a subscriber; each
/// works from its own copy, so subscribing and cancelling never wait for them. A subscription that ends leaves its
/// entry empty, and the table is compacted once half of it is empty; a subscription finds its entry through its
/// conduit's ``SubjectConduit/index``, which compaction keeps up to date.
@usableFromInline
struct SubjectState<Output, Failure: Error> {
  @usableFromInline
  typealias Entry = SubjectEntry<Output, Failure>

  @usableFromInline
  typealias Step = SubjectStep<Output, Failure>

  @usableFromInline var entries = ContiguousArray<Entry>()
  /// Each subscriber's demand, at the same index as its entry.
  @usableFromInline var demands = ContiguousArray<SubjectDemand>()
  /// Entries whose subscription has ended and which wait for the table to be compacted.
  @usableFromInline var emptySlots = 0
  @usableFromInline var completion: Subscribers.Completion<Failure>?
  /// `CurrentValueSubject`'s value; `nil` for `PassthroughSubject`.
  @usableFromInline var current: Output?
  /// Subscriptions the subject received as a subscriber; asked for unlimited values once
  /// `hasDownstreamDemand` is set.
  @usableFromInline var upstreams: [any Subscription] = []
  /// Whether upstream subscriptions are asked for values: from the start for `CurrentValueSubject`, from a
  /// subscriber's first demand for `PassthroughSubject`.
  @usableFromInline var hasDownstreamDemand = false
  /// The subject, kept alive while it has subscribers: as in Combine, a subscription keeps its subject until it is
  /// cancelled or completes.
  @usableFromInline var subject: AnyObject?

  @inlinable
  init(current: Output?) {
    self.current = current
    // As in Combine, a current value subject asks its upstream subscriptions for values as soon as it gets
    // them; a passthrough subject waits for a subscriber's demand.
    hasDownstreamDemand = current != nil
  }

  /// Adds a subscriber after the others.
  @inlinable
  mutating func append(
    receiver: SubjectReceiver<Output, Failure>,
    conduit: SubjectConduit<Output, Failure>,
    subject: AnyObject
  ) {
    conduit.move(to: entries.count)
    entries.append(Entry(receiver: receiver, conduit: conduit))
    demands.append(SubjectDemand())
    if self.subject == nil { self.subject = subject }
  }

  /// Starts sending `value`: claims demand from the first subscribers and returns the step that calls them.
  @inlinable
  mutating func startValue(_ value: Output) -> Step {
    guard completion == nil else { return Step() }
    if current != nil { current = value }
    guard !entries.isEmpty else { return Step() }
    let end = Swift.min(entries.count, Step.width)
    var claimed: UInt64 = 0
    for index in 0..<end where claim(at: index) { claimed |= 1 &<< UInt64(index) }
    guard claimed != 0 || end < entries.count else { return Step() }
    return Step(entries: entries, base: 0, claimed: claimed)
  }

  /// Claims demand from the subscribers of `entries[base...]`, a copy taken when the value was sent, for the next
  /// step; those that have ended or moved are found through their conduits.
  @inlinable
  mutating func claim(_ entries: ContiguousArray<Entry>, from base: Int) -> Step {
    let end = Swift.min(entries.count, base + Step.width)
    var claimed: UInt64 = 0
    for offset in base..<end {
      guard let index = entries[offset].conduit?.index, index >= 0 else { continue }
      if claim(at: index) { claimed |= 1 &<< UInt64(offset - base) }
    }
    return Step(entries: entries, base: base, claimed: claimed)
  }

  /// Takes one value of the demand of the subscriber at `index`; returns whether it had any.
  ///
  /// An empty entry has none.
  @inlinable
  mutating func claim(at index: Int) -> Bool {
    let demand = demands[index].demand
    guard demand.rawValue != 0 else {
      // As in Combine, a subscriber without demand misses the value; one of a current value subject gets the
      // current value when its demand arrives.
      if !demands[index].owesCurrent { demands[index].owesCurrent = true }
      return false
    }
    if demand.rawValue < Subscribers.Demand.unlimitedRawValue {
      demands[index].demand = Subscribers.Demand(rawValue: demand.rawValue &- 1)
    }
    if demands[index].owesCurrent { demands[index].owesCurrent = false }
    return true
  }

  /// Adds demand for the subscription of `conduit`, if it is still subscribed.
  @inlinable
  mutating func add(_ demand: Subscribers.Demand, to conduit: SubjectConduit<Output, Failure>) {
    let index = conduit.index
    if index >= 0 { demands[index].demand += demand }
  }

  /// Adds a subscriber's demand; returns the subscriber and the current value if it is owed that value.
  ///
  /// The first demand from any subscriber also returns the upstream subscriptions, to be asked for values.
  @inlinable
  mutating func request(
    _ demand: Subscribers.Demand,
    for conduit: SubjectConduit<Output, Failure>,
    upstreams requested: inout [any Subscription]
  ) -> (receiver: SubjectReceiver<Output, Failure>?, value: Output?) {
    let index = conduit.index
    guard index >= 0 else { return (nil, nil) }
    demands[index].demand += demand
    if !hasDownstreamDemand {
      hasDownstreamDemand = true
      requested = upstreams
    }
    guard let current, demands[index].owesCurrent, claim(at: index) else { return (nil, nil) }
    return (entries[index].receiver, current)
  }

  /// Ends the subscription of `conduit`, if it is still subscribed; returns its receiver, to be released outside
  /// the lock, and the subject if it has no subscriber left.
  @inlinable
  mutating func cancel(
    _ conduit: SubjectConduit<Output, Failure>
  ) -> (receiver: SubjectReceiver<Output, Failure>?, subject: AnyObject?) {
    let index = conduit.index
    guard index >= 0 else { return (nil, nil) }
    conduit.recordEnd(demand: demands[index].demand)
    let receiver = entries[index].receiver
    entries[index] = Entry(receiver: nil, conduit: nil)
    demands[index] = SubjectDemand()
    emptySlots += 1
    compact()
    return (receiver, emptySlots == entries.count ? subject.take() : nil)
  }

  /// Ends every subscription for `completion`; returns their receivers, in subscription order, and the subject.
  @inlinable
  mutating func complete(
    _ completion: Subscribers.Completion<Failure>
  ) -> (receivers: ContiguousArray<SubjectReceiver<Output, Failure>>, subject: AnyObject?) {
    self.completion = completion
    var receivers = ContiguousArray<SubjectReceiver<Output, Failure>>()
    for index in entries.indices {
      guard let conduit = entries[index].conduit, let receiver = entries[index].receiver else { continue }
      conduit.recordEnd(demand: demands[index].demand)
      receivers.append(receiver)
    }
    entries = []
    demands = []
    emptySlots = 0
    return (receivers, subject.take())
  }

  /// Drops the empty entries.
  ///
  /// Trailing ones go at once, so that subscribing and cancelling costs constant time; the others once they are at
  /// least half of the table, moving the live entries down in order. A table of more than 64 entries gives its
  /// memory back when it empties.
  @inlinable
  mutating func compact() {
    guard emptySlots != 0 else { return }
    if emptySlots == entries.count {
      let keep = entries.capacity <= 64
      entries.removeAll(keepingCapacity: keep)
      demands.removeAll(keepingCapacity: keep)
      emptySlots = 0
      return
    }
    while entries[entries.count &- 1].conduit == nil {
      entries.removeLast()
      demands.removeLast()
      emptySlots -= 1
    }
    guard emptySlots * 2 >= entries.count else { return }
    var kept = 0
    for index in entries.indices where entries[index].conduit != nil {
      if kept != index {
        entries.swapAt(kept, index)
        demands.swapAt(kept, index)
        entries[kept].conduit?.move(to: kept)
      }
      kept += 1
    }
    entries.removeLast(entries.count - kept)
    demands.removeLast(demands.count - kept)
    emptySlots = 0
  }
}
