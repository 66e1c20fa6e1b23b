/// Everything a ``ReplaySubject`` knows, kept behind its one lock: the values to replay, its completion, and one
/// slot per subscriber with the values that subscriber has not been able to take yet.
///
/// Each event is a mutating method that returns the first step of a drain: what the calling thread delivers once
/// the lock is released. The thread then reports back (`delivered`, `next`) and gets its next step, until `.done`.
/// A drain owns the subscribers whose slot holds its token, and delivers to them one at a time, in the order they
/// subscribed: a send claims every subscriber that can take its value at once, a completion every subscriber
/// nobody is delivering to, a subscription or a request its own subscriber. An event that finds a subscriber owned
/// by another drain only queues, and that drain picks the queue up, so nothing is lost, duplicated or reordered, and
/// a subscriber that sends to the subject from inside a delivery only adds to its own queue.
@usableFromInline
struct ReplaySubjectState<Output, Failure: Error> {
  @usableFromInline
  typealias Conduit = ReplaySubjectConduitBase<Output, Failure>

  /// One subscriber.
  @usableFromInline
  struct Slot {
    @usableFromInline
    let id: Int

    @usableFromInline
    let conduit: Conduit

    /// The values beyond the subscriber's demand, oldest first.
    @usableFromInline
    var pending: FIFO<Output>

    @usableFromInline
    var demand: Subscribers.Demand

    /// The token of the drain that owns the subscriber; `0` when none does.
    @usableFromInline
    var drain: Int

    /// Whether the owning send still has to deliver its value (its demand already taken).
    @usableFromInline
    var owesSentValue = false

    /// Whether the owning drain is inside the subscriber, or about to call it.
    @usableFromInline
    var isBusy = false

    @inlinable
    init(conduit: Conduit, pending: [Output], drain: Int) {
      id = conduit.id
      self.conduit = conduit
      self.pending = FIFO(pending)
      demand = .max(0)
      self.drain = drain
    }
  }

  /// A drain in progress, kept by the thread that runs it.
  @usableFromInline
  struct Drain {
    /// Marks the subscribers this drain owns.
    @usableFromInline
    var token = 0

    /// The subscriber being delivered to, and where its slot was.
    @usableFromInline
    var id = -1

    @usableFromInline
    var index = 0

    /// The value of the send that started the drain.
    @usableFromInline
    var sent: Output?

    @inlinable
    init() {}
  }

  /// What a drain does next, outside the lock.
  @usableFromInline
  enum Step {
    case value(Conduit, Output)
    /// The subscriber has been removed; the drain delivers the completion and lets go of it.
    case completion(Conduit, Subscribers.Completion<Failure>)
    case done
  }

  @usableFromInline
  var replayed: ReplayRing<Output>

  @usableFromInline
  var completion: Subscribers.Completion<Failure>?

  /// The live subscribers in the order they subscribed; ids increase, so the slots stay sorted by id.
  @usableFromInline
  var slots = ContiguousArray<Slot>()

  @usableFromInline
  var nextID = 0

  @usableFromInline
  var nextToken = 1

  @inlinable
  init(bufferSize: Int) {
    replayed = ReplayRing(capacity: max(0, bufferSize))
  }

  @inlinable
  mutating func makeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  @inlinable
  mutating func start(_ drain: inout Drain) {
    drain.token = nextToken
    nextToken += 1
  }

  /// Adds a subscriber whose queue starts with the values to replay; `drain` owns it, so nothing reaches it before
  /// its subscription, and `resume` delivers to it after.
  @inlinable
  mutating func subscribe(_ conduit: Conduit, _ drain: inout Drain) {
    start(&drain)
    drain.id = conduit.id
    drain.index = slots.count
    slots.append(Slot(conduit: conduit, pending: replayed.elements, drain: drain.token))
  }

  /// The first step of a drain that owns one subscriber, `drain.id`.
  @inlinable
  mutating func resume(_ drain: inout Drain) -> Step {
    guard let index = index(of: &drain) else { return .done }
    return step(at: index, &drain) ?? .done
  }

  /// Records `value` for replay and for each subscriber; claims the subscribers that can take it at once.
  ///
  /// The value that leaves the replay buffer goes to `evicted`, for the caller to release after the lock.
  @inlinable
  mutating func send(_ value: Output, _ drain: inout Drain, evicted: inout Output?) -> Step {
    guard completion == nil else { return .done }
    evicted = replayed.append(value)
    start(&drain)
    var first = -1
    for index in slots.indices {
      if slots[index].drain == 0 && slots[index].demand > 0 && slots[index].pending.isEmpty {
        slots[index].drain = drain.token
        slots[index].demand -= 1
        slots[index].owesSentValue = true
        if first < 0 { first = index }
      } else {
        slots[index].pending.append(value)
      }
    }
    guard first >= 0 else { return .done }
    drain.sent = value
    return advance(&drain, from: first)
  }

