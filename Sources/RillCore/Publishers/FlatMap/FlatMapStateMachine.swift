/// The state of one `flatMap` or `merge` subscription: an optional outer upstream that produces children, the
/// children, the values waiting for downstream demand, and who is delivering downstream right now.
///
/// It is a plain value with one mutating method per event; each returns what the caller must do after
/// unlocking. Downstream is called by one thread at a time (the *drainer*, `isDelivering`): a value that
/// arrives while another thread delivers, or while there is no demand, is queued, and the drainer delivers
/// it. In finite-demand mode each child has at most one value requested at a time: the child that delivers
/// directly gets `.max(1)` back from `receive`, and a child whose queued value is delivered later is asked
/// for one more with `request(.max(1))`. Once downstream demand is unlimited, every child is asked for
/// `.unlimited` and no per-value requests follow.
///
/// Children live in `slots`, an array with a free list: a child's key names its slot, and its `id` (given in
/// subscription order) tells it apart from a later child in the same slot, so no per-event hashing is needed.
@usableFromInline
struct FlatMapStateMachine<Value, Failure: Error> {
  @usableFromInline
  enum OuterPhase {
    case awaitingSubscription
    case subscribed
    case finished
  }

  @usableFromInline let maxPublishers: Subscribers.Demand
  @usableFromInline var outer: OuterPhase
  /// The outer upstream's subscription while `outer` is `.subscribed`.
  @usableFromInline var outerSubscription = FlatMapHeldSubscription.nothing
  @usableFromInline var slots: [FlatMapChildSlot] = []
  /// The first free slot, or -1; free slots are linked through `FlatMapChildSlot.nextFree`.
  @usableFromInline var freeSlot = -1
  @usableFromInline var liveChildren = 0
  @usableFromInline var nextChild = 0
  @usableFromInline var queue: [(child: FlatMapChildKey, value: Value)] = []
  @usableFromInline var queueHead = 0
  @usableFromInline var demand = Subscribers.Demand.none
  @usableFromInline var isDelivering = false
  @usableFromInline var isTerminated = false
  @usableFromInline var pendingFailure: Failure?

  /// Creates the state of a `flatMap` subscription that subscribes to at most `maxPublishers` children at once.
  @inlinable
  init(maxPublishers: Subscribers.Demand) {
    self.maxPublishers = maxPublishers
    outer = .awaitingSubscription
  }

  /// Creates the state of a `merge` subscription: `count` children known up front and no outer upstream.
  @inlinable
  init(mergingCount count: Int) {
    maxPublishers = .unlimited
    outer = .finished
    nextChild = count
    liveChildren = count
    slots = (0..<count).map { FlatMapChildSlot(id: $0) }
  }

  /// The key of child `index` of a merge.
  @inlinable
  static func mergedChild(_ index: Int) -> FlatMapChildKey {
    FlatMapChildKey(slot: index, id: index)
  }

  /// Terminates a merge of no children; returns `true` if downstream must be sent `.finished`.
  @inlinable
  mutating func finishIfEmpty() -> Bool {
    !isTerminated && finishIfDone()
  }

  // MARK: Outer upstream

  /// What to do with a subscription the caller holds: ask it for demand, cancel it, or nothing.
  @usableFromInline
  enum OuterSubscriptionAction {
    case request(Subscribers.Demand)
    case cancel
    case none
  }

  @inlinable
  mutating func outerSubscribed(_ subscription: any Subscription) -> OuterSubscriptionAction {
    guard !isTerminated, case .awaitingSubscription = outer else { return .cancel }
    outer = .subscribed
    outerSubscription = .held(subscription)
    // As in Combine, also a `maxPublishers` of `.none` is requested as it is.
    return .request(maxPublishers)
  }

  /// Registers a child for an outer value; returns its key, or `nil` when the value must be ignored.
  @inlinable
  mutating func outerValue() -> FlatMapChildKey? {
    guard !isTerminated, case .subscribed = outer else { return nil }
    let id = nextChild
    nextChild += 1
    liveChildren += 1
    if freeSlot >= 0 {
      let slot = freeSlot
      freeSlot = slots[slot].nextFree
      slots[slot].id = id
      return FlatMapChildKey(slot: slot, id: id)
    }
    slots.append(FlatMapChildSlot(id: id))
    return FlatMapChildKey(slot: slots.count - 1, id: id)
  }

