/// What a subject hands one of its subscribers: a value, or the completion.
@usableFromInline
enum SubjectSignal<Output, Failure: Error> {
  case value(Output)
  case completion(Subscribers.Completion<Failure>)
}

/// How a subject reaches one subscriber: a closure made where the subscriber's type is known, so that it runs
/// specialised code.
///
/// The closure travels in this struct rather than as a bare function value: a closure stored in a generic type
/// and read out as a value of a concrete function type is wrapped in a reabstraction thunk, one allocation per
/// read, while a closure called where it is stored is not.
@usableFromInline
struct SubjectReceiver<Output, Failure: Error> {
  @usableFromInline let deliver: (SubjectSignal<Output, Failure>) -> Subscribers.Demand

  @inlinable
  init(_ deliver: @escaping (SubjectSignal<Output, Failure>) -> Subscribers.Demand) {
    self.deliver = deliver
  }

  /// Hands the subscriber a signal; returns the demand it adds.
  @inlinable
  func callAsFunction(_ signal: SubjectSignal<Output, Failure>) -> Subscribers.Demand {
    deliver(signal)
  }
}

/// Where a subscriber is in a subject's order, and its demand: the fields a delivery reads for every subscriber,
/// kept apart from ``SubjectEntry`` in plain values that cost no reference counting to read.
@usableFromInline
struct SubjectLink {
  /// Where a subscriber is in its life.
  @usableFromInline
  enum Phase: UInt8 {
    /// The slot holds no subscriber.
    case free
    /// Subscribed and not being delivered to.
    case live
    /// The delivering call is inside the subscriber.
    case busy
    /// Cancelled while busy: the delivering call removes the entry when the subscriber returns.
    case cancelledWhileBusy
  }

  /// Tells a subscriber from a later one that reuses its slot; also the subscription order.
  @usableFromInline var id: UInt64
  /// The neighbouring slots in subscription order, or `-1`.
  @usableFromInline var previous: Int
  @usableFromInline var next = -1
  @usableFromInline var demand = Subscribers.Demand.none
  @usableFromInline var phase = Phase.live

  @inlinable
  init(id: UInt64, previous: Int) {
    self.id = id
    self.previous = previous
  }
}

/// What a subject keeps for one subscriber besides its ``SubjectLink``, behind the subject's lock.
@usableFromInline
struct SubjectEntry<Output, Failure: Error> {
  /// For `CurrentValueSubject`: the value to deliver when demand arrives.
  @usableFromInline var latest: Output?
  /// Hands the subscriber a signal.
  @usableFromInline let deliver: SubjectReceiver<Output, Failure>
  /// The subscriber, for the subscription's mirror.
  @usableFromInline let downstream: Any
  /// The subscription handed to the subscriber, to record the demand left when the entry leaves the table.
  @usableFromInline let conduit: SubjectConduit<Output, Failure>

  @inlinable
  init(
    latest: Output?,
    deliver: SubjectReceiver<Output, Failure>,
    downstream: Any,
    conduit: SubjectConduit<Output, Failure>
  ) {
    self.latest = latest
    self.deliver = deliver
    self.downstream = downstream
    self.conduit = conduit
  }
}

/// The state behind a subject's lock: its subscribers, its completion, and the delivery in progress.
///
/// Subscribers are kept in a table of slots, linked in subscription order: subscribing appends, and cancelling
/// unlinks and frees the slot, both in constant time however many subscribers there are. A subscriber's
/// subscription names its slot and its entry's `id`, so that a late call for an entry that has gone never
/// touches a later entry in the same slot.
///
/// Sends are serialised: while one call is delivering, later events queue and that call delivers them in order.
/// A value is offered in subscription order to the subscribers that were there when its delivery began.
@usableFromInline
struct SubjectState<Output, Failure: Error> {
  @usableFromInline
  typealias Entry = SubjectEntry<Output, Failure>

  @usableFromInline
  enum Event {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
    /// A `CurrentValueSubject` subscriber got demand while holding a value.
    case flush(slot: Int, id: UInt64)
  }

  /// What the delivering call does next, outside the lock.
  @usableFromInline
  enum Step {
    /// Hands `value` to the subscriber in `slot`, then reports back with ``delivered(slot:more:value:)``.
    case value(SubjectReceiver<Output, Failure>, slot: Int, Output)
    /// Hands the completion to every subscriber, whose entries have left the table.
    case completion(ContiguousArray<Entry>, Subscribers.Completion<Failure>)
    case done
  }

