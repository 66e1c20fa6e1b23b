/// The state behind a subject's lock: its subscribers, its completion, and the delivery in progress.
///
/// Subscribers are kept in a table of slots, linked in subscription order: subscribing appends, and cancelling
/// unlinks and frees the slot, both in constant time however many subscribers there are. Freed slots are reused
/// by later subscribers, which still join the end of the order. A subscription names its slot and its entry's
/// `id`, so that a late call for an entry that has gone never touches a later entry in the same slot.
///
/// Sends are serialised: while one call is delivering, later events queue and that call delivers them in order.
/// A value is offered, in subscription order, to the subscribers that were there when its delivery began.
@usableFromInline
struct SubjectState<Output, Failure: Error> {
  @usableFromInline
  typealias Entry = SubjectEntry<Output, Failure>

  @usableFromInline
  enum Event {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
    /// A `CurrentValueSubject` subscriber got demand while keeping a value.
    case flush(slot: Int, id: UInt64)
  }

  @usableFromInline
  typealias Step = SubjectStep<Output, Failure>

  /// Each slot's place in the order, demand and phase; read for every subscriber a value is offered to.
  @usableFromInline var links = ContiguousArray<SubjectLink>()
  /// Each slot's subscriber (`nil` when the slot is free), at the same index as its link.
  @usableFromInline var entries = ContiguousArray<Entry?>()
  /// Each slot's subscription and subscriber, which delivery never reads, at the same index as its link.
  @usableFromInline var records = ContiguousArray<SubjectRecord<Output, Failure>?>()
  /// The first and last slots in subscription order, and the first free slot (free slots are linked through
  /// `next`); `-1` for none.
  @usableFromInline var head = -1
  @usableFromInline var tail = -1
  @usableFromInline var free = -1
  @usableFromInline var nextID: UInt64 = 0
  @usableFromInline var completion: Subscribers.Completion<Failure>?
  /// `CurrentValueSubject`'s value; `nil` for `PassthroughSubject`.
  @usableFromInline var current: Output?
  /// Subscriptions the subject received as a subscriber; asked for unlimited values once
  /// `hasDownstreamDemand` is set.
  @usableFromInline var upstreams: [any Subscription] = []
  /// Whether upstream subscriptions are asked for values: from the start for `CurrentValueSubject`, from a
  /// subscriber's first demand for `PassthroughSubject`.
  @usableFromInline var hasDownstreamDemand = false
  @usableFromInline var isSending = false
  /// The `id` of the last subscriber the value being delivered is offered to: later ones subscribed after its
  /// delivery began.
  @usableFromInline var lastID: UInt64 = 0
  /// The events sent while a delivery is in progress, which the delivering call delivers next.
  @usableFromInline var queue = FIFO<Event>()

  @inlinable
  init(current: Output?) {
    self.current = current
    // As in Combine, a current value subject asks its upstream subscriptions for values as soon as it gets
    // them; a passthrough subject waits for a subscriber's demand.
    hasDownstreamDemand = current != nil
  }

  /// Adds a subscriber after the others; returns its subscription.
  @inlinable
  mutating func append(
    core: SubjectCore<Output, Failure>,
    receiver: SubjectReceiver<Output, Failure>,
    downstream: Any
  ) -> SubjectConduit<Output, Failure> {
    let id = nextID
    nextID += 1
    let slot: Int
    if free >= 0 {
      slot = free
      free = links[slot].next
    } else {
      slot = links.count
    }
    let conduit = SubjectConduit(core: core, slot: slot, id: id)
    let entry = Entry(latest: current, receiver: receiver)
    let record = SubjectRecord(conduit: conduit, downstream: downstream)
    let link = SubjectLink(id: id, previous: tail)
    if slot < links.count {
      links[slot] = link
      entries[slot] = entry
      records[slot] = record
    } else {
      links.append(link)
      entries.append(entry)
      records.append(record)
    }
    if tail >= 0 { links[tail].next = slot } else { head = slot }
    tail = slot
    return conduit
  }

  /// Whether `slot` still holds the subscriber with `id`.
  @inlinable
  func holds(slot: Int, id: UInt64) -> Bool {
    slot < links.count && links[slot].id == id && links[slot].phase != .free
  }

  /// Unlinks the entry in `slot` and frees the slot; returns the entry, to be released outside the lock.
  ///
  /// The slot's record goes now: the entry's receiver still holds the subscriber, so letting go of the record
  /// never runs a subscriber's deinitializer under the lock.
  @inlinable
  mutating func remove(slot: Int) -> Entry? {
    let link = links[slot]
    let entry = entries[slot].take()
    records[slot].take()?.conduit.recordEnd(demand: link.demand)
    if link.previous >= 0 { links[link.previous].next = link.next } else { head = link.next }
    if link.next >= 0 { links[link.next].previous = link.previous } else { tail = link.previous }
    links[slot].phase = .free
    links[slot].next = free
    free = slot
    if head < 0 { emptyTable() }
    return entry
  }

