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
/// The demand rules are Combine's: a value that arrives while another is being delivered, and that the outstanding
/// demand covers, is paid for at once (its child gets `.max(1)` back, as from Combine, which delivers it nested) and
/// is delivered after the current one; only values queued for lack of demand are paid for later with
/// `request(.max(1))`. So are `flatMap`'s rules around completion: a child's value that arrives after a failure or a
/// finish still reaches downstream while there is demand (only downstream's cancel silences the children; a merge
/// drops the value), the outer upstream's values and finish count before its subscription, and each finish of a
/// child, also a repeated one, asks a bounded outer upstream for one more publisher.
///
/// Children live in `slots`, an array with a free list: a child's key names its slot, and its `id` (given in
/// subscription order) tells it apart from a later child in the same slot, so no per-event hashing is needed.
@usableFromInline
struct MergingStateMachine<Value, Failure: Error> {
  /// Where the upstream that produces children is: `flatMap`'s outer upstream, or none for a merge.
  @usableFromInline
  enum OuterPhase {
    case awaitingSubscription
    case subscribed
    /// Finished, failed or cancelled: no more children will come.
    case finished
    /// A merge: its children are known from the start, and nothing produces more.
    case absent

    /// Whether more children may still come.
    @inlinable
    var mayProduceChildren: Bool {
      switch self {
      case .awaitingSubscription, .subscribed: true
      case .finished, .absent: false
      }
    }
  }

  @usableFromInline let maxPublishers: Subscribers.Demand
  /// Whether a child's value that arrives after the completion still reaches downstream, as in Combine's `flatMap`;
  /// a merge drops it.
  @usableFromInline let deliversAfterCompletion: Bool
  @usableFromInline var outer: OuterPhase
  /// The outer upstream's subscription while `outer` is `.subscribed`.
  @usableFromInline var outerSubscription = MergingHeldSubscription.nothing
  @usableFromInline var slots: [MergingChildSlot] = []
  /// The first free slot, or -1; free slots are linked through `MergingChildSlot.nextFree`.
  @usableFromInline var freeSlot = -1
  @usableFromInline var liveChildren = 0
  @usableFromInline var nextChild = 0
  /// Values waiting for the drainer; a `paid` one took its demand when it was queued, and asks its child for nothing.
  @usableFromInline var queue: [(child: MergingChildKey, value: Value, paid: Bool)] = []
  @usableFromInline var queueHead = 0
  /// How many queued values are not `paid`.
  @usableFromInline var unpaidQueued = 0
  /// Downstream demand not yet taken by a delivered or paid value.
  @usableFromInline var demand = Subscribers.Demand.none
  /// Whether a thread is calling downstream (a value or a completion).
  @usableFromInline var isDelivering = false
  /// Whether the drainer is about to ask a child for one more value after a queued one: a value the child sends
  /// in answer is queued unpaid, as Combine buffers it.
  @usableFromInline var isRequestingChild = false
  @usableFromInline var lifecycle = Lifecycle.running

  /// How far the stream is on its way to its end.
  @usableFromInline
  enum Lifecycle {
    case running
    /// A failure decided while another thread delivers: the drainer sends it after `valuesBefore` more values.
    case failing(Failure, valuesBefore: Int)
    /// The completion is decided, being sent or sent: no more children, no more requests upstream.
    case terminated
    /// Downstream cancelled: nothing more reaches it.
    case cancelled
  }

  /// Whether the completion is decided or downstream has cancelled.
  @inlinable
  var isTerminated: Bool {
    switch lifecycle {
    case .running: false
    case .failing, .terminated, .cancelled: true
    }
  }

  /// Whether downstream has cancelled.
  @inlinable
  var isCancelled: Bool {
    switch lifecycle {
    case .cancelled: true
    case .running, .failing, .terminated: false
    }
  }

  /// Creates the state of a `flatMap` subscription that subscribes to at most `maxPublishers` children at once.
  @inlinable
  init(maxPublishers: Subscribers.Demand) {
    self.maxPublishers = maxPublishers
    deliversAfterCompletion = true
    outer = .awaitingSubscription
  }

