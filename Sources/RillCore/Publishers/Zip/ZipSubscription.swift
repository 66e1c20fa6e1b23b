/// The subscription that the `zip` and `combineLatest` families present downstream: it runs a `ZipStateMachine`
/// and acts on its answers outside the lock.
// SAFETY: all mutable state is in `machine`; downstream and upstreams are called outside the lock.
@usableFromInline
package final class ZipSubscription<Buffers: ZipBuffers, Downstream: Subscriber>: Subscription, CustomStringConvertible,
  CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Buffers.Output == Downstream.Input {
  @usableFromInline
  package typealias Machine = ZipStateMachine<Buffers, Downstream.Failure>

  @usableFromInline let downstream: Downstream
  @usableFromInline let machine: Locked<Machine>
  @usableFromInline let name: String

  @inlinable
  init(downstream: Downstream, machine: Machine, name: String) {
    self.downstream = downstream
    self.machine = Locked(machine)
    self.name = name
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
    downstream.receive(subscription: subscription)
    return subscription
  }

  /// The subscriber for upstream `index`, whose elements `store` adds to the buffers.
  @inlinable
  package func child<Input>(
    _ index: Int,
    _ store: @escaping (inout Buffers, Input) -> Void
  ) -> ZipChildSubscriber<Input, Buffers, Downstream> {
    ZipChildSubscriber(index: index, parent: self, store: store)
  }

  @usableFromInline package var description: String { name }

  @usableFromInline package var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

  @usableFromInline package var playgroundDescription: Any { description }

  @inlinable
  package func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    for upstream in machine.withLock({ $0.request(demand) }) { upstream.request(demand) }
  }

  @inlinable
  package func cancel() {
    for upstream in machine.withLock({ $0.cancel() }) { upstream.cancel() }
  }

  @inlinable
  func subscribed(_ index: Int, _ subscription: any Subscription) {
    switch machine.withLock({ $0.subscribed(index, subscription) }) {
    case .request(let upstream, let demand): upstream.request(demand)
    case .cancel(let upstream): upstream.cancel()
    case .none: break
    }
  }

  @inlinable
  func received(_ index: Int, _ store: (inout Buffers) -> Void) -> Subscribers.Demand {
    guard case .deliver(let output) = machine.withLock({ $0.received(index, store) }) else { return .none }
    let additional = downstream.receive(output)
    let (next, more, forward) = machine.withLock { $0.delivered(additional) }
    var returning = Subscribers.Demand.none
    for (upstreamIndex, upstream) in forward {
      if upstreamIndex == index { returning = more } else { upstream.request(more) }
    }
    drain(next)
    return returning
  }

  @inlinable
  func completed(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
    drain(machine.withLock { $0.completed(index, completion) })
  }

  /// Delivers downstream, one event at a time, until the machine says to stop.
  @inlinable
  func drain(_ first: Machine.DrainStep) {
    var step = first
    while true {
      switch step {
      case .deliver(let output):
        let additional = downstream.receive(output)
        let (next, more, forward) = machine.withLock { $0.delivered(additional) }
        for (_, upstream) in forward { upstream.request(more) }
        step = next
      case .complete(let completion, let cancelling):
        for upstream in cancelling { upstream.cancel() }
        downstream.receive(completion: completion)
        return
      case .cancel(let cancelling):
        for upstream in cancelling { upstream.cancel() }
        return
      case .idle:
        return
      }
    }
  }
}

/// The subscriber that `ZipSubscription` attaches to each upstream.
@usableFromInline
package struct ZipChildSubscriber<Input, Buffers: ZipBuffers, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible,
  CustomReflectable,
  CustomPlaygroundDisplayConvertible
where Buffers.Output == Downstream.Input {
  @usableFromInline
  package typealias Failure = Downstream.Failure

  @usableFromInline let index: Int
  @usableFromInline let parent: ZipSubscription<Buffers, Downstream>
  @usableFromInline let store: (inout Buffers, Input) -> Void
  @usableFromInline package let combineIdentifier: CombineIdentifier

  @inlinable
  init(index: Int, parent: ZipSubscription<Buffers, Downstream>, store: @escaping (inout Buffers, Input) -> Void) {
    self.index = index
    self.parent = parent
    self.store = store
    combineIdentifier = CombineIdentifier()
  }

  @usableFromInline package var description: String { parent.description }

  @usableFromInline package var customMirror: Mirror {
    Mirror(self, children: ["parentSubscription": parent.combineIdentifier])
  }

  @usableFromInline package var playgroundDescription: Any { description }

  @inlinable
  package func receive(subscription: any Subscription) {
    parent.subscribed(index, subscription)
  }

  @inlinable
  package func receive(_ input: Input) -> Subscribers.Demand {
    parent.received(index) { store(&$0, input) }
  }

  @inlinable
  package func receive(completion: Subscribers.Completion<Failure>) {
    parent.completed(index, completion)
  }
}