  /// Starts a run of outer values whose children are all `Just` (``FlatMapSubscription/beginOuterRun()``);
  /// `false` unless downstream demand is unlimited and no child, queued value or drain is in progress.
  ///
  /// The run holds the drain (`isDelivering`) until it ends with ``delivered(_:finishingJust:)``. With
  /// `maxPublishers` bounded, each child's finish asks the outer upstream for one more, so those values take the
  /// usual steps.
  @inlinable
  mutating func beginOuterRun() -> Bool {
    guard !isTerminated, case .subscribed = outer, maxPublishers == .unlimited, demand == .unlimited,
      !isDelivering, liveChildren == 0, queueHead == queue.count
    else { return false }
    isDelivering = true
    return true
  }

  @usableFromInline
  enum CompletionAction {
    /// Send `.finished` downstream.
    case finish
    /// Cancel these subscriptions, then send the failure downstream.
    case fail(Failure, cancelling: [any Subscription])
    /// Cancel these subscriptions; the drainer sends the failure.
    case cancel([any Subscription])
    /// Ask the outer upstream for one more value.
    case requestOuter(any Subscription)
    case none
  }

  @inlinable
  mutating func outerCompleted(_ completion: Subscribers.Completion<Failure>) -> CompletionAction {
    guard !isTerminated, case .subscribed = outer else { return .none }
    switch completion {
    case .finished:
      outer = .finished
      outerSubscription = .nothing
      return finishIfDone() ? .finish : .none
    case .failure(let error):
      outer = .finished
      outerSubscription = .nothing
      return terminate(failure: error, except: nil)
    }
  }

  // MARK: Children

  /// What to do with the child's subscription, which the caller holds.
  @usableFromInline
  enum ChildSubscriptionAction {
    case request(Subscribers.Demand)
    case cancel
  }

  @inlinable
  mutating func childSubscribed(_ child: FlatMapChildKey, _ subscription: any Subscription) -> ChildSubscriptionAction {
    guard !isTerminated, isLive(child), !slots[child.slot].isSubscribed else { return .cancel }
    slots[child.slot].isSubscribed = true
    slots[child.slot].subscription = .held(subscription)
    return .request(demand == .unlimited ? .unlimited : .max(1))
  }

  @usableFromInline
  enum ChildValueAction {
    /// Deliver the child's `value` downstream and become the drainer; return `returning` from the child's
    /// `receive`.
    case deliver(Value, returning: Subscribers.Demand)
    /// Become the drainer: deliver `value`, queued before the child's own, then ask `thenRequest` (if any) for one
    /// more value; return `.none` from the child's `receive`.
    case deliverQueued(Value, thenRequest: FlatMapHeldSubscription)
    /// The value is queued (or dropped after termination); return `.none` from the child's `receive`.
    case none
  }

  @inlinable
  mutating func childValue(_ child: FlatMapChildKey, _ value: Value) -> ChildValueAction {
    guard !isTerminated else { return .none }
    guard !isDelivering, demand > 0 else {
      queue.append((child, value))
      return .none
    }
    isDelivering = true
    if queueHead == queue.count {
      let returning: Subscribers.Demand = demand == .unlimited ? .none : .max(1)
      demand -= 1
      return .deliver(value, returning: returning)
    }
    queue.append((child, value))
    let (value, request) = dequeue()
    return .deliverQueued(value, thenRequest: request)
  }

  @inlinable
  mutating func childCompleted(
    _ child: FlatMapChildKey,
    _ completion: Subscribers.Completion<Failure>
  ) -> CompletionAction {
    guard !isTerminated, isLive(child) else { return .none }
    release(child)
    switch completion {
    case .finished:
      if finishIfDone() { return .finish }
      if let upstream = outerToAskForMore() { return .requestOuter(upstream) }
      return .none
    case .failure(let error):
      return terminate(failure: error, except: child.id)
    }
  }