  /// Each slot's place in the order and demand, and its entry (`nil` when the slot is free).
  @usableFromInline var links = ContiguousArray<SubjectLink>()
  @usableFromInline var slots = ContiguousArray<Entry?>()
  @usableFromInline var freeSlots: [Int] = []
  @usableFromInline var head = -1
  @usableFromInline var tail = -1
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
  /// The last subscriber (by `id`) the value being delivered is offered to.
  @usableFromInline var lastID: UInt64 = 0
  @usableFromInline var queue: [Event] = []
  @usableFromInline var queueHead = 0
  /// The subject, for the subscriptions' mirrors; set once by the subject's initializer.
  @usableFromInline weak var subject: AnyObject?

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
    deliver: SubjectReceiver<Output, Failure>,
    downstream: Any
  ) -> SubjectConduit<Output, Failure> {
    let id = nextID
    nextID += 1
    let slot = freeSlots.popLast() ?? slots.count
    let conduit = SubjectConduit(core: core, slot: slot, id: id)
    let entry = Entry(latest: current, deliver: deliver, downstream: downstream, conduit: conduit)
    let link = SubjectLink(id: id, previous: tail)
    if slot < slots.count {
      slots[slot] = entry
      links[slot] = link
    } else {
      slots.append(entry)
      links.append(link)
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
  @inlinable
  mutating func remove(slot: Int) -> Entry {
    let entry = slots[slot].take()!
    let link = links[slot]
    links[slot].phase = .free
    entry.conduit.recordEnd(demand: link.demand)
    if link.previous >= 0 { links[link.previous].next = link.next } else { head = link.next }
    if link.next >= 0 { links[link.next].previous = link.previous } else { tail = link.previous }
    if head < 0 {
      // The last subscriber has left: give the table's memory back.
      slots = []
      links = []
      freeSlots = []
    } else {
      freeSlots.append(slot)
    }
    return entry
  }

  /// Ends the subscription in `slot`; returns the entry to release outside the lock, if it left the table now.
  ///
  /// A subscriber being delivered to leaves the table when it returns.
  @inlinable
  mutating func cancel(slot: Int, id: UInt64) -> Entry? {
    guard holds(slot: slot, id: id) else { return nil }
    switch links[slot].phase {
    case .cancelledWhileBusy, .free:
      return nil
    case .busy:
      links[slot].phase = .cancelledWhileBusy
      return nil
    case .live:
      return remove(slot: slot)
    }
  }

  /// Starts delivering `event`, or queues it behind the delivery in progress.
  @inlinable
  mutating func start(_ event: Event) -> Step {
    guard !isSending else {
      queue.append(event)
      return .done
    }
    isSending = true
    return begin(event)
  }

  /// Records what the subscriber in `slot` asked for after a value, and moves on.
  ///
  /// Returns the entry too if it was cancelled meanwhile: it leaves the table, to be released outside the lock.
  @inlinable
  mutating func delivered(slot: Int, more: Subscribers.Demand, value: Output) -> (Step, Entry?) {
    let next = links[slot].next
    var removed: Entry?
    if links[slot].phase == .cancelledWhileBusy {
      removed = remove(slot: slot)
    } else {
      links[slot].phase = .live
      if more != .none { links[slot].demand += more }
    }
    return (offer(value, from: next), removed)
  }

  /// The next event's first step, or `.done` when the queue is empty, which ends the delivering call.
  @inlinable
  mutating func next() -> Step {
    while queueHead < queue.count {
      let event = queue[queueHead]
      queueHead += 1
      let step = begin(event)
      if case .done = step { continue }
      return step
    }
    if queueHead > 0 {
      queue.removeAll(keepingCapacity: queue.count < 64)
      queueHead = 0
    }
    isSending = false
    return .done
  }

  @inlinable
  mutating func begin(_ event: Event) -> Step {
    switch event {
    case .value(let value):
      guard head >= 0 else { return next() }
      lastID = links[tail].id
      return offer(value, from: head)
    case .completion(let completion):
      // No subscriber is busy: events start only between deliveries.
      var ending = ContiguousArray<Entry>()
      var slot = head
      while slot >= 0, let entry = slots[slot] {
        entry.conduit.recordEnd(demand: links[slot].demand)
        ending.append(entry)
        slot = links[slot].next
      }
      slots = []
      links = []
      freeSlots = []
      head = -1
      tail = -1
      return .completion(ending, completion)
    case .flush(let slot, let id):
      guard holds(slot: slot, id: id), links[slot].phase == .live, links[slot].demand > 0,
        let value = slots[slot]!.latest
      else { return next() }
      slots[slot]!.latest = nil
      links[slot].demand -= 1
      links[slot].phase = .busy
      // The next slot is past the last one, so that only this subscriber gets the value.
      lastID = id
      return .value(slots[slot]!.deliver, slot: slot, value)
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
      let current = slot
      slot = link.next
      guard link.phase == .live else { continue }
      guard link.demand > 0 else {
        if self.current != nil { slots[current]!.latest = value }
        continue
      }
      links[current].demand -= 1
      if self.current != nil { slots[current]!.latest = nil }
      links[current].phase = .busy
      return .value(slots[current]!.deliver, slot: current, value)
    }
    return next()
  }
}