  /// Records the completion; claims every subscriber no drain owns, to deliver it after the values its demand
  /// covers.
  @inlinable
  mutating func send(completion: Subscribers.Completion<Failure>, _ drain: inout Drain) -> Step {
    guard self.completion == nil else { return .done }
    self.completion = completion
    start(&drain)
    for index in slots.indices where slots[index].drain == 0 {
      slots[index].drain = drain.token
    }
    return advance(&drain, from: 0)
  }

  /// Adds demand; claims the subscriber if it has values waiting and no drain owns it.
  @inlinable
  mutating func request(_ demand: Subscribers.Demand, for id: Int, _ drain: inout Drain) -> Step {
    drain.id = id
    guard let index = index(of: &drain) else { return .done }
    slots[index].demand += demand
    guard slots[index].drain == 0, slots[index].demand > 0, !slots[index].pending.isEmpty else { return .done }
    start(&drain)
    slots[index].drain = drain.token
    return step(at: index, &drain) ?? .done
  }

  /// Removes a subscriber; returns its slot so that it is released after the lock.
  ///
  /// If the slot is busy, the drain inside the subscriber lets go of the subscriber when it comes back.
  @inlinable
  mutating func cancel(_ id: Int) -> Slot? {
    var drain = Drain()
    drain.id = id
    guard let index = index(of: &drain) else { return nil }
    return slots.remove(at: index)
  }

  /// Adds the demand the subscriber returned for a value, and picks the drain's next step.
  ///
  /// Sets `cancelled` when the subscriber was cancelled during the delivery: the caller lets go of it.
  @inlinable
  mutating func delivered(_ demand: Subscribers.Demand, _ drain: inout Drain, cancelled: inout Bool) -> Step {
    guard let index = index(of: &drain) else {
      cancelled = true
      return next(&drain)
    }
    slots[index].isBusy = false
    slots[index].demand += demand
    if let step = step(at: index, &drain) { return step }
    return advance(&drain, from: index + 1)
  }

  /// The drain's next step after a completion, or after its subscriber left.
  @inlinable
  mutating func next(_ drain: inout Drain) -> Step {
    var low = 0
    var high = slots.count
    while low < high {
      let middle = (low + high) / 2
      if slots[middle].id <= drain.id { low = middle + 1 } else { high = middle }
    }
    return advance(&drain, from: low)
  }

  /// Finds the next subscriber the drain owns, from `start` on, and its first step.
  @inlinable
  mutating func advance(_ drain: inout Drain, from start: Int) -> Step {
    var index = start
    while index < slots.count {
      if slots[index].drain == drain.token {
        drain.id = slots[index].id
        drain.index = index
        if slots[index].owesSentValue, let value = drain.sent {
          slots[index].owesSentValue = false
          slots[index].isBusy = true
          return .value(slots[index].conduit, value)
        }
        if let step = step(at: index, &drain) { return step }
      }
      index += 1
    }
    return .done
  }

  /// The next step for the owned subscriber at `index`: its next queued value if it has demand, its completion once
  /// its queue is empty or its demand has run out (dropping the values still queued), or `nil` after giving it up
  /// (nothing it can take now).
  @inlinable
  mutating func step(at index: Int, _ drain: inout Drain) -> Step? {
    if !slots[index].pending.isEmpty {
      if slots[index].demand > 0 {
        slots[index].demand -= 1
        slots[index].isBusy = true
        return .value(slots[index].conduit, slots[index].pending.removeFirst())
      }
      if let completion {
        // As in CombineExt, the completion does not wait for demand for the values still queued.
        return .completion(slots.remove(at: index).conduit, completion)
      }
    } else if let completion {
      return .completion(slots.remove(at: index).conduit, completion)
    }
    slots[index].drain = 0
    return nil
  }

  /// Where the slot of `drain.id` is, if the subscriber is still there; updates `drain.index`.
  @inlinable
  func index(of drain: inout Drain) -> Int? {
    if drain.index < slots.count && slots[drain.index].id == drain.id { return drain.index }
    var low = 0
    var high = slots.count
    while low < high {
      let middle = (low + high) / 2
      if slots[middle].id < drain.id { low = middle + 1 } else { high = middle }
    }
    guard low < slots.count && slots[low].id == drain.id else { return nil }
    drain.index = low
    return low
  }
}