  @usableFromInline
  enum JustValueAction {
    /// Become the drainer and deliver the child's `value`. The child has finished already; the drain's last step
    /// settles what its finish asks of the outer upstream.
    case deliver(Value)
    /// As `deliver`, but `value` was queued before the child's, and `thenRequest` (if any) is asked for one more.
    case deliverQueued(Value, thenRequest: FlatMapHeldSubscription)
    /// The value is queued (or dropped after termination) and the child has finished: perform this.
    case completed(CompletionAction)
  }

  /// A `Just` child's value and its finish at once: what ``childValue(_:_:)`` then
  /// `childCompleted(_:.finished)` do, under one lock instead of two.
  ///
  /// When the value is delivered now, the child's finish is recorded before delivery and its request for one more
  /// outer value waits for the end of the drain (``delivered(_:finishingJust:)``), where the subscribed `Just`
  /// would have finished.
  @inlinable
  mutating func justValue(_ child: FlatMapChildKey, _ value: Value) -> JustValueAction {
    switch childValue(child, value) {
    case .deliver(let value, _):
      release(child)
      return .deliver(value)
    case .deliverQueued(let value, let request):
      release(child)
      return .deliverQueued(value, thenRequest: request)
    case .none:
      return .completed(childCompleted(child, .finished))
    }
  }

  /// Frees a live child's slot; the caller decides whether the stream can finish.
  @inlinable
  mutating func release(_ child: FlatMapChildKey) {
    guard isLive(child) else { return }
    slots[child.slot].release(nextFree: freeSlot)
    freeSlot = child.slot
    liveChildren -= 1
  }

  // MARK: Downstream

  @usableFromInline
  enum DrainStep {
    /// Deliver `value` downstream, then ask `thenRequest` (if any) for one more value, then report `delivered`.
    case deliver(Value, thenRequest: FlatMapHeldSubscription)
    case finish
    case fail(Failure)
    case idle
    /// Idle, and a `Just` child that finished during the drain asks the outer upstream for one more value.
    case requestOuter(any Subscription)
  }

