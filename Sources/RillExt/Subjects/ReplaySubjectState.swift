/// Everything a ``ReplaySubject`` knows, kept behind its one lock: the values to replay, its completion, and one
/// record per subscriber with the values that subscriber has not been able to take yet.
///
/// Each event is a mutating method that returns what to do once the lock is released: which subscribers get a value
/// now, and which need draining. A subscriber is drained by one thread at a time (`isDelivering`); an event that
/// finds it busy only queues, and the thread that is delivering picks the queue up, so nothing is lost, duplicated
/// or reordered, and a subscriber that sends to the subject from inside a delivery only adds to its own queue.
struct ReplaySubjectState<Output, Failure: Error> {
  /// One subscriber: its queue of values beyond its demand, and a completion to deliver once the queue is empty.
  struct Conduit {
    let id: Int

    let downstream: AnySubscriber<Output, Failure>

    var pending: ReplayFIFO<Output>

    var completion: Subscribers.Completion<Failure>?

    var demand = Subscribers.Demand.none

    /// Whether a thread is delivering to this subscriber (or it has not received its subscription yet).
    var isDelivering = true
  }

  /// A value handed to a subscriber outside the lock.
  struct Delivery {
    let id: Int

    let downstream: AnySubscriber<Output, Failure>
  }

  /// The next thing to do for one subscriber while draining it.
  enum DrainStep {
    case deliver(AnySubscriber<Output, Failure>, Output)
    case complete(AnySubscriber<Output, Failure>, Subscribers.Completion<Failure>)
    case idle
  }

  private var replayed: ReplayRing<Output>

  private(set) var completion: Subscribers.Completion<Failure>?

  /// The live subscribers in the order they subscribed; ids increase, so the array stays sorted by id.
  private(set) var conduits: [Conduit] = []

  private var nextID = 0

  init(bufferSize: Int) {
    replayed = ReplayRing(capacity: max(0, bufferSize))
  }

  /// Adds a subscriber whose queue starts with the values to replay and, if the subject is done, its completion.
  ///
  /// The subscriber is marked as delivering until its first drain, so nothing reaches it before its subscription.
  mutating func subscribe(_ downstream: AnySubscriber<Output, Failure>) -> Int {
    let id = nextID
    nextID += 1
    conduits.append(
      Conduit(id: id, downstream: downstream, pending: ReplayFIFO(replayed.elements), completion: completion)
    )
    return id
  }

  /// Records `value` for replay and for each subscriber; returns the subscribers that take it at once.
  mutating func send(_ value: Output) -> [Delivery] {
    guard completion == nil else { return [] }
    replayed.append(value)
    var deliveries: [Delivery] = []
    for index in conduits.indices {
      if !conduits[index].isDelivering && conduits[index].pending.isEmpty && conduits[index].demand > 0 {
        conduits[index].demand -= 1
        conduits[index].isDelivering = true
        deliveries.append(Delivery(id: conduits[index].id, downstream: conduits[index].downstream))
      } else {
        conduits[index].pending.append(value)
      }
    }
    return deliveries
  }

  /// Records the completion for each subscriber, after its queue; returns the ids of the subscribers to drain.
  mutating func send(completion: Subscribers.Completion<Failure>) -> [Int] {
    guard self.completion == nil else { return [] }
    self.completion = completion
    var drains: [Int] = []
    for index in conduits.indices {
      conduits[index].completion = completion
      if !conduits[index].isDelivering {
        conduits[index].isDelivering = true
        drains.append(conduits[index].id)
      }
    }
    return drains
  }

  /// Adds demand; returns whether the caller must drain the subscriber (it has something waiting and nobody is
  /// delivering to it).
  mutating func request(_ demand: Subscribers.Demand, for id: Int) -> Bool {
    guard let index = index(of: id) else { return false }
    conduits[index].demand += demand
    let conduit = conduits[index]
    guard !conduit.isDelivering, conduit.demand > 0, !conduit.pending.isEmpty else { return false }
    conduits[index].isDelivering = true
    return true
  }

  /// Removes a subscriber; returns its record so that it is released after the lock.
  mutating func cancel(_ id: Int) -> Conduit? {
    guard let index = index(of: id) else { return nil }
    return conduits.remove(at: index)
  }

  /// Adds the demand a delivery returned and picks the next step for a subscriber being drained; a completion
  /// removes the subscriber, and `.idle` ends the drain.
  mutating func next(for id: Int, adding demand: Subscribers.Demand) -> DrainStep {
    guard let index = index(of: id) else { return .idle }
    conduits[index].demand += demand
    if conduits[index].pending.isEmpty {
      if let completion = conduits[index].completion {
        return .complete(conduits.remove(at: index).downstream, completion)
      }
    } else if conduits[index].demand > 0 {
      conduits[index].demand -= 1
      return .deliver(conduits[index].downstream, conduits[index].pending.removeFirst())
    }
    conduits[index].isDelivering = false
    return .idle
  }

  private func index(of id: Int) -> Int? {
    var low = 0
    var high = conduits.count
    while low < high {
      let middle = (low + high) / 2
      if conduits[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low < conduits.count && conduits[low].id == id ? low : nil
  }
}

/// The latest `capacity` values, oldest first.
struct ReplayRing<Element> {
  private let capacity: Int

  private var storage: [Element] = []

  /// Where the oldest value is once `storage` is full.
  private var start = 0

  init(capacity: Int) {
    self.capacity = capacity
  }

  var elements: [Element] {
    start == 0 ? storage : Array(storage[start...] + storage[..<start])
  }

  mutating func append(_ element: Element) {
    guard capacity > 0 else { return }
    if storage.count < capacity {
      storage.append(element)
    } else {
      storage[start] = element
      start = (start + 1) % capacity
    }
  }
}

/// A first-in, first-out queue that removes from the front without moving the rest every time.
struct ReplayFIFO<Element> {
  private var storage: [Element]

  private var head = 0

  init(_ elements: [Element]) {
    storage = elements
  }

  var isEmpty: Bool { head == storage.count }

  var count: Int { storage.count - head }

  mutating func append(_ element: Element) {
    storage.append(element)
  }

  mutating func removeFirst() -> Element {
    let element = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 16 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }
}
