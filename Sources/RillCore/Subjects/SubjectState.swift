/// The state behind a subject's lock: its subscribers in subscription order, their demand, its completion, and
/// its upstream subscriptions.
///
/// A send claims, under the lock, one value of demand from each subscriber that has some, copies the table of
/// entries (one reference count), and calls the claimed subscribers from the copy outside the lock, each under its
/// delivery lock. Several sends may be delivering at once, from several threads or nested in a subscriber; each
/// works from its own copy, so subscribing and cancelling never wait for them. A subscription that ends leaves its
/// entry empty, and the table is compacted once half of it is empty; a subscription finds its entry through its
/// conduit's ``SubjectConduit/index``, which compaction keeps up to date.
///
/// What a subscriber without demand misses is the one way subjects differ: a `PassthroughSubject` drops the value,
/// a `CurrentValueSubject` owes it the current value, and a replay subject (``replay`` is set) queues it in the
/// subscriber's backlog, which starts with the replayed values. A backlog is delivered in order, under the
/// subscriber's delivery lock, by whichever thread brings demand or a value while it has demand; a value goes
/// straight to a subscriber only while its backlog is empty.
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
  /// Subscriptions the subject received as a subscriber, until each completes or is cancelled; asked for unlimited
  /// values once `hasDownstreamDemand` is set.
  @usableFromInline var upstreams: [SubjectUpstream] = []
  /// Whether upstream subscriptions are asked for values: from the start for `CurrentValueSubject`, from a
  /// subscriber's first demand for `PassthroughSubject`.
  @usableFromInline var hasDownstreamDemand = false
  /// The subject, kept alive while it has subscribers: as in Combine, a subscription keeps its subject until it is
  /// cancelled or completes.
  @usableFromInline var subject: AnyObject?
  /// A replay subject's latest values, replayed to each new subscriber; `nil` for the other subjects.
  @usableFromInline var replay: ReplayRing<Output>?
  /// A replay subject's backlogs: each subscriber's values waiting for its demand, at the same index as its entry.
  @usableFromInline var backlogs = ContiguousArray<FIFO<Output>>()
  /// For a subject that keeps a current value: how many values have become the current value by a send, which
  /// numbers each such send for ``SubjectDemand/currentGeneration``.
  @usableFromInline var generation: UInt64 = 0

  @inlinable
  init(current: Output?, replay: Int? = nil) {
    self.current = current
    self.replay = replay.map { ReplayRing(capacity: Swift.max(0, $0)) }
    // As in Combine, a current value subject asks its upstream subscriptions for values as soon as it gets
    // them; a passthrough subject waits for a subscriber's demand.
    hasDownstreamDemand = current != nil
  }

  /// Adds a subscriber after the others.
  @inlinable
  mutating func append(
    receiver: SubjectReceiver<Output, Failure>,
    conduit: SubjectConduit<Output, Failure>,
    subject: AnyObject?
  ) {
    conduit.move(to: entries.count)
    entries.append(Entry(receiver: receiver, conduit: conduit))
    demands.append(SubjectDemand())
    if let replay { backlogs.append(FIFO(replay.elements)) }
    if self.subject == nil { self.subject = subject }
  }

  /// Starts sending `value`: claims demand from the first subscribers and returns the step that calls them.
  ///
  /// The value becomes the current value, if the subject keeps one and `updatingCurrent` is set. The value it
  /// replaces, or one pushed out of a replay subject's buffer, is returned in `evicted`, to be released outside
  /// the lock.
  @inlinable
  mutating func startValue(_ value: Output, updatingCurrent: Bool = true, evicted: inout Output?) -> Step {
    guard completion == nil else { return Step() }
    var sentGeneration: UInt64 = 0
    if updatingCurrent, current != nil {
      evicted = current.take()
      current = value
      generation &+= 1
      sentGeneration = generation
    }
    if replay != nil { evicted = replay!.append(value) }
    guard !entries.isEmpty else { return Step() }
    let end = Swift.min(entries.count, Step.width)
    var claimed: UInt64 = 0
    var draining: UInt64 = 0
    if replay == nil {
      for index in 0..<end where claim(at: index) { claimed |= 1 &<< UInt64(index) }
    } else {
      for index in 0..<end { offer(value, at: index, bit: 1 &<< UInt64(index), claimed: &claimed, draining: &draining) }
    }
    guard claimed | draining != 0 || end < entries.count else { return Step() }
    return Step(entries: entries, base: 0, claimed: claimed, draining: draining, generation: sentGeneration)
  }

  /// Claims demand from the subscribers of `entries[base...]`, a copy taken when `value` was sent, for the next
  /// step; those that have ended or moved are found through their conduits.
  ///
  /// A subscriber that was handed the current value by a request since `value` was sent has it already, or a newer
  /// one: it is skipped, so that it gets each value once and none after a newer one.
  @inlinable
  mutating func claim(_ value: Output, for entries: ContiguousArray<Entry>, from base: Int, generation: UInt64) -> Step
  {
    let end = Swift.min(entries.count, base + Step.width)
    var claimed: UInt64 = 0
    var draining: UInt64 = 0
    for offset in base..<end {
      guard let index = entries[offset].conduit?.index, index >= 0 else { continue }
      if generation != 0, demands[index].currentGeneration >= generation { continue }
      offer(value, at: index, bit: 1 &<< UInt64(offset - base), claimed: &claimed, draining: &draining)
    }
    return Step(entries: entries, base: base, claimed: claimed, draining: draining, generation: generation)
  }

  /// Offers `value` to the subscriber at `index`: claims its demand (setting `bit` in `claimed`), or, for a replay
  /// subject, queues the value in its backlog (setting `bit` in `draining` if it has demand for the backlog).
  @inlinable
  mutating func offer(_ value: Output, at index: Int, bit: UInt64, claimed: inout UInt64, draining: inout UInt64) {
    if replay != nil, entries[index].conduit != nil, demands[index].demand.rawValue == 0 || !backlogs[index].isEmpty {
      backlogs[index].append(value)
      if demands[index].demand.rawValue != 0 { draining |= bit }
    } else if claim(at: index) {
      claimed |= bit
    }
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

  /// Adds the demand a subscriber returned for a value, if it is still subscribed; returns whether the caller must
  /// drain its backlog: a replay subscriber's values that were queued while it was busy, which no other thread
  /// delivers.
  @inlinable
  @discardableResult
  mutating func add(_ demand: Subscribers.Demand, to conduit: SubjectConduit<Output, Failure>) -> Bool {
    let index = conduit.index
    guard index >= 0 else { return false }
    demands[index].demand += demand
    return replay != nil && !backlogs[index].isEmpty && !demands[index].isDraining
  }

  /// Adds a subscriber's demand; returns the subscriber, whether it is owed the current value (which
  /// ``takeCurrent(for:)`` then hands over), and whether a replay subscriber's backlog is to be drained.
  ///
  /// The first demand from any subscriber also returns the upstream subscriptions, to be asked for values.
  @inlinable
  mutating func request(
    _ demand: Subscribers.Demand,
    for conduit: SubjectConduit<Output, Failure>,
    upstreams requested: inout [SubjectUpstream]
  ) -> (receiver: SubjectReceiver<Output, Failure>?, owesCurrent: Bool, drains: Bool) {
    let index = conduit.index
    guard index >= 0 else { return (nil, false, false) }
    demands[index].demand += demand
    demands[index].hasRequested = true
    if !hasDownstreamDemand {
      hasDownstreamDemand = true
      requested = upstreams
    }
    if replay != nil { return (entries[index].receiver, false, !backlogs[index].isEmpty) }
    guard current != nil, demands[index].owesCurrent else { return (nil, false, false) }
    return (entries[index].receiver, true, false)
  }

  /// Takes one value of a subscriber's demand for the current value, if it is still owed it; returns the value and
  /// the subscriber.
  ///
  /// The subscriber is not owed it any more once a send has claimed its demand since it asked.
  @inlinable
  mutating func takeCurrent(
    for conduit: SubjectConduit<Output, Failure>
  ) -> (receiver: SubjectReceiver<Output, Failure>, value: Output)? {
    let index = conduit.index
    guard index >= 0, let current, demands[index].owesCurrent, let receiver = entries[index].receiver,
      claim(at: index)
    else { return nil }
    demands[index].currentGeneration = generation
    return (receiver, current)
  }

  /// Starts draining the backlog of the subscription of `conduit`; returns `false` if it has ended, or if a drain
  /// of it is already in progress: under its delivery lock, that can only be one this drain is nested in.
  @inlinable
  mutating func beginDrain(_ conduit: SubjectConduit<Output, Failure>) -> Bool {
    let index = conduit.index
    guard index >= 0, !demands[index].isDraining else { return false }
    demands[index].isDraining = true
    return true
  }

  /// The next event of a replay subscriber's backlog, after adding the demand `more` it returned for the last one:
  /// a value if it has demand for one, or else the completion once the subject has completed (the values still
  /// waiting are dropped, and the subscription ends); a subscriber that has not requested yet keeps its backlog
  /// and gets the completion after its first request.
  ///
  /// Called under the subscriber's delivery lock, so that its backlog goes out in order; the drain ends when it
  /// returns no value.
  @inlinable
  mutating func nextBacklogged(
    for conduit: SubjectConduit<Output, Failure>,
    adding more: Subscribers.Demand
  ) -> (value: Output?, completion: Subscribers.Completion<Failure>?, ended: Ended) {
    let index = conduit.index
    guard index >= 0 else { return (nil, nil, Ended()) }
    if more.rawValue != 0 { demands[index].demand += more }
    if demands[index].demand.rawValue != 0, !backlogs[index].isEmpty, claim(at: index) {
      return (backlogs[index].removeFirst(), nil, Ended())
    }
    demands[index].isDraining = false
    guard let completion, demands[index].hasRequested || backlogs[index].isEmpty else { return (nil, nil, Ended()) }
    return (nil, completion, end(at: index))
  }

  /// Ends the subscription of `conduit`, if it is still subscribed; returns its receiver, to be released outside
  /// the lock, and the subject if it has no subscriber left.
  @inlinable
  mutating func cancel(
    _ conduit: SubjectConduit<Output, Failure>
  ) -> Ended {
    let index = conduit.index
    guard index >= 0 else { return Ended() }
    return end(at: index)
  }

  /// Ends the subscription at `index`: empties its entry and compacts the table.
  ///
  /// Returns what leaves the state with it, to be released outside the lock: its receiver, its backlog, and the
  /// subject if no subscriber is left.
  @inlinable
  mutating func end(at index: Int) -> Ended {
    entries[index].conduit?.recordEnd(demand: demands[index].demand)
    var ended = Ended()
    // Moved out, not copied: no reference count for the receiver.
    ended.receiver = entries[index].receiver.take()
    entries[index].conduit = nil
    demands[index] = SubjectDemand()
    if replay != nil {
      ended.backlog = backlogs[index]
      backlogs[index] = FIFO()
    }
    emptySlots += 1
    compact()
    if emptySlots == entries.count { ended.subject = subject.take() }
    return ended
  }

  /// Ends every subscription for `completion`; returns their entries, in subscription order, and the subject.
  @inlinable
  mutating func complete(
    _ completion: Subscribers.Completion<Failure>
  ) -> (completed: ContiguousArray<Entry>, backlogged: [Entry], subject: AnyObject?) {
    self.completion = completion
    var completed = ContiguousArray<Entry>()
    var backlogged: [Entry] = []
    for index in entries.indices {
      guard entries[index].conduit != nil, entries[index].receiver != nil else { continue }
      // A replay subscriber with values waiting gets those its demand covers first: it stays until then.
      if replay != nil, !backlogs[index].isEmpty {
        backlogged.append(entries[index])
        continue
      }
      entries[index].conduit?.recordEnd(demand: demands[index].demand)
      // Moved out of the table, not copied: no reference counts, as in `end(at:)`.
      completed.append(Entry(receiver: entries[index].receiver.take(), conduit: entries[index].conduit.take()))
      emptySlots += 1
    }
    compact()
    return (completed, backlogged, backlogged.isEmpty ? subject.take() : nil)
  }

  /// Drops the empty entries.
  ///
  /// Trailing ones go at once, so that subscribing and cancelling costs constant time; the others once they are at
  /// least half of the table, moving the live entries down in order. A table of more than 64 entries gives its
  /// memory back when it empties.
  @inlinable
  mutating func compact() {
    guard emptySlots != 0 else { return }
    if emptySlots == entries.count, entries.capacity > 64 {
      entries = []
      demands = []
      backlogs = []
      emptySlots = 0
      return
    }
    // One at a time: `removeLast()` costs a few instructions, where `removeAll(keepingCapacity:)` and
    // `removeLast(_:)` replace a subrange, hundreds even for one entry.
    while entries.count != 0, entries[entries.count &- 1].conduit == nil {
      entries.removeLast()
      demands.removeLast()
      if replay != nil { backlogs.removeLast() }
      emptySlots -= 1
    }
    guard emptySlots != 0, emptySlots * 2 >= entries.count else { return }
    var kept = 0
    for index in entries.indices where entries[index].conduit != nil {
      if kept != index {
        entries.swapAt(kept, index)
        demands.swapAt(kept, index)
        if replay != nil { backlogs.swapAt(kept, index) }
        entries[kept].conduit?.move(to: kept)
      }
      kept += 1
    }
    entries.removeLast(entries.count - kept)
    demands.removeLast(demands.count - kept)
    if replay != nil { backlogs.removeLast(backlogs.count - kept) }
    emptySlots = 0
  }

  /// What leaves the state when a subscription ends, released by the caller after unlocking: the subscriber (in
  /// its receiver), a replay backlog, and the subject once no subscriber is left.
  @usableFromInline
  struct Ended {
    @usableFromInline var receiver: SubjectReceiver<Output, Failure>?
    @usableFromInline var backlog: FIFO<Output>?
    @usableFromInline var subject: AnyObject?

    @inlinable
    init() {}
  }
}