  /// Adds downstream demand; returns the next drain step and the children to ask for `.unlimited`.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) -> (DrainStep, upgrade: [any Subscription]) {
    guard !isTerminated else { return (.idle, []) }
    let upgrade = addDemand(more)
    guard !isDelivering, demand > 0, queueHead < queue.count else { return (.idle, upgrade) }
    isDelivering = true
    let (value, request) = dequeue()
    return (.deliver(value, thenRequest: request), upgrade)
  }

  /// Records that the drainer delivered a value and downstream asked for `additional` more; `finishingJust` when
  /// the drain began with a `Just` child that has finished (``justValue(_:_:)``).
  @inlinable
  mutating func delivered(
    _ additional: Subscribers.Demand,
    finishingJust: Bool = false
  ) -> (DrainStep, upgrade: [any Subscription]) {
    guard !isTerminated else {
      isDelivering = false
      defer { pendingFailure = nil }
      return (pendingFailure.map(DrainStep.fail) ?? .idle, [])
    }
    let upgrade = additional > 0 ? addDemand(additional) : []
    if demand > 0, queueHead < queue.count {
      let (value, request) = dequeue()
      return (.deliver(value, thenRequest: request), upgrade)
    }
    isDelivering = false
    if finishIfDone() { return (.finish, upgrade) }
    if finishingJust, let upstream = outerToAskForMore() { return (.requestOuter(upstream), upgrade) }
    return (.idle, upgrade)
  }

  /// Terminates on downstream's cancel; returns the subscriptions to cancel.
  @inlinable
  mutating func cancel() -> [any Subscription] {
    guard !isTerminated else { return [] }
    isTerminated = true
    pendingFailure = nil
    return releaseAll(except: nil)
  }

  // MARK: Helpers

  /// Whether `child` is registered and has not completed.
  @inlinable
  func isLive(_ child: FlatMapChildKey) -> Bool {
    child.slot < slots.count && slots[child.slot].id == child.id
  }

  /// The subscriptions of the live children, oldest child first.
  @inlinable
  func liveSubscriptions(except id: Int?) -> [any Subscription] {
    slots.filter { $0.id >= 0 && $0.id != id }.sorted { $0.id < $1.id }.compactMap { $0.subscription.subscription }
  }

  @inlinable
  mutating func addDemand(_ more: Subscribers.Demand) -> [any Subscription] {
    let wasUnlimited = demand == .unlimited
    demand += more
    guard !wasUnlimited, demand == .unlimited else { return [] }
    return liveSubscriptions(except: nil)
  }

  @inlinable
  mutating func dequeue() -> (Value, FlatMapHeldSubscription) {
    let (child, value) = queue[queueHead]
    queueHead += 1
    if queueHead == queue.count {
      queue.removeAll(keepingCapacity: true)
      queueHead = 0
    }
    demand -= 1
    guard demand != .unlimited, isLive(child) else { return (value, .nothing) }
    return (value, slots[child.slot].subscription)
  }

  /// The outer upstream to ask for one more publisher now that a child has finished: only when `maxPublishers`
  /// bounds them and the outer upstream is still subscribed.
  @inlinable @inline(__always)
  func outerToAskForMore() -> (any Subscription)? {
    guard maxPublishers != .unlimited, case .subscribed = outer else { return nil }
    return outerSubscription.subscription
  }

  @inlinable
  mutating func finishIfDone() -> Bool {
    guard case .finished = outer, liveChildren == 0, queueHead == queue.count, !isDelivering else { return false }
    isTerminated = true
    return true
  }

  @inlinable
  mutating func terminate(failure: Failure, except id: Int?) -> CompletionAction {
    isTerminated = true
    queue.removeAll()
    queueHead = 0
    let cancelling = releaseAll(except: id)
    guard !isDelivering else {
      pendingFailure = failure
      return .cancel(cancelling)
    }
    return .fail(failure, cancelling: cancelling)
  }

  @inlinable
  mutating func releaseAll(except id: Int?) -> [any Subscription] {
    var cancelling = liveSubscriptions(except: id)
    slots.removeAll()
    freeSlot = -1
    liveChildren = 0
    queue.removeAll()
    queueHead = 0
    if case .subscribed = outer, case .held(let upstream) = outerSubscription { cancelling.append(upstream) }
    outer = .finished
    outerSubscription = .nothing
    return cancelling
  }
}

/// A subscription or nothing.
///
/// An enum of its own rather than `(any Subscription)?`: the optional existential is copied and destroyed through
/// the standard library's generic value witnesses (about a hundred instructions each), this enum through witnesses
/// compiled for its concrete layout.
@usableFromInline
enum FlatMapHeldSubscription {
  case nothing
  case held(any Subscription)

  /// The subscription, if there is one.
  @inlinable
  var subscription: (any Subscription)? {
    if case .held(let subscription) = self { return subscription }
    return nil
  }
}

/// Names one child of a `flatMap` or `merge` subscription: its slot in `FlatMapStateMachine.slots` and its id.
@usableFromInline
struct FlatMapChildKey: Equatable, Sendable {
  @usableFromInline let slot: Int
  @usableFromInline let id: Int

  @inlinable
  init(slot: Int, id: Int) {
    self.slot = slot
    self.id = id
  }
}

/// One entry of `FlatMapStateMachine.slots`: a live child (`id >= 0`) and its subscription once it has one, or a
/// free slot (`id == -1`) linked to the next free one.
@usableFromInline
struct FlatMapChildSlot {
  @usableFromInline var id: Int
  @usableFromInline var nextFree = -1
  @usableFromInline var isSubscribed = false
  @usableFromInline var subscription = FlatMapHeldSubscription.nothing

  @inlinable
  init(id: Int) {
    self.id = id
  }

  /// Frees the slot, releasing the child's subscription, and links it to `nextFree`.
  @inlinable
  mutating func release(nextFree: Int) {
    id = -1
    self.nextFree = nextFree
    // Only a subscribed child holds a subscription: a `Just` child's slot skips the outlined destroy.
    if isSubscribed {
      isSubscribed = false
      subscription = .nothing
    }
  }
}
