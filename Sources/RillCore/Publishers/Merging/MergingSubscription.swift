/// The subscription that `flatMap` and the `merge` family present downstream: it runs a `MergingStateMachine`
/// and acts on its answers outside the lock.
// SAFETY: all mutable state is in `machine`; downstream, upstreams and children are called outside the lock.
@usableFromInline
final class MergingSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  @usableFromInline
  typealias Machine = MergingStateMachine<Downstream.Input, Downstream.Failure>

  @usableFromInline let downstream: Downstream
  @usableFromInline let machine: Locked<Machine>
  @usableFromInline let name: String

  @inlinable
  init(downstream: Downstream, machine: Machine, name: String) {
    self.downstream = downstream
    self.machine = Locked(machine)
    self.name = name
  }

  @usableFromInline var description: String { name }

  /// Empty, as Combine's.
  @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline var playgroundDescription: Any { description }

  /// Presents a merge of `count` upstreams to `downstream`; the caller then subscribes each upstream `i` with
  /// `child(i)`.
  @inlinable
  static func merging(_ downstream: Downstream, count: Int) -> MergingSubscription {
    let merger = MergingSubscription(downstream: downstream, machine: Machine(mergingCount: count), name: "Merge")
    downstream.receive(subscription: merger)
    if merger.machine.withLock({ $0.finishIfEmpty() }) { merger.complete(.finished) }
    return merger
  }

  /// The subscriber for child `index`.
  @inlinable
  func child(_ index: Int) -> MergingChildSubscriber<Downstream> {
    MergingChildSubscriber(key: Machine.mergedChild(index), parent: self)
  }

  // MARK: Outer upstream (flatMap)

  @inlinable
  func outerSubscribed(_ subscription: any Subscription) {
    switch machine.withLock({ $0.outerSubscribed(subscription) }) {
    case .request(let demand): subscription.request(demand)
    case .cancel: subscription.cancel()
    case .none: break
    }
  }

  /// Registers a child for an outer value; returns its key, or `nil` when the value must be ignored.
  @inlinable
  func outerValue() -> MergingChildKey? {
    machine.withLock { $0.outerValue() }
  }

  @inlinable
  func outerCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
    perform(machine.withLock { $0.outerCompleted(completion) })
  }

  // MARK: Children

  @inlinable
  func childSubscribed(_ child: MergingChildKey, _ subscription: any Subscription) {
    switch machine.withLock({ $0.childSubscribed(child, subscription) }) {
    case .request(let demand): subscription.request(demand)
    case .cancel: subscription.cancel()
    }
  }

  @inlinable
  func childValue(_ child: MergingChildKey, _ value: Downstream.Input) -> Subscribers.Demand {
    switch machine.withLock({ $0.childValue(child, value) }) {
    case .deliver(let value, let returning):
      deliver(value, thenRequest: .nothing)
      return returning
    case .deliverQueued(let value, let request):
      deliver(value, thenRequest: request)
      return .none
    case .queued(let returning):
      return returning
    case .none:
      return .none
    }
  }

  @inlinable
  func childCompleted(_ child: MergingChildKey, _ completion: Subscribers.Completion<Downstream.Failure>) {
    perform(machine.withLock { $0.childCompleted(child, completion) })
  }

  // MARK: Subscription

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    let (step, upgrade) = machine.withLock { $0.request(demand) }
    for child in upgrade { child.request(.unlimited) }
    drain(step)
  }

  @inlinable
  func cancel() {
    for subscription in machine.withLock({ $0.cancel() }) { subscription.cancel() }
  }

  // MARK: Acting

  @inlinable
  func perform(_ action: consuming Machine.CompletionAction) {
    switch consume action {
    case .finish:
      complete(.finished)
    case .fail(let error, let cancelling):
      for subscription in cancelling { subscription.cancel() }
      complete(.failure(error))
    case .cancel(let cancelling):
      for subscription in cancelling { subscription.cancel() }
    case .requestOuter(let upstream):
      upstream.request(.max(1))
    case .none:
      break
    }
  }

  /// Delivers downstream, one value at a time, until the machine says to stop.
  @inlinable
  func drain(_ step: Machine.DrainStep) {
    switch step {
    case .deliver(let value, let child):
      deliver(value, thenRequest: child)
    case .finish:
      complete(.finished)
    case .fail(let error):
      complete(.failure(error))
    case .idle:
      break
    }
  }

  /// Sends the completion the machine decided, then delivers what arrived meanwhile and demand covers.
  @inlinable
  func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
    downstream.receive(completion: completion)
    drain(machine.withLock { $0.completed() })
  }

  /// Delivers `value`, asks `child` (if any) for one more, then goes on as the machine says.
  @inlinable
  func deliver(
    _ first: Downstream.Input,
    thenRequest firstChild: consuming MergingHeldSubscription
  ) {
    var value = first
    var child = firstChild
    while true {
      let additional = downstream.receive(value)
      // Consumed, not copied: matching the enum in place would copy its existential first, on every value.
      if case .held(let subscription) = consume child { subscription.request(.max(1)) }
      let (next, upgrade) = machine.withLock { $0.delivered(additional) }
      for child in upgrade { child.request(.unlimited) }
      switch consume next {
      case .deliver(let nextValue, let nextChild):
        value = nextValue
        child = nextChild
      case .finish:
        complete(.finished)
        return
      case .fail(let error):
        complete(.failure(error))
        return
      case .idle:
        return
      }
    }
  }
}

/// The subscriber that `MergingSubscription` attaches to each child publisher.
@usableFromInline
struct MergingChildSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline let key: MergingChildKey
  @usableFromInline let parent: MergingSubscription<Downstream>
  @usableFromInline let combineIdentifier: CombineIdentifier

  @inlinable
  init(key: MergingChildKey, parent: MergingSubscription<Downstream>) {
    self.key = key
    self.parent = parent
    combineIdentifier = CombineIdentifier()
  }

  @usableFromInline var description: String { parent.description }

  @usableFromInline var customMirror: Mirror {
    Mirror(self, children: ["parentSubscription": parent.combineIdentifier])
  }

  @usableFromInline var playgroundDescription: Any { description }

  @inlinable
  func receive(subscription: any Subscription) {
    parent.childSubscribed(key, subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    parent.childValue(key, input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    parent.childCompleted(key, completion)
  }
}