  /// Creates the state of a `merge` subscription: `count` children known up front and no outer upstream.
  @inlinable
  init(mergingCount count: Int) {
    maxPublishers = .unlimited
    deliversAfterCompletion = false
    outer = .absent
    nextChild = count
    liveChildren = count
    slots = (0..<count).map { MergingChildSlot(id: $0) }
  }

  /// The key of child `index` of a merge.
  @inlinable
  static func mergedChild(_ index: Int) -> MergingChildKey {
    MergingChildKey(slot: index, id: index)
  }

  /// Terminates a merge of no children; returns `true` if downstream must be sent `.finished` (then
  /// ``completed()``).
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
  ///
  /// As in Combine, a value that arrives before the outer subscription counts.
  @inlinable
  mutating func outerValue() -> MergingChildKey? {
    guard !isTerminated, outer.mayProduceChildren else { return nil }
    let id = nextChild
    nextChild += 1
    liveChildren += 1
    if freeSlot >= 0 {
      let slot = freeSlot
      freeSlot = slots[slot].nextFree
      slots[slot].id = id
      return MergingChildKey(slot: slot, id: id)
    }
    slots.append(MergingChildSlot(id: id))
    return MergingChildKey(slot: slots.count - 1, id: id)
  }

  @usableFromInline
  enum CompletionAction {
    /// Send `.finished` downstream, then report ``completed()``.
    case finish
    /// Cancel these subscriptions, then send the failure downstream, then report ``completed()``.
    case fail(Failure, cancelling: [any Subscription])
    /// Cancel these subscriptions; the drainer sends the failure.
    case cancel([any Subscription])
    /// Ask the outer upstream for one more value.
    case requestOuter(any Subscription)
    case none
  }

