/// The subscription that the `zip` and `combineLatest` families present downstream: it runs a `ZipStateMachine`
/// and acts on its answers outside the lock.
// SAFETY: all mutable state is in `machine`; downstream and upstreams are called outside the lock.
final class ZipSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Machine = ZipStateMachine<Downstream.Input, Downstream.Failure>

  private let downstream: Downstream
  private let machine: Locked<Machine>
  private let name: String

  private init(downstream: Downstream, machine: Machine, name: String) {
    self.downstream = downstream
    self.machine = Locked(machine)
    self.name = name
  }

  /// Presents a zip or combineLatest of `count` upstreams to `downstream`; the caller then subscribes each
  /// upstream `i` with `child(i)`.
  static func start(
    _ downstream: Downstream,
    mode: Machine.Mode,
    count: Int,
    combine: @escaping ([Any]) -> Downstream.Input
  ) -> ZipSubscription {
    let name = mode == .zip ? "Zip" : "CombineLatest"
    let subscription = ZipSubscription(
      downstream: downstream,
      machine: Machine(mode: mode, count: count, combine: combine),
      name: name
    )
    downstream.receive(subscription: subscription)
    return subscription
  }

  /// The subscriber for upstream `index`, whose elements are of type `Input`.
  func child<Input>(_ index: Int, _: Input.Type = Input.self) -> ZipChildSubscriber<Input, Downstream> {
    ZipChildSubscriber(index: index, parent: self)
  }

  var description: String { name }

  var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

  var playgroundDescription: Any { description }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    for upstream in machine.withLock({ $0.request(demand) }) { upstream.request(demand) }
  }

  func cancel() {
    for upstream in machine.withLock({ $0.cancel() }) { upstream.cancel() }
  }

  func subscribed(_ index: Int, _ subscription: any Subscription) {
    switch machine.withLock({ $0.subscribed(index, subscription) }) {
    case .request(let upstream, let demand): upstream.request(demand)
    case .cancel(let upstream): upstream.cancel()
    case .none: break
    }
  }

  func received(_ index: Int, _ value: Any) -> Subscribers.Demand {
    guard case .deliver(let output) = machine.withLock({ $0.received(index, value) }) else { return .none }
    let additional = downstream.receive(output)
    let (next, forward) = machine.withLock { $0.delivered(additional) }
    var returning = Subscribers.Demand.none
    for (upstreamIndex, upstream) in forward {
      if upstreamIndex == index { returning = additional } else { upstream.request(additional) }
    }
    drain(next)
    return returning
  }

  func completed(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
    drain(machine.withLock { $0.completed(index, completion) })
  }

  /// Delivers downstream, one event at a time, until the machine says to stop.
  private func drain(_ first: Machine.DrainStep) {
    var step = first
    while true {
      switch step {
      case .deliver(let output):
        let additional = downstream.receive(output)
        let (next, forward) = machine.withLock { $0.delivered(additional) }
        for (_, upstream) in forward { upstream.request(additional) }
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
struct ZipChildSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  typealias Failure = Downstream.Failure

  let index: Int
  let parent: ZipSubscription<Downstream>
  let combineIdentifier = CombineIdentifier()

  var description: String { parent.description }

  var customMirror: Mirror { Mirror(self, children: ["parentSubscription": parent.combineIdentifier]) }

  var playgroundDescription: Any { description }

  func receive(subscription: any Subscription) {
    parent.subscribed(index, subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    parent.received(index, input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    parent.completed(index, completion)
  }
}