  /// Once the last subscriber has left, a table of more than 64 slots gives its memory back; a smaller one keeps
  /// its free slots for the next subscribers.
  @inlinable
  mutating func emptyTable() {
    guard links.count > 64 else { return }
    links = []
    entries = []
    records = []
    head = -1
    tail = -1
    free = -1
  }

  /// Ends the subscription in `slot`, if it is still there.
  ///
  /// Sets `removed` to the entry to release outside the lock if it left the table now; a subscriber being
  /// delivered to leaves the table when it returns.
  @inlinable
  mutating func cancel(slot: Int, id: UInt64, removed: inout Entry?) {
    guard holds(slot: slot, id: id) else { return }
    switch links[slot].phase {
    case .cancelledWhileBusy, .free:
      return
    case .busy:
      links[slot].phase = .cancelledWhileBusy
    case .live:
      removed = remove(slot: slot)
    }
  }

  /// Starts delivering `value`, or queues it behind the delivery in progress: ``start(_:)`` for a value, without
  /// making an event unless it waits.
  @inlinable
  mutating func start(value: Output) -> Step {
    guard !isSending else {
      queue.append(.value(value))
      return .done
    }
    guard head >= 0 else { return .done }
    isSending = true
    lastID = links[tail].id
    return offer(value, from: head)
  }

  /// Starts delivering `event`, or queues it behind the delivery in progress.
  @inlinable
  mutating func start(_ event: Event) -> Step {
    guard !isSending else {
      queue.append(event)
      return .done
    }
    isSending = true
    let step = begin(event)
    if step.isDone { return next() }
    return step
  }

  /// Records what the subscriber in `slot` asked for after a value, and moves on.
  ///
  /// If it was cancelled meanwhile, it leaves the table, in `removed`, to be released outside the lock.
  @inlinable
  mutating func delivered(slot: Int, more: Subscribers.Demand, value: Output, removed: inout Entry?) -> Step {
    let next = links[slot].next
    if links[slot].phase == .cancelledWhileBusy {
      removed = remove(slot: slot)
      // The table may have emptied, and `next` with it.
      guard head >= 0 else { return self.next() }
    } else {
      links[slot].phase = .live
      if more.rawValue != 0 { links[slot].demand += more }
    }
    // After the last subscriber, the next event.
    guard next >= 0 else { return self.next() }
    return offer(value, from: next)
  }

  /// The next event's first step, or `.done` when the queue is empty, which ends the delivering call.
  @inlinable
  mutating func next() -> Step {
    while !queue.isEmpty {
      let event = queue.removeFirst()
      let step = begin(event)
      if step.isDone { continue }
      return step
    }
    isSending = false
    return .done
  }

  @inlinable
  mutating func begin(_ event: Event) -> Step {
    switch event {
    case .value(let value):
      guard head >= 0 else { return .done }
      lastID = links[tail].id
      return offer(value, from: head)
    case .completion(let completion):
      // No subscriber is busy: events start only between deliveries.
      var ending = ContiguousArray<Entry>()
      var slot = head
      while slot >= 0 {
        if let entry = entries[slot].take() { ending.append(entry) }
        records[slot]?.conduit.recordEnd(demand: links[slot].demand)
        slot = links[slot].next
      }
      links = []
      entries = []
      records = []
      head = -1
      tail = -1
      free = -1
      return Step(ending: ending, completion: completion)
    case .flush(let slot, let id):
      guard holds(slot: slot, id: id), links[slot].phase == .live, links[slot].demand > 0,
        let value = entries[slot]?.latest
      else { return .done }
      entries[slot]?.latest = nil
      links[slot].demand -= 1
      links[slot].phase = .busy
      // Only this subscriber gets the kept value.
      lastID = id
      return Step(receiver: entries[slot]!.receiver, slot: slot, value: value)
    }
  }

  /// Offers `value` to the next subscriber with demand, starting at `slot`; one without demand keeps it if the
  /// subject keeps values.
  @inlinable
  mutating func offer(_ value: Output, from slot: Int) -> Step {
    var slot = slot
    while slot >= 0 {
      let link = links[slot]
      guard link.id <= lastID else { break }
      let offered = slot
      slot = link.next
      guard link.phase == .live else { continue }
      guard link.demand.rawValue != 0 else {
        if current != nil { entries[offered]?.latest = value }
        continue
      }
      links[offered].demand -= 1
      if current != nil { entries[offered]?.latest = nil }
      links[offered].phase = .busy
      return Step(receiver: entries[offered]!.receiver, slot: offered, value: value)
    }
    return next()
  }
}
