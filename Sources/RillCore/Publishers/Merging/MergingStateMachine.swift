/// The state of one `flatMap` or `merge` subscription: an optional outer upstream that produces children, the
/// children, the values waiting for downstream demand, and who is delivering downstream right now.
///
/// It is a plain value with one mutating method per event; each returns what the caller must do after
/// unlocking. Downstream is called by one thread at a time (the *drainer*, see ``Drain``): a value that
/// arrives while another thread delivers, or while there is no demand, is queued, and the drainer delivers
/// it. In finite-demand mode each child has at most one value requested at a time: the child that delivers
/// directly gets `.max(1)` back from `receive`, and a child whose queued value is delivered later is asked
/// for one more with `request(.max(1))`. Once downstream demand is unlimited, every child is asked for
/// `.unlimited` and no per-value requests follow; as in Combine, the values queued before are delivered first, so a
/// subscriber that cancels on one of them never makes a child produce values nobody will take.
///
/// The demand rules are Combine's: a value that arrives while another is being delivered, and that the outstanding
/// demand covers, is paid for at once (its child gets `.max(1)` back, as from Combine, which delivers it nested) and
/// is delivered after the current one; only values queued for lack of demand are paid for later with
/// `request(.max(1))`. So are `flatMap`'s rules around completion: a child's value that arrives after a failure or a
/// finish still reaches downstream while there is demand (only downstream's cancel silences the children; a merge
/// drops the value), the outer upstream's values and finish count before its subscription, and each finish of a
/// child, also a repeated one, asks a bounded outer upstream for one more publisher.
///
/// Its parts are phases and small types: the outer upstream's ``OuterPhase``, the ``MergingChildren`` and their
/// subscriptions, the ``MergingQueue`` of waiting values, the ``Drain`` and the ``Lifecycle``.
@usableFromInline
struct MergingStateMachine<Value, Failure: Error> {
  /// Where the upstream that produces children is: `flatMap`'s outer upstream, or none for a merge.
  @usableFromInline
  enum OuterPhase {
    case awaitingSubscription
    /// Subscribed; the subscription is in `outerSubscription`.
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

  /// Who is calling downstream.
  @usableFromInline
  enum Drain {
    /// Nobody: the next event that may be delivered makes its caller the drainer.
    case idle
    /// A thread is delivering a value or the completion.
    case delivering
    /// The drainer is delivering a queued value, and then asks its child for one more: a value the child sends in
    /// answer is queued unpaid, as Combine buffers it.
    case deliveringAndAskingChild
  }

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

  @usableFromInline let maxPublishers: Subscribers.Demand
  /// Whether a child's value that arrives after the completion still reaches downstream, as in Combine's `flatMap`;
  /// a merge drops it.
  @usableFromInline let deliversAfterCompletion: Bool
  @usableFromInline var outer: OuterPhase
  /// The outer upstream's subscription while `outer` is `.subscribed`.
  ///
  /// Kept apart from the phase, which is read on every child's completion: a phase with an existential payload is
  /// copied out to be read.
  @usableFromInline var outerSubscription = MergingHeldSubscription.nothing
  @usableFromInline var children = MergingChildren()
  /// Values waiting for the drainer.
  @usableFromInline var queue = MergingQueue<Value>()
  /// Downstream demand not yet taken by a delivered or paid value.
  @usableFromInline var demand = Subscribers.Demand.none
  @usableFromInline var drain = Drain.idle
  @usableFromInline var lifecycle = Lifecycle.running
  /// The children to ask for `.unlimited` once the drainer has delivered the values queued before demand turned
  /// unlimited: those subscribed at that moment, oldest first (a child subscribed later is asked when it subscribes).
  @usableFromInline var upgradeAfterDrain: [MergingChildKey] = []

  /// Whether a thread is calling downstream.
  @inlinable
  var isDelivering: Bool {
    switch drain {
    case .idle: false
    case .delivering, .deliveringAndAskingChild: true
    }
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
    children = MergingChildren(count: count)
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
    return children.add()
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
    guard !isTerminated, children.subscribed(child, subscription) else { return .cancel }
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
    switch drain {
    case .delivering, .deliveringAndAskingChild:
      if demand == .unlimited {
        queue.append(child, value, paid: true)
        return .queued(returning: .none)
      }
      if case .delivering = drain, demand > queue.unpaid {
        demand -= 1
        queue.append(child, value, paid: true)
        return .queued(returning: .max(1))
      }
      // After termination, Combine never delivers a value it had to buffer.
      guard !isTerminated else { return .none }
      queue.append(child, value, paid: false)
      return .none
    case .idle:
      break
    }
    guard demand > 0 else {
      guard !isTerminated else { return .none }
      queue.append(child, value, paid: false)
      return .none
    }
    drain = .delivering
    if queue.isEmpty {
      let returning: Subscribers.Demand = demand == .unlimited ? .none : .max(1)
      demand -= 1
      return .deliver(value, returning: returning)
    }
    queue.append(child, value, paid: false)
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
    children.release(child)
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
    addDemand(more)
    guard !isDelivering, demand > 0, !queue.isEmpty else {
      // A drainer at work asks the children for `.unlimited` itself once it has delivered what is queued.
      return (.idle, isDelivering ? [] : takeUpgradeAfterDrain())
    }
    drain = .delivering
    let (value, request) = dequeue()
    return (.deliver(value, thenRequest: request), [])
  }

