/// The subscription that the `zip` and `combineLatest` families present downstream: it runs a `ZipStateMachine`
/// and acts on its answers outside the machine's lock.
///
/// Each call to downstream is made under `delivery`, as Combine makes it under a recursive lock. A `zip` tuple goes
/// downstream on the thread whose value completed it, before that value's `receive` returns: `zip` handles each
/// upstream event under `delivery`, so another thread's event waits for a delivery in progress and one sent from
/// inside downstream is handled at once, nested. A `combineLatest` value claims its combination under the machine's
/// lock, and only the call to downstream waits for `delivery`; a value arriving meanwhile is kept as its
/// upstream's latest and not emitted, as in Combine. Upstreams are requested and cancelled outside `delivery`.
// SAFETY: all mutable state is in `machine`; downstream is called under `delivery` only, upstreams under no lock.
@usableFromInline
package final class ZipSubscription<Buffers: ZipBuffers, Downstream: Subscriber>: Subscription, CombineDescribable,
  @unchecked Sendable
where Buffers.Output == Downstream.Input {
  @usableFromInline
  package typealias Machine = ZipStateMachine<Buffers, Downstream.Failure>

  @usableFromInline let downstream: Downstream
  @usableFromInline let machine: Locked<Machine>
  @usableFromInline let delivery = DeliveryLock()
  @usableFromInline let mode: Machine.Mode
  @usableFromInline let name: String
  /// Runs `requestNow` in specialised code (a specialised entry: WritingAnOperator.md, "Hot-path idioms").
  @usableFromInline let specialized: SpecializedEntry<ZipSubscription>

  @inlinable
  init(downstream: Downstream, machine: Machine, name: String) {
    self.downstream = downstream
    self.mode = machine.mode
    self.machine = Locked(machine)
    self.name = name
    specialized = SpecializedEntry { $0.requestNow($1) }
  }

  /// Presents a zip or combineLatest of `count` upstreams, whose values `buffers` keeps, to `downstream`; the
  /// caller then subscribes each upstream `i` with `child(i)`.
  @inlinable
  package static func start(
    _ downstream: Downstream,
    mode: Machine.Mode,
    count: Int,
    buffers: Buffers
  ) -> ZipSubscription {
    let name = mode == .zip ? "Zip" : "CombineLatest"
    let subscription = ZipSubscription(
      downstream: downstream,
      machine: Machine(mode: mode, count: count, buffers: buffers),
      name: name
    )
    subscription.delivery.withLock { downstream.receive(subscription: subscription) }
    return subscription
  }

  /// The subscriber for upstream `index`, whose elements `store` adds to the buffers (queued for `zip`, replacing the
  /// latest for `combineLatest`), returning the element it replaces, to be released after unlocking.
  @inlinable
  package func child<Input>(
    _ index: Int,
    _ store: @escaping (inout Buffers, Input) -> Input?
  ) -> ZipChildSubscriber<Input, Buffers, Downstream> {
    ZipChildSubscriber(index: index, parent: self, store: store)
  }

  @usableFromInline package var description: String { name }

  @usableFromInline package var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

  @inlinable
  package func request(_ demand: Subscribers.Demand) {
    specialized(self, demand)
  }

  @inlinable
  func requestNow(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    for upstream in machine.withLock({ $0.request(demand) }) { upstream.request(demand) }
  }

  @inlinable
  package func cancel() {
    let (cancelling, released) = machine.withLock { $0.cancel() }
    _ = released
    for upstream in cancelling { upstream.cancel() }
  }

  @inlinable
  func upstreamSubscribed(_ index: Int, _ subscription: any Subscription) {
    switch machine.withLock({ $0.upstreamSubscribed(index, subscription) }) {
    case .request(let upstream, let demand): upstream.request(demand)
    case .cancel(let upstream): upstream.cancel()
    case .none: break
    }
  }

  @inlinable
  func upstreamValue(_ index: Int, _ store: (inout Buffers) -> Void) -> Subscribers.Demand {
    let action: Machine.DeliveredAction
    switch mode {
    case .zip:
      // The whole event under the delivery lock, as in Combine: the value that completes a tuple delivers it.
      guard
        let delivered = delivery.withLock({ () -> Machine.DeliveredAction? in
          guard case .deliver(let output) = machine.withLock({ $0.upstreamValue(index, store) }) else { return nil }
          let additional = downstream.receive(output)
          return machine.withLock { $0.delivered(additional) }
        })
      else { return .none }
      action = delivered
    case .combineLatest:
      guard case .claimed = machine.withLock({ $0.upstreamValue(index, store) }) else { return .none }
      let additional = delivery.withLock { () -> Subscribers.Demand in
        // Read under the delivery lock: once the stream has ended, no value follows its completion.
        guard let output = machine.withLock({ $0.combination() }) else { return .none }
        return downstream.receive(output)
      }
      action = machine.withLock { $0.delivered(additional) }
    }
    var returning = Subscribers.Demand.none
    for (upstreamIndex, upstream) in action.forward {
      if upstreamIndex == index { returning = action.more } else { upstream.request(action.more) }
    }
    if action.finishes {
      let (completion, released) = machine.withLock { $0.finishAfterDelivery() }
      _ = released
      perform(consume completion)
    }
    return returning
  }

  @inlinable
  func upstreamCompleted(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
    // Decided under the delivery lock: a completion waits for a delivery in progress on another thread, and `zip`
    // can tell one in progress on this thread, which the completion follows.
    let (action, released) = delivery.withLock { machine.withLock { $0.upstreamCompleted(index, completion) } }
    _ = released
    perform(consume action)
  }

  /// Cancels the upstreams, then delivers the completion.
  @inlinable
  func perform(_ action: Machine.CompletionAction) {
    switch action {
    case .complete(let completion, let cancelling):
      for upstream in cancelling { upstream.cancel() }
      delivery.withLock { downstream.receive(completion: completion) }
    case .none:
      break
    }
  }
}

/// The subscriber that `ZipSubscription` attaches to each upstream.
@usableFromInline
package struct ZipChildSubscriber<Input, Buffers: ZipBuffers, Downstream: Subscriber>: Subscriber, CombineDescribable
where Buffers.Output == Downstream.Input {
  @usableFromInline
  package typealias Failure = Downstream.Failure

  @usableFromInline let index: Int
  @usableFromInline let parent: ZipSubscription<Buffers, Downstream>
  @usableFromInline let store: (inout Buffers, Input) -> Input?
  @usableFromInline package let combineIdentifier: CombineIdentifier

  @inlinable
  init(
    index: Int,
    parent: ZipSubscription<Buffers, Downstream>,
    store: @escaping (inout Buffers, Input) -> Input?
  ) {
    self.index = index
    self.parent = parent
    self.store = store
    combineIdentifier = CombineIdentifier()
  }

  @usableFromInline package var description: String { parent.description }

  @usableFromInline package var customMirror: Mirror {
    Mirror(self, children: ["parentSubscription": parent.combineIdentifier])
  }

  @inlinable
  package func receive(subscription: any Subscription) {
    parent.upstreamSubscribed(index, subscription)
  }

  @inlinable
  package func receive(_ input: Input) -> Subscribers.Demand {
    // The value a `combineLatest` upstream replaces leaves the lock here, and is released after unlocking.
    var replaced: Input?
    let demand = parent.upstreamValue(index) { replaced = store(&$0, input) }
    _ = replaced
    return demand
  }

  @inlinable
  package func receive(completion: Subscribers.Completion<Failure>) {
    parent.upstreamCompleted(index, completion)
  }
}
