public import Atomics

/// The subscription that `flatMap` and the `merge` family present downstream: it runs a `MergingStateMachine`
/// and acts on its answers outside the lock.
///
/// Every call to downstream is made under `delivery`, as Combine holds a recursive lock around each: a child's value
/// from another thread waits until downstream returns, then is delivered on its own thread; one from inside
/// downstream is delivered at once, nested.
// SAFETY: all mutable state is in `machine`; downstream is called under the delivery lock only, upstreams and
// children outside every lock.
@usableFromInline
final class MergingSubscription<Downstream: Subscriber>: Subscription, CombineDescribable, @unchecked Sendable {
  @usableFromInline
  typealias Machine = MergingStateMachine<Downstream.Input, Downstream.Failure>

  @usableFromInline let downstream: Downstream
  @usableFromInline let machine: Locked<Machine>
  @usableFromInline let name: String
  /// Whether a value that took its demand before the completion is still delivered, as in Combine's `flatMap`.
  @usableFromInline let deliversAfterCompletion: Bool
  /// Held around each call to downstream.
  @usableFromInline let delivery = DeliveryLock()
  /// ``Ending/running``, ``Ending/completed`` once the completion is decided, ``Ending/cancelled`` once downstream
  /// has cancelled; set after the machine decides, read under the delivery lock before each call, so that a value
  /// or completion that waited for the lock starts neither after a cancel that has returned nor, in a merge, after
  /// the completion: the delivery lock's gate (WritingAnOperator.md, "Hot-path idioms").
  @inlinable var ending: LockGate<Void> { delivery.gate }

  /// The values of `ending`.
  @usableFromInline
  enum Ending {
    @inlinable static var running: Int { 0 }
    @inlinable static var completed: Int { 1 }
    @inlinable static var cancelled: Int { 2 }
  }

  @inlinable
  init(downstream: Downstream, machine: Machine, name: String) {
    self.downstream = downstream
    deliversAfterCompletion = machine.deliversAfterCompletion
    self.machine = Locked(machine)
    self.name = name
  }

  @usableFromInline var description: String { name }

  /// Hands the subscription to downstream, under the delivery lock so that nothing reaches downstream before it.
  @inlinable
  func start() {
    delivery.withLock { downstream.receive(subscription: self) }
  }

  /// Presents a merge of `count` upstreams to `downstream`; the caller then subscribes each upstream `i` with
  /// `child(i)`.
  @inlinable
  static func merging(_ downstream: Downstream, count: Int) -> MergingSubscription {
    let merger = MergingSubscription(downstream: downstream, machine: Machine(mergingCount: count), name: "Merge")
    merger.start()
    if merger.machine.withLock({ $0.finishIfEmpty() }) { merger.complete(.finished) }
    return merger
  }

  /// The subscriber for child `index`.
  @inlinable
  func child(_ index: Int) -> MergingChildSubscriber<Downstream> {
    MergingChildSubscriber(key: Machine.mergedChild(index), parent: self)
  }

  // MARK: Upstream (flatMap)

  @inlinable
  func upstreamSubscribed(_ subscription: any Subscription) {
    switch machine.withLock({ $0.upstreamSubscribed(subscription) }) {
    case .request(let demand): subscription.request(demand)
    case .cancel: subscription.cancel()
    case .none: break
    }
  }

  /// Registers a child for a value of the upstream; returns its key, or `nil` when the value must be ignored.
  @inlinable
  func upstreamValue() -> MergingChildKey? {
    machine.withLock { $0.upstreamValue() }
  }