  /// As in Combine, a completion that arrives before the outer subscription counts.
  @inlinable
  mutating func outerCompleted(_ completion: Subscribers.Completion<Failure>) -> CompletionAction {
    guard !isTerminated, outer.mayProduceChildren else { return .none }
    switch completion {
    case .finished:
      outer = .finished
      outerSubscription = .nothing
      return finishIfDone() ? .finish : .none
    case .failure(let error):
      outer = .finished
      outerSubscription = .nothing
      return terminate(failure: error, except: nil, cancellingOuter: false)
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
  mutating func childSubscribed(_ child: MergingChildKey, _ subscription: any Subscription) -> ChildSubscriptionAction {
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
    case deliverQueued(Value, thenRequest: MergingHeldSubscription)
    /// The value is queued for the drainer, paid for if `returning` is `.max(1)`; return `returning` from the
    /// child's `receive`.
    case queued(returning: Subscribers.Demand)
    /// The value is queued unpaid, or dropped (after downstream's cancel, or beyond demand after termination);
    /// return `.none` from the child's `receive`.
    case none
  }

  @inlinable
  mutating func childValue(_ child: MergingChildKey, _ value: Value) -> ChildValueAction {
    guard !isCancelled, deliversAfterCompletion || !isTerminated else { return .none }
    if isDelivering {
      if demand == .unlimited {
        queue.append((child, value, true))
        return .queued(returning: .none)
      }
      if !isRequestingChild, demand > unpaidQueued {
        demand -= 1
        queue.append((child, value, true))
        return .queued(returning: .max(1))
      }
      // After termination, Combine never delivers a value it had to buffer.
      guard !isTerminated else { return .none }
      queue.append((child, value, false))
      unpaidQueued += 1
      return .none
    }
    guard demand > 0 else {
      guard !isTerminated else { return .none }
      queue.append((child, value, false))
      unpaidQueued += 1
      return .none
    }
    isDelivering = true
    if queueHead == queue.count {
      let returning: Subscribers.Demand = demand == .unlimited ? .none : .max(1)
      demand -= 1
      return .deliver(value, returning: returning)
    }
    queue.append((child, value, false))
    unpaidQueued += 1
    let (value, request) = dequeue()
    return .deliverQueued(value, thenRequest: request)
  }

  /// As in Combine, each finish of a child that does not end the stream asks a bounded outer upstream for one more
  /// publisher, also a repeated finish; and a failure fails the stream, also one from a child that has finished,
  /// and cancels the other children and the outer upstream.
  @inlinable
  mutating func childCompleted(
    _ child: MergingChildKey,
    _ completion: Subscribers.Completion<Failure>
  ) -> CompletionAction {
    guard !isTerminated else { return .none }
    release(child)
    switch completion {
    case .finished:
      if finishIfDone() { return .finish }
      if let upstream = outerToAskForMore() { return .requestOuter(upstream) }
      return .none
    case .failure(let error):
      // Unlike Combine, which lets go of the outer upstream without cancelling it, a child's failure cancels it:
      // an upstream left running can keep itself alive with nobody left to cancel it.
      return terminate(failure: error, except: child.id, cancellingOuter: true)
    }
  }

  /// Frees a live child's slot; the caller decides whether the stream can finish.
  @inlinable
  mutating func release(_ child: MergingChildKey) {
    guard isLive(child) else { return }
    slots[child.slot].release(nextFree: freeSlot)
    freeSlot = child.slot
    liveChildren -= 1
  }

  // MARK: Downstream

  @usableFromInline
  enum DrainStep {
    /// Deliver `value` downstream, then ask `thenRequest` (if any) for one more value, then report `delivered`.
    case deliver(Value, thenRequest: MergingHeldSubscription)
    /// Send `.finished` downstream, then report ``completed()``.
    case finish
    /// Send the failure downstream, then report ``completed()``.
    case fail(Failure)
    case idle
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

  /// Records that the drainer delivered a value and downstream asked for `additional` more.
  @inlinable
  mutating func delivered(_ additional: Subscribers.Demand) -> (DrainStep, upgrade: [any Subscription]) {
    isRequestingChild = false
    guard !isCancelled else {
      isDelivering = false
      return (.idle, [])
    }
    // As in Combine, demand keeps counting after a completion: a child's later value may use it.
    let upgrade = additional > 0 ? addDemand(additional) : []
    if case .failing(let failure, valuesBefore: 0) = lifecycle {
      lifecycle = .terminated
      return (.fail(failure), upgrade)
    }
    if queueHead < queue.count, queue[queueHead].paid || demand > 0 {
      let (value, request) = dequeue()
      return (.deliver(value, thenRequest: request), upgrade)
    }
    isDelivering = false
    if isTerminated { return (.idle, upgrade) }
    if finishIfDone() { return (.finish, upgrade) }
    return (.idle, upgrade)
  }

  /// Records that the drainer sent the completion; returns the next step: a child's value that arrived meanwhile
  /// and that demand covers, or idle.
  @inlinable
  mutating func completed() -> DrainStep {
    delivered(.none).0
  }

  /// Terminates on downstream's cancel; returns the subscriptions to cancel.
  @inlinable
  mutating func cancel() -> [any Subscription] {
    guard !isCancelled else { return [] }
    lifecycle = .cancelled
    return releaseAll(except: nil, cancellingOuter: true)
  }

  // MARK: Helpers

  /// Whether `child` is registered and has not completed.
  @inlinable
  func isLive(_ child: MergingChildKey) -> Bool {
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

  /// Takes the next queued value: an unpaid one takes its demand now and names its child to ask for one more.
  @inlinable
  mutating func dequeue() -> (Value, MergingHeldSubscription) {
    let (child, value, paid) = queue[queueHead]
    queueHead += 1
    if queueHead == queue.count {
      queue.removeAll(keepingCapacity: true)
      queueHead = 0
    }
    if case .failing(let failure, let valuesBefore) = lifecycle {
      lifecycle = .failing(failure, valuesBefore: valuesBefore - 1)
    }
    if paid { return (value, .nothing) }
    unpaidQueued -= 1
    demand -= 1
    guard demand != .unlimited, isLive(child) else { return (value, .nothing) }
    isRequestingChild = true
    return (value, slots[child.slot].subscription)
  }

  /// The outer upstream to ask for one more publisher now that a child has finished: only when `maxPublishers`
  /// bounds them and the outer upstream is still subscribed.
  @inlinable @inline(__always)
  func outerToAskForMore() -> (any Subscription)? {
    guard maxPublishers != .unlimited, case .subscribed = outer else { return nil }
    return outerSubscription.subscription
  }

  /// Decides the finish once the outer upstream and every child have finished and nothing is queued or being
  /// delivered; the caller, now the drainer, sends `.finished` and reports ``completed()``.
  @inlinable
  mutating func finishIfDone() -> Bool {
    guard !outer.mayProduceChildren, liveChildren == 0, queueHead == queue.count, !isDelivering else { return false }
    lifecycle = .terminated
    isDelivering = true
    return true
  }

  /// Decides a failure: cancels the live children but `except`, and the outer upstream if `cancellingOuter`.
  ///
  /// Values queued for lack of demand are dropped; paid ones, queued while a value was being delivered, go first.
  @inlinable
  mutating func terminate(failure: Failure, except id: Int?, cancellingOuter: Bool) -> CompletionAction {
    lifecycle = .terminated
    let cancelling = releaseAll(except: id, cancellingOuter: cancellingOuter)
    guard !isDelivering else {
      queue = queue[queueHead...].filter { $0.paid }
      queueHead = 0
      unpaidQueued = 0
      lifecycle = .failing(failure, valuesBefore: queue.count)
      return .cancel(cancelling)
    }
    queue.removeAll()
    queueHead = 0
    unpaidQueued = 0
    isDelivering = true
    return .fail(failure, cancelling: cancelling)
  }

  /// Forgets every child and the outer upstream; returns the subscriptions to cancel: the live children's but
  /// `except`, oldest first, then the outer upstream's if `cancellingOuter`.
  @inlinable
  mutating func releaseAll(except id: Int?, cancellingOuter: Bool) -> [any Subscription] {
    var cancelling = liveSubscriptions(except: id)
    slots.removeAll()
    freeSlot = -1
    liveChildren = 0
    if cancellingOuter {
      queue.removeAll()
      queueHead = 0
      unpaidQueued = 0
      if case .subscribed = outer, case .held(let upstream) = outerSubscription { cancelling.append(upstream) }
    }
    outer = .finished
    outerSubscription = .nothing
    return cancelling
  }
}

/// A subscription or nothing.
///
/// An enum of its own rather than `(any Subscription)?`: the optional existential is copied and destroyed through
/// the standard library's generic value witnesses, which are slow on the per-value path; this enum's are compiled
/// for its concrete layout.
@usableFromInline
enum MergingHeldSubscription {
  case nothing
  case held(any Subscription)

  /// The subscription, if there is one.
  @inlinable
  var subscription: (any Subscription)? {
    if case .held(let subscription) = self { return subscription }
    return nil
  }
}

/// Names one child of a `flatMap` or `merge` subscription: its slot in `MergingStateMachine.slots` and its id.
@usableFromInline
struct MergingChildKey: Equatable, Sendable {
  @usableFromInline let slot: Int
  @usableFromInline let id: Int

  @inlinable
  init(slot: Int, id: Int) {
    self.slot = slot
    self.id = id
  }
}

/// One entry of `MergingStateMachine.slots`: a live child (`id >= 0`) and its subscription once it has one, or a
/// free slot (`id == -1`) linked to the next free one.
@usableFromInline
struct MergingChildSlot {
  @usableFromInline var id: Int
  @usableFromInline var nextFree = -1
  @usableFromInline var isSubscribed = false
  @usableFromInline var subscription = MergingHeldSubscription.nothing

  @inlinable
  init(id: Int) {
    self.id = id
  }

  /// Frees the slot, releasing the child's subscription, and links it to `nextFree`.
  @inlinable
  mutating func release(nextFree: Int) {
    id = -1
    self.nextFree = nextFree
    // Only a subscribed child holds a subscription: a child that never subscribed skips the outlined destroy.
    if isSubscribed {
      isSubscribed = false
      subscription = .nothing
    }
  }
}
