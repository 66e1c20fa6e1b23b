/// The events on their way to a downstream, delivered by one caller at a time, in order.
///
/// It is the drain loop of the operators whose events can arrive on several threads at once and take their place
/// in the order as they arrive. Values that wait for a subscriber's demand wait in a ``DemandBuffer`` instead.
///
/// The caller that finds the queue idle becomes the *drainer*: it delivers the event it pushed, then asks for the
/// next until there is none. A caller that finds a drain in progress, on another thread or re-entrantly from inside
/// the downstream, leaves its event queued and returns, so the downstream is never called concurrently and the
/// stack never grows. The queue lives in an operator's `Locked` state, usually inside its state machine.
///
/// - ``push(_:)`` and ``next()`` serve an operator that knows an event's place in the order when it arrives
///   (`zip`, `switchToLatest`, `debounce`'s due values).
/// - ``enqueue(_:)`` and ``release()`` serve scheduler actions: a concurrent scheduler may run two actions at once,
///   or in another order than they were scheduled, so an event is queued when it arrives, and each action that
///   runs releases the oldest event not yet released, whichever action it is. Because an action carries no event
///   of its own, it can capture nothing but its operator, which costs no allocation.
@usableFromInline
struct DeliveryQueue<Event> {
  /// The queued events in arrival order; the first `released` of them may be delivered.
  @usableFromInline var events = FIFO<Event>()
  @usableFromInline var released = 0
  @usableFromInline var isDraining = false

  /// Queues an event that has just arrived, fixing its place in the delivery order; an action releases it.
  @inlinable
  mutating func enqueue(_ event: Event) {
    events.append(event)
  }

  /// Releases the oldest queued event; returns the next event when the caller must deliver it now.
  @inlinable
  mutating func release() -> Event? {
    // Events dropped by `removeAll()` stay dropped: their actions find nothing left to release.
    guard released < events.count else { return nil }
    released += 1
    guard !isDraining else { return nil }
    return takeNext()
  }

  /// Queues and releases an event at once: its place in the order is the moment it is pushed.
  @inlinable
  mutating func push(_ event: Event) -> Event? {
    // Nothing queued and nobody delivering: the caller delivers this event at once, so it need not be stored.
    if !isDraining, events.isEmpty {
      isDraining = true
      return event
    }
    enqueue(event)
    return release()
  }

  /// Returns the next event for the drainer to deliver, or `nil` when the drain is over.
  @inlinable
  mutating func next() -> Event? {
    takeNext()
  }

  /// Takes the queued events out, for the caller to release after unlocking; a drain in progress ends at its next
  /// call to ``next()``.
  @inlinable
  mutating func removeAll() -> FIFO<Event> {
    released = 0
    return events.take()
  }

  @inlinable
  mutating func takeNext() -> Event? {
    guard released > 0 else {
      isDraining = false
      return nil
    }
    released -= 1
    isDraining = true
    return events.removeFirst()
  }
}

/// An event on its way downstream through a ``DeliveryQueue``: a value, or the completion that ends the stream.
@usableFromInline
enum DeliveryEvent<Value, Failure: Error> {
  case value(Value)
  case completion(Subscribers.Completion<Failure>)
  /// A value taken from the queue and not delivered (`receive(on:)` after a cancel): the drainer lets it go after
  /// unlocking and takes the next event.
  case dropped(Value)
}

/// A state machine that hands its events downstream through a ``DeliveryQueue`` and lets `Locked.drain` deliver
/// them: `receive(on:)`, `delay`, `debounce`, `throttle`, `timeout` and `collect(.byTime)`.
@usableFromInline
protocol DrainingStateMachine<Output, Failure> {
  /// What the operator sends downstream.
  associatedtype Output
  associatedtype Failure: Error
  /// What the machine lets go of once its completion is being delivered, for the drainer to release after unlocking.
  associatedtype Released

  /// The next event for the drainer, or `nil` when the drain is over.
  mutating func next() -> DeliveryEvent<Output, Failure>?

  /// The drainer is about to deliver the completion: nothing follows it, and the link to the upstream ends.
  ///
  /// Returns what the machine let go of: the events still queued, the upstream's subscription.
  mutating func deliveringCompletion() -> Released
}

extension Locked where State: DrainingStateMachine {
  /// Delivers `first`, then each event the machine queued meanwhile, one at a time and in order, outside the lock.
  ///
  /// `demanded` receives the demand a value returns, when it is more than none; the operator adds it to its own
  /// count or forwards it upstream.
  @inlinable
  func drain<Downstream: Subscriber>(
    _ first: DeliveryEvent<State.Output, State.Failure>?,
    to downstream: Downstream,
    demanded: (Subscribers.Demand) -> Void
  ) where Downstream.Input == State.Output, Downstream.Failure == State.Failure {
    var next = first
    while let event = next {
      switch event {
      case .value(let value):
        let demand = downstream.receive(value)
        if demand > 0 { demanded(demand) }
      case .completion(let completion):
        // Released after unlocking, before the completion goes out.
        _ = withLock { $0.deliveringCompletion() }
        downstream.receive(completion: completion)
      case .dropped:
        break
      }
      next = withLock { $0.next() }
    }
  }
}