  @inlinable
  func upstreamCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
    let (action, released) = machine.withLock { $0.upstreamCompleted(completion) }
    _ = released
    perform(consume action)
  }

  // MARK: Children

  @inlinable
  func childSubscribed(_ child: MergingChildKey, _ subscription: any Subscription) {
    switch machine.withLock({ $0.childSubscribed(child, subscription) }) {
    case .request(let demand): subscription.request(demand)
    case .cancel: subscription.cancel()
    }
  }

  /// Delivers a child's value on the calling thread, before returning, if it finds demand; buffers it otherwise.
  @inlinable
  func childValue(_ child: MergingChildKey, _ value: Downstream.Input) -> Subscribers.Demand {
    guard case .deliver(let value, let returning) = machine.withLock({ $0.childValue(child, value) }) else {
      return .none
    }
    let (delivered, next) = delivery.withLock { () -> (Bool, Machine.DrainAction) in
      // A flatMap delivers a value that took its demand before a failure, as Combine does; a merge does not.
      let end = ending.load(ordering: .acquiring)
      guard end == Ending.running || (end == Ending.completed && deliversAfterCompletion) else {
        return (false, machine.withLock { $0.delivered(.none) })
      }
      let additional = downstream.receive(value)
      return (true, machine.withLock { $0.delivered(additional) })
    }
    perform(next)
    return delivered ? returning : .none
  }

  @inlinable
  func childCompleted(_ child: MergingChildKey, _ completion: Subscribers.Completion<Downstream.Failure>) {
    let (action, released) = machine.withLock { $0.childCompleted(child, completion) }
    _ = released
    perform(consume action)
  }

  // MARK: Subscription

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    perform(machine.withLock { $0.request(demand) })
  }

  @inlinable
  func cancel() {
    let (cancelling, released) = machine.withLock { $0.cancel() }
    ending.store(Ending.cancelled, ordering: .releasing)
    _ = released
    for subscription in cancelling { subscription.cancel() }
  }

  // MARK: Acting

  @inlinable
  func perform(_ action: consuming Machine.CompletionAction) {
    switch consume action {
    case .finish:
      complete(.finished)
    case .fail(let error, let cancelling, let released):
      _ = released
      for subscription in cancelling { subscription.cancel() }
      complete(.failure(error))
    case .requestUpstream(let upstream):
      upstream.request(.max(1))
    case .none:
      break
    }
  }

  @inlinable
  func perform(_ action: consuming Machine.DrainAction) {
    switch consume action {
    case .none:
      break
    case .drain:
      drain()
    case .upgrade(let children):
      for child in children { child.request(.unlimited) }
    }
  }

  /// Sends the completion the machine decided, unless downstream has cancelled meanwhile.
  @inlinable
  func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
    _ = ending.compareExchange(expected: Ending.running, desired: Ending.completed, ordering: .acquiringAndReleasing)
    delivery.withLock {
      guard ending.load(ordering: .acquiring) != Ending.cancelled else { return }
      downstream.receive(completion: completion)
    }
  }

  /// Delivers the buffer, as the machine's drainer, until it says the drain is over.
  ///
  /// Values are taken from the machine under the delivery lock, so that a completion decided meanwhile on another
  /// thread waits for the value taken before it. The lock is let go while a child is asked for one more value, as
  /// Combine does, and kept from one value to the next otherwise.
  @inlinable
  func drain() {
    var asked = false
    while true {
      switch delivery.withLock({ () -> DrainPause in
        while true {
          switch machine.withLock({ $0.nextBuffered(afterAsking: asked) }) {
          case .deliver(let value, let child):
            asked = false
            let additional = downstream.receive(value)
            if machine.withLock({ $0.deliveredBuffered(additional, asking: child.isHeld) }) { return .ask(child) }
          case .finish:
            complete(.finished)
            return .upgrade([])
          case .end(let upgrade):
            return .upgrade(upgrade)
          }
        }
      }) {
      case .ask(let child):
        // Consumed, not copied: matching the enum in place would copy its existential first, on every value.
        if case .held(let subscription) = consume child { subscription.request(.max(1)) }
        asked = true
      case .upgrade(let children):
        for child in children { child.request(.unlimited) }
        return
      }
    }
  }

  /// Why the drainer lets go of the delivery lock.
  @usableFromInline
  enum DrainPause {
    /// To ask a child for one more value.
    case ask(MergingHeldSubscription)
    /// The drain is over: ask these children for `.unlimited`.
    case upgrade([any Subscription])
  }
}

/// The subscriber that `MergingSubscription` attaches to each child publisher.
@usableFromInline
struct MergingChildSubscriber<Downstream: Subscriber>: Subscriber, CombineDescribable {
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