  /// Records that the drainer delivered a value and downstream asked for `additional` more; returns the next drain
  /// step and, when the drain ends, the children to ask for `.unlimited`.
  @inlinable
  mutating func delivered(_ additional: Subscribers.Demand) -> (DrainStep, upgrade: [any Subscription]) {
    drain = .delivering
    guard !isCancelled else {
      drain = .idle
      return (.idle, [])
    }
    // As in Combine, demand keeps counting after a completion: a child's later value may use it.
    if additional > 0 { addDemand(additional) }
    if case .failing(let failure, valuesBefore: 0) = lifecycle {
      lifecycle = .terminated
      return (.fail(failure), [])
    }
    if let paid = queue.firstIsPaid, paid || demand > 0 {
      let (value, request) = dequeue()
      return (.deliver(value, thenRequest: request), [])
    }
    drain = .idle
    if isTerminated { return (.idle, []) }
    if finishIfDone() { return (.finish, []) }
    return (.idle, takeUpgradeAfterDrain())
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

  /// Adds downstream demand; when it turns unlimited, notes the subscribed children to ask for `.unlimited`, which
  /// ``takeUpgradeAfterDrain()`` hands out once no value is queued or being delivered.
  @inlinable
  mutating func addDemand(_ more: Subscribers.Demand) {
    let wasUnlimited = demand == .unlimited
    demand += more
    guard !wasUnlimited, demand == .unlimited else { return }
    upgradeAfterDrain = children.subscribedKeys()
  }

  /// The subscriptions of the children noted when demand turned unlimited that are still live, oldest first; none
  /// once the stream has ended or downstream has cancelled.
  ///
  /// As in Combine, the values queued before demand turned unlimited reach downstream before the children are asked
  /// for `.unlimited`; unlike Combine, a child that finished or was cancelled meanwhile is not asked.
  @inlinable
  mutating func takeUpgradeAfterDrain() -> [any Subscription] {
    guard !upgradeAfterDrain.isEmpty else { return [] }
    let keys = upgradeAfterDrain
    upgradeAfterDrain = []
    guard !isTerminated else { return [] }
    return keys.compactMap { children.subscription(of: $0) }
  }

  /// Takes the next queued value: an unpaid one takes its demand now and names its child to ask for one more.
  @inlinable
  mutating func dequeue() -> (Value, MergingHeldSubscription) {
    let (child, value, paid) = queue.removeFirst()
    if case .failing(let failure, let valuesBefore) = lifecycle {
      lifecycle = .failing(failure, valuesBefore: valuesBefore - 1)
    }
    if paid { return (value, .nothing) }
    demand -= 1
    guard demand != .unlimited, let subscription = children.subscription(of: child) else { return (value, .nothing) }
    drain = .deliveringAndAskingChild
    return (value, .held(subscription))
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
    guard !outer.mayProduceChildren, children.isEmpty, queue.isEmpty, !isDelivering else { return false }
    lifecycle = .terminated
    drain = .delivering
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
      queue.removeUnpaid()
      lifecycle = .failing(failure, valuesBefore: queue.count)
      return .cancel(cancelling)
    }
    queue.removeAll()
    drain = .delivering
    return .fail(failure, cancelling: cancelling)
  }

