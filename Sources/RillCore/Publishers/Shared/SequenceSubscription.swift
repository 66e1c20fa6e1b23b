// `public` because the delivery loop is `@inlinable` and reads the cancellation flag, an atomic.
public import Atomics

/// Delivers the elements of a sequence on demand, then a completion; the engine of `Publishers.Sequence` and
/// `Record`.
///
/// The thread that delivers owns the iterator while it delivers, so no lock is taken per element: demand is
/// taken from the shared state in batches, and cancellation is a flag beside the lock (its gate), read atomically
/// before each element.
/// A `request` from inside `receive` adds to the batch and never recurses, so the stack does not grow.
// SAFETY: mutable state is in `state` and its gate; the iterator is touched only by the one thread that holds
// `isDelivering`.
@usableFromInline
final class SequenceSubscription<Downstream: Subscriber, Elements: Sequence>: Subscription,
  CombineDescribable, @unchecked Sendable
where Downstream.Input == Elements.Element {
  @usableFromInline
  struct State {
    @usableFromInline
    var downstream: Downstream?
    @usableFromInline
    var iterator: Elements.Iterator?
    @usableFromInline
    var next: Elements.Element?
    @usableFromInline
    var demand = Subscribers.Demand.none
    @usableFromInline
    var isDelivering = false
    /// What the subscription shows while it delivers: the sequence, as its description and as its mirror's child;
    /// released once the subscription has finished or been cancelled.
    @usableFromInline
    var elements: Elements?

    @inlinable
    init(downstream: Downstream, iterator: Elements.Iterator, next: Elements.Element, elements: Elements) {
      self.downstream = downstream
      self.iterator = iterator
      self.next = next
      self.elements = elements
    }
  }

  /// The shared state; its gate is 1 once the subscription has been cancelled (a gate beside a lock:
  /// WritingAnOperator.md, "Hot-path idioms").
  @usableFromInline
  let state: GatedLocked<State>

  /// Whether the subscription has been cancelled, read without the lock.
  @inlinable
  var isCancelled: Bool { state.gate.load(ordering: .acquiring) != 0 }

  @usableFromInline
  let completion: Subscribers.Completion<Downstream.Failure>

  /// What the subscription is called once it has finished or been cancelled, as in Combine.
  @usableFromInline
  let terminalName: String

  /// Whether the mirror shows the completion after the elements, as a `Record`'s does.
  @usableFromInline
  let mirrorsCompletion: Bool

  /// Runs `requestNow`, and its delivery loop, in specialised code (a specialised entry: WritingAnOperator.md,
  /// "Hot-path idioms").
  @usableFromInline
  let specialized: SpecializedEntry<SequenceSubscription>

  @inlinable
  init(
    downstream: Downstream,
    iterator: Elements.Iterator,
    first: Elements.Element,
    completion: Subscribers.Completion<Downstream.Failure>,
    terminalName: String,
    mirrorsCompletion: Bool,
    elements: Elements
  ) {
    state = GatedLocked(State(downstream: downstream, iterator: iterator, next: first, elements: elements))
    self.completion = completion
    self.terminalName = terminalName
    self.mirrorsCompletion = mirrorsCompletion
    specialized = SpecializedEntry { $0.requestNow($1) }
  }

  /// Subscribes `downstream` to `elements`: an empty sequence completes right away, without waiting for demand.
  ///
  /// While it delivers, the subscription describes and mirrors itself as `elements`; once it has finished or been
  /// cancelled, it is called `terminalName` and mirrors no elements.
  @inlinable
  static func subscribe(
    _ downstream: Downstream,
    to elements: Elements,
    completion: Subscribers.Completion<Downstream.Failure>,
    terminalName: String,
    mirrorsCompletion: Bool = false
  ) {
    var iterator = elements.makeIterator()
    guard let first = iterator.next() else {
      downstream.receive(subscription: Subscriptions.empty)
      downstream.receive(completion: completion)
      return
    }
    let subscription = SequenceSubscription(
      downstream: downstream,
      iterator: iterator,
      first: first,
      completion: completion,
      terminalName: terminalName,
      mirrorsCompletion: mirrorsCompletion,
      elements: elements
    )
    downstream.receive(subscription: subscription)
  }

  /// The sequence while the subscription delivers; `nil` once it has finished or been cancelled.
  @usableFromInline
  var elements: Elements? { state.withLock { $0.elements } }

  @usableFromInline
  var description: String { elements.map { String(describing: $0) } ?? terminalName }

  @usableFromInline
  var customMirror: Mirror {
    let sequence: Any = elements ?? [Downstream.Input]()
    guard mirrorsCompletion else { return Mirror(self, children: ["sequence": sequence]) }
    return Mirror(self, children: ["sequence": sequence, "completion": completion])
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    specialized(self, demand)
  }

  @inlinable
  func requestNow(_ demand: Subscribers.Demand) {
    // A request for `.none` is allowed, as in Combine, and delivers nothing.
    let start = state.withLock { state -> (Downstream, Elements.Iterator, Elements.Element, Subscribers.Demand)? in
      guard let downstream = state.downstream else { return nil }
      state.demand += demand
      guard !state.isDelivering, state.demand > 0, let iterator = state.iterator, let next = state.next else {
        return nil
      }
      state.isDelivering = true
      defer {
        state.demand = .none
        state.iterator = nil
        state.next = nil
      }
      return (downstream, iterator, next, state.demand)
    }
    guard let (downstream, iterator, next, demand) = start else { return }
    deliver(to: downstream, iterator: iterator, next: next, demand: demand)
  }

  @inlinable
  func deliver(
    to downstream: Downstream,
    iterator: Elements.Iterator,
    next: Elements.Element,
    demand: Subscribers.Demand
  ) {
    var iterator = iterator
    var element = next
    var demand = demand
    while true {
      if demand == .unlimited {
        deliverUnlimited(to: downstream, iterator: iterator, next: element)
        return
      }
      while demand > 0 {
        if isCancelled { return }
        demand -= 1
        demand += downstream.receive(element)
        guard let following = iterator.next() else {
          finish()
          return
        }
        element = following
      }
      let more = state.withLock { state -> Subscribers.Demand? in
        guard state.downstream != nil else { return nil }
        guard state.demand > 0 else {
          state.iterator = iterator
          state.next = element
          state.isDelivering = false
          return nil
        }
        defer { state.demand = .none }
        return state.demand
      }
      guard let more else { return }
      demand = more
    }
  }

  /// The loop for unlimited demand.
  ///
  /// Unlimited demand stays unlimited whatever downstream answers, so the answers need not be added up. The
  /// loop is apart from the rest of the delivery so that no closure captures its iterator, which can then stay
  /// in registers.
  @inlinable
  func deliverUnlimited(to downstream: Downstream, iterator: Elements.Iterator, next: Elements.Element) {
    var iterator = iterator
    var element = next
    while true {
      if isCancelled { return }
      _ = downstream.receive(element)
      guard let following = iterator.next() else {
        finish()
        return
      }
      element = following
    }
  }

  @inlinable
  func finish() {
    let (downstream, elements) = state.withLock { state -> (Downstream?, Elements?) in
      defer { state.downstream = nil }
      return (state.downstream, state.elements.take())
    }
    // The sequence is released here, outside the lock.
    _ = elements
    downstream?.receive(completion: completion)
  }

  @inlinable
  func cancel() {
    state.gate.store(1, ordering: .releasing)
    let released = state.withLock { state -> (Downstream?, Elements.Iterator?, Elements.Element?, Elements?) in
      defer {
        state.downstream = nil
        state.iterator = nil
        state.next = nil
      }
      return (state.downstream, state.iterator, state.next, state.elements.take())
    }
    _ = released
  }
}
