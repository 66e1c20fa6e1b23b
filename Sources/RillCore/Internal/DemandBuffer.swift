/// The values and the completion that wait for one subscriber's demand, and who is delivering them.
///
/// It holds no lock and calls nobody: its owner keeps it inside `Locked` and acts on what each method returns once
/// the lock is released. One thread delivers at a time (`isDelivering`); an event that finds a delivery under way
/// only queues, and the delivering thread picks the queue up in `next(adding:)`, so nothing is lost, duplicated or
/// reordered, and a subscriber that sends more, or requests more, from inside a delivery only adds to the queue or
/// the demand.
///
/// A completion waits behind the queued values and needs no demand of its own; with `completionDropsWaitingValues`
/// (CombineExt's rule) it waits only as long as the subscriber has demand, and the values still queued then are
/// dropped. Once the buffer has ended (its completion handed out, or `end()` called) every event is ignored.
///
/// `Locked.drain(to:adding:next:)` is the delivering thread's loop. Operators whose events need no demand, or are
/// ordered by a scheduler, use ``DeliveryQueue`` instead.
@usableFromInline
package struct DemandBuffer<Output, Failure: Error> {
  /// The next thing the delivering thread does.
  @usableFromInline
  package enum DrainStep {
    case deliver(Output)
    /// Deliver the completion; `dropped` holds the values still queued that it drops, which the delivering thread
    /// releases after unlocking.
    case complete(Subscribers.Completion<Failure>, dropped: FIFO<Output>)
    /// Nothing can go now; the delivering thread stops.
    case idle
  }

  @usableFromInline var pending = FIFO<Output>()

  @usableFromInline var completion: Subscribers.Completion<Failure>?

  /// What the subscriber has asked for and not yet received.
  @usableFromInline package internal(set) var demand = Subscribers.Demand.none

  @usableFromInline var isDelivering = false

  /// Whether a completion goes once the demand has run out, dropping the values still queued, instead of waiting
  /// behind them.
  @usableFromInline let completionDropsWaitingValues: Bool

  /// Whether a completion was sent (it may still wait behind values) or the buffer ended.
  @usableFromInline package internal(set) var isCompleted = false

  /// Whether the completion was handed out or `end()` was called.
  @usableFromInline package internal(set) var hasEnded = false

  /// The number of values waiting for demand.
  @inlinable
  package var count: Int { pending.count }

  /// Creates an empty buffer.
  ///
  /// - Parameter completionDropsWaitingValues: Whether a completion goes once the subscriber's demand has run out,
  ///   dropping the values still queued (as CombineExt's buffers do), instead of waiting behind them.
  @inlinable
  package init(completionDropsWaitingValues: Bool = false) {
    self.completionDropsWaitingValues = completionDropsWaitingValues
  }

  /// A value that goes only if demand is left for it, as a hot source's does: returns `true` if the caller
  /// delivers it now, as ``send(_:)`` does; `false` if it was queued, or dropped because the demand is spoken for
  /// by the values already waiting.
  @inlinable
  package mutating func offer(_ value: Output) -> Bool {
    guard demand > pending.count else { return false }
    return send(value)
  }

  /// A value arrives: returns `true` if the caller delivers it now, and must then call `next(adding:)` with the demand
  /// the subscriber returned until it gets `.idle`; `false` if it was queued or ignored.
  @inlinable
  package mutating func send(_ value: Output) -> Bool {
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
  @inlinable
  package mutating func send(completion: Subscribers.Completion<Failure>) -> Bool {
    guard !isCompleted else { return false }
    isCompleted = true
    self.completion = completion
    return claimDelivery()
  }

  /// The subscriber asks for more: returns `true` if the caller must drain.
  @inlinable
  package mutating func request(_ demand: Subscribers.Demand) -> Bool {
    guard !hasEnded else { return false }
    self.demand += demand
    return claimDelivery()
  }

  /// Adds the demand the last delivery returned and picks the next step for the delivering thread.
  @inlinable
  package mutating func next(adding demand: Subscribers.Demand) -> DrainStep {
    guard !hasEnded else { return .idle }
    self.demand += demand
    if pending.isEmpty {
      if let completion {
        return .complete(completion, dropped: end())
      }
    } else if self.demand > 0 {
      self.demand -= 1
      return .deliver(pending.removeFirst())
    } else if completionDropsWaitingValues, let completion {
      return .complete(completion, dropped: end())
    }
    isDelivering = false
    return .idle
  }

  /// Ends the buffer without a completion (the subscriber cancelled); returns what waits, for the caller to release
  /// after unlocking.
  @inlinable
  package mutating func end() -> FIFO<Output> {
    hasEnded = true
    isCompleted = true
    completion = nil
    demand = .none
    return pending.take()
  }

  /// Marks the caller as the delivering thread if something can go and nobody is delivering.
  @inlinable
  mutating func claimDelivery() -> Bool {
    guard !isDelivering, !hasEnded else { return false }
    let canGo =
      pending.isEmpty ? completion != nil : demand > 0 || (completionDropsWaitingValues && completion != nil)
    guard canGo else { return false }
    isDelivering = true
    return true
  }
}

extension Locked {
  /// Delivers what a ``DemandBuffer`` in the state holds to `subscriber`, one event at a time, outside the lock.
  ///
  /// It delivers values as far as demand goes, then the completion. Only the caller the buffer chose to deliver runs
  /// it.
  ///
  /// `demand` is what the subscriber returned from the value the caller delivered, if any. `next` runs under the
  /// lock: it passes the demand the last value returned to the buffer's `next(adding:)`, with whatever its owner
  /// records, and returns the step.
  @inlinable
  package func drain<Downstream: Subscriber>(
    to subscriber: Downstream,
    adding demand: Subscribers.Demand,
    next: (inout State, Subscribers.Demand) -> DemandBuffer<Downstream.Input, Downstream.Failure>.DrainStep
  ) {
    var demand = demand
    while true {
      switch withLock({ next(&$0, demand) }) {
      case .deliver(let value):
        demand = subscriber.receive(value)
      case .complete(let completion, _):
        subscriber.receive(completion: completion)
        return
      case .idle:
        return
      }
    }
  }
}
