/// The values and the completion that wait for one subscriber's demand, and who is delivering them.
///
/// It holds no lock and calls nobody: its owner keeps it inside `Locked` and acts on what each method returns once
/// the lock is released. One thread delivers at a time (`isDelivering`); an event that finds a delivery under way
/// only queues, and the delivering thread picks the queue up in `next(adding:)`, so nothing is lost, duplicated or
/// reordered, and a subscriber that sends more, or requests more, from inside a delivery only adds to the queue or
/// the demand.
///
/// A completion waits behind the queued values and needs no demand of its own. Once the buffer has ended (its
/// completion handed out, or `end()` called) every event is ignored.
struct DemandBuffer<Output, Failure: Error> {
  /// The next thing the delivering thread does.
  enum DrainStep {
    case deliver(Output)
    case complete(Subscribers.Completion<Failure>)
    /// Nothing can go now; the delivering thread stops.
    case idle
  }

  private var pending = FIFO<Output>()

  private var completion: Subscribers.Completion<Failure>?

  /// What the subscriber has asked for and not yet received.
  private(set) var demand = Subscribers.Demand.none

  private var isDelivering = false

  /// Whether a completion was sent (it may still wait behind values) or the buffer ended.
  private(set) var isCompleted = false

  /// Whether the completion was handed out or `end()` was called.
  private(set) var hasEnded = false

  /// The number of values waiting for demand.
  var count: Int { pending.count }

  /// A value arrives: returns `true` if the caller delivers it now, and must then call `next(adding:)` with the demand
  /// the subscriber returned until it gets `.idle`; `false` if it was queued or ignored.
  mutating func send(_ value: Output) -> Bool {
    guard !isCompleted else { return false }
    if !isDelivering && pending.isEmpty && demand > 0 {
      demand -= 1
      isDelivering = true
      return true
    }
    pending.append(value)
    return false
  }

  /// The completion arrives: returns `true` if the caller must drain (call `next(adding: .none)` until `.idle`).
  mutating func send(completion: Subscribers.Completion<Failure>) -> Bool {
    guard !isCompleted else { return false }
    isCompleted = true
    self.completion = completion
    return claimDelivery()
  }

  /// The subscriber asks for more: returns `true` if the caller must drain.
  mutating func request(_ demand: Subscribers.Demand) -> Bool {
    guard !hasEnded else { return false }
    self.demand += demand
    return claimDelivery()
  }

  /// Adds the demand the last delivery returned and picks the next step for the delivering thread.
  mutating func next(adding demand: Subscribers.Demand) -> DrainStep {
    guard !hasEnded else { return .idle }
    self.demand += demand
    if pending.isEmpty {
      if let completion {
        end()
        return .complete(completion)
      }
    } else if self.demand > 0 {
      self.demand -= 1
      return .deliver(pending.removeFirst())
    }
    isDelivering = false
    return .idle
  }

  /// Ends the buffer without a completion (the subscriber cancelled), letting go of what waits.
  mutating func end() {
    hasEnded = true
    isCompleted = true
    pending = FIFO()
    completion = nil
    demand = .none
  }

  /// Marks the caller as the delivering thread if something can go and nobody is delivering.
  private mutating func claimDelivery() -> Bool {
    guard !isDelivering, !hasEnded else { return false }
    let canGo = pending.isEmpty ? completion != nil : demand > 0
    guard canGo else { return false }
    isDelivering = true
    return true
  }
}
