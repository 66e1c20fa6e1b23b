/// The subscription that `flatMap` and the `merge` family present downstream: it runs a `FlatMapStateMachine`
/// and acts on its answers outside the lock.
// SAFETY: all mutable state is in `machine`; downstream, upstreams and children are called outside the lock.
final class FlatMapSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Machine = FlatMapStateMachine<Downstream.Input, Downstream.Failure>

  private let downstream: Downstream
  private let machine: Locked<Machine>
  private let name: String

  init(downstream: Downstream, machine: Machine, name: String) {
    self.downstream = downstream
    self.machine = Locked(machine)
    self.name = name
  }

  var description: String { name }

  var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

  var playgroundDescription: Any { description }

  /// Presents a merge of `count` upstreams to `downstream`; the caller then subscribes each upstream `i` with
  /// `child(i)`.
  static func merging(_ downstream: Downstream, count: Int) -> FlatMapSubscription {
    let merger = FlatMapSubscription(downstream: downstream, machine: Machine(mergingCount: count), name: "Merge")
    downstream.receive(subscription: merger)
    if merger.machine.withLock({ $0.finishIfEmpty() }) { downstream.receive(completion: .finished) }
    return merger
  }

  /// The subscriber for child `index`.
  func child(_ index: Int) -> FlatMapChildSubscriber<Downstream> {
    FlatMapChildSubscriber(index: index, parent: self)
  }

  // MARK: Outer upstream (flatMap)

  func outerSubscribed(_ subscription: any Subscription) {
    switch machine.withLock({ $0.outerSubscribed(subscription) }) {
    case .request(let upstream, let demand): upstream.request(demand)
    case .cancel(let upstream): upstream.cancel()
    case .none: break
    }
  }

  /// Registers a child for an outer value; returns its index, or `nil` when the value must be ignored.
  func outerValue() -> Int? {
    machine.withLock { $0.outerValue() }
  }

  func outerCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
    perform(machine.withLock { $0.outerCompleted(completion) })
  }

  // MARK: Children

  func childSubscribed(_ index: Int, _ subscription: any Subscription) {
    switch machine.withLock({ $0.childSubscribed(index, subscription) }) {
    case .request(let child, let demand): child.request(demand)
    case .cancel(let child): child.cancel()
    }
  }

  func childValue(_ index: Int, _ value: Downstream.Input) -> Subscribers.Demand {
    guard case .deliver(let value, let request, let returning) = machine.withLock({ $0.childValue(index, value) })
    else { return .none }
    drain(.deliver(value, thenRequest: request))
    return returning
  }

  func childCompleted(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
    perform(machine.withLock { $0.childCompleted(index, completion) })
  }

  // MARK: Subscription

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    let (step, upgrade) = machine.withLock { $0.request(demand) }
    for child in upgrade { child.request(.unlimited) }
    drain(step)
  }

  func cancel() {
    for subscription in machine.withLock({ $0.cancel() }) { subscription.cancel() }
  }

  // MARK: Acting

  private func perform(_ action: Machine.CompletionAction) {
    switch action {
    case .finish:
      downstream.receive(completion: .finished)
    case .fail(let error, let cancelling):
      for subscription in cancelling { subscription.cancel() }
      downstream.receive(completion: .failure(error))
    case .cancel(let cancelling):
      for subscription in cancelling { subscription.cancel() }
    case .requestOuter(let upstream):
      upstream.request(.max(1))
    case .none:
      break
    }
  }

  /// Delivers downstream, one value at a time, until the machine says to stop.
  private func drain(_ first: Machine.DrainStep) {
    var step = first
    while true {
      switch step {
      case .deliver(let value, let child):
        let additional = downstream.receive(value)
        child?.request(.max(1))
        let (next, upgrade) = machine.withLock { $0.delivered(additional) }
        for child in upgrade { child.request(.unlimited) }
        step = next
      case .finish:
        downstream.receive(completion: .finished)
        return
      case .fail(let error):
        downstream.receive(completion: .failure(error))
        return
      case .idle:
        return
      }
    }
  }
}

/// The subscriber that `FlatMapSubscription` attaches to each child publisher.
struct FlatMapChildSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  let index: Int
  let parent: FlatMapSubscription<Downstream>
  let combineIdentifier = CombineIdentifier()

  var description: String { parent.description }

  var customMirror: Mirror { Mirror(self, children: ["parentSubscription": parent.combineIdentifier]) }

  var playgroundDescription: Any { description }

  func receive(subscription: any Subscription) {
    parent.childSubscribed(index, subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    parent.childValue(index, input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    parent.childCompleted(index, completion)
  }
}