  /// Forgets every child and the outer upstream; returns the subscriptions to cancel: the live children's but
  /// `except`, oldest first, then the outer upstream's if `cancellingOuter`.
  @inlinable
  mutating func releaseAll(except id: Int?, cancellingOuter: Bool) -> [any Subscription] {
    var cancelling = children.subscriptions(except: id)
    children.removeAll()
    upgradeAfterDrain = []
    if cancellingOuter {
      queue.removeAll()
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

/// Names one child of a `flatMap` or `merge` subscription: its slot in ``MergingChildren`` and its id.
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

/// The children of a `flatMap` or `merge` subscription, in an array of slots with a free list: a child's key names
/// its slot, and its `id` (given in subscription order) tells it apart from a later child in the same slot, so no
/// event needs hashing.
@usableFromInline
struct MergingChildren {
  /// One slot: a child, with its subscription once it arrives, or a free slot linked to the next free one.
  ///
  /// A struct whose fields are read in place, where an enum with the subscription as a payload is copied, with its
  /// existential, each time its phase is read; `isSubscribed` answers for `subscription` for the same reason.
  @usableFromInline
  struct Slot {
    /// The child's id, or -1 when the slot is free.
    @usableFromInline var id: Int
    /// The next free slot while the slot is free, or -1.
    @usableFromInline var nextFree = -1
    /// Whether `subscription` holds the child's subscription.
    @usableFromInline var isSubscribed = false
    /// The child's subscription, once it has arrived.
    @usableFromInline var subscription = MergingHeldSubscription.nothing

    @inlinable
    init(id: Int) {
      self.id = id
    }
  }

  @usableFromInline var slots: [Slot] = []
  /// The first free slot, or -1.
  @usableFromInline var freeSlot = -1
  /// How many children are registered and have not completed.
  @usableFromInline var count = 0
  /// The id of the next child.
  @usableFromInline var nextID = 0

  @inlinable
  init() {}

  /// The children of a merge: `count` of them, child `i` in slot `i` with id `i`.
  @inlinable
  init(count: Int) {
    slots = (0..<count).map { Slot(id: $0) }
    self.count = count
    nextID = count
  }

  /// Whether no child is live.
  @inlinable
  var isEmpty: Bool { count == 0 }

  /// Registers a new child; returns its key.
  @inlinable
  mutating func add() -> MergingChildKey {
    let id = nextID
    nextID += 1
    count += 1
    guard freeSlot >= 0 else {
      slots.append(Slot(id: id))
      return MergingChildKey(slot: slots.count - 1, id: id)
    }
    let slot = freeSlot
    freeSlot = slots[slot].nextFree
    slots[slot].id = id
    return MergingChildKey(slot: slot, id: id)
  }

  /// Whether `child` is registered and has not completed.
  @inlinable
  func isLive(_ child: MergingChildKey) -> Bool {
    child.slot < slots.count && slots[child.slot].id == child.id
  }

  /// Keeps the subscription of a live child that has none; returns `false` otherwise, for the caller to cancel it.
  @inlinable
  mutating func subscribed(_ child: MergingChildKey, _ subscription: any Subscription) -> Bool {
    guard isLive(child), !slots[child.slot].isSubscribed else { return false }
    slots[child.slot].isSubscribed = true
    slots[child.slot].subscription = .held(subscription)
    return true
  }

  /// The subscription of `child`, if it is live and subscribed.
  @inlinable
  func subscription(of child: MergingChildKey) -> (any Subscription)? {
    guard isLive(child), slots[child.slot].isSubscribed else { return nil }
    return slots[child.slot].subscription.subscription
  }

  /// Frees a live child's slot, releasing its subscription; does nothing for a child that has gone.
  @inlinable
  mutating func release(_ child: MergingChildKey) {
    guard isLive(child) else { return }
    slots[child.slot].id = -1
    slots[child.slot].nextFree = freeSlot
    // Only a subscribed child holds a subscription: one that never subscribed skips the outlined destroy.
    if slots[child.slot].isSubscribed {
      slots[child.slot].isSubscribed = false
      slots[child.slot].subscription = .nothing
    }
    freeSlot = child.slot
    count -= 1
  }

  /// The keys of the live children that hold a subscription, oldest child first.
  @inlinable
  func subscribedKeys() -> [MergingChildKey] {
    let subscribed = slots.indices.filter { slots[$0].id >= 0 && slots[$0].isSubscribed }
    return subscribed.sorted { slots[$0].id < slots[$1].id }.map { MergingChildKey(slot: $0, id: slots[$0].id) }
  }

  /// The subscriptions of the live children, oldest child first, leaving out the child with id `except`.
  @inlinable
  func subscriptions(except excluded: Int?) -> [any Subscription] {
    subscribedKeys().filter { $0.id != excluded }.compactMap { subscription(of: $0) }
  }

  /// Forgets every child.
  @inlinable
  mutating func removeAll() {
    slots.removeAll()
    freeSlot = -1
    count = 0
  }
}

/// The values of a `flatMap` or `merge` subscription waiting for its drainer, in arrival order.
///
/// A `paid` value took its demand when it was queued (it arrived while another was being delivered, and the
/// demand covered it); an unpaid one, queued for lack of demand, takes it when it is delivered.
@usableFromInline
struct MergingQueue<Value> {
  @usableFromInline var entries = FIFO<(child: MergingChildKey, value: Value, paid: Bool)>()
  /// How many queued values are not paid.
  @usableFromInline private(set) var unpaid = 0

  @inlinable
  init() {}

  @inlinable
  var isEmpty: Bool { entries.isEmpty }

  @inlinable
  var count: Int { entries.count }

  /// Whether the first value is paid, or `nil` when the queue is empty.
  @inlinable
  var firstIsPaid: Bool? {
    entries.first?.paid
  }

  @inlinable
  mutating func append(_ child: MergingChildKey, _ value: Value, paid: Bool) {
    entries.append((child, value, paid))
    if !paid { unpaid += 1 }
  }

  /// Takes the first value; the queue must not be empty.
  @inlinable
  mutating func removeFirst() -> (child: MergingChildKey, value: Value, paid: Bool) {
    let first = entries.removeFirst()
    if !first.paid { unpaid -= 1 }
    return first
  }

  /// Drops the values queued for lack of demand, keeping the paid ones in order.
  @inlinable
  mutating func removeUnpaid() {
    entries.removeAll { !$0.paid }
    unpaid = 0
  }

  @inlinable
  mutating func removeAll() {
    entries.removeAll()
    unpaid = 0
  }
}
