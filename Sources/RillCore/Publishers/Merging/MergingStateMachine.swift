/// The state of one `flatMap` or `merge` subscription: an optional upstream of publishers that produces children, the
/// children, the values waiting for downstream demand, and the calls to downstream in progress.
///
/// It is a plain value with one mutating method per event; each returns what the caller must do after unlocking.
/// Delivery is Combine's. A child's value that finds demand takes it at once and is delivered by the thread that
/// sent it, before the child's `receive` returns, under ``MergingSubscription``'s delivery lock: from another thread
/// it waits for the call in progress, from inside downstream it is delivered at once, nested. A value that finds no
/// demand waits in the buffer until demand comes; then the thread that brings it (a request made while no call to
/// downstream is in progress, or the call in progress once it returns) becomes the *drainer* and delivers the
/// buffer, oldest first.
///
/// The demand rules are Combine's. While downstream's demand is finite, each child has one value requested at a
/// time: a child whose value is delivered at once gets `.max(1)` back from `receive`, and one whose buffered value
/// is delivered later is asked again with `request(.max(1))`; a value that arrives while the drainer asks a child
/// for more is buffered, so a child that answers synchronously does not recurse. A request from inside downstream
/// adds its demand and lets the call in progress deliver the buffer once it returns. Once downstream's demand is
/// unlimited, values are delivered as they come and no per-value requests follow; the buffer is delivered first and
/// only then are the children asked for `.unlimited`, so a subscriber that cancels on a buffered value never makes a
/// child produce values nobody will take. So are `flatMap`'s rules around completion: a child's value that arrives
/// after a failure still reaches downstream while there is demand (only downstream's cancel silences the children;
/// a merge drops the value), the upstream's values and finish count before its subscription, and each finish
/// of a child, also a repeated one, asks a bounded upstream for one more publisher.
///
/// Its parts are phases and small types: the upstream's ``UpstreamPhase``, the ``MergingChildren`` and their
/// subscriptions, the buffer and the ``DownstreamPhase``.
@usableFromInline
struct MergingStateMachine<Value, Failure: Error> {
  /// Where the upstream that produces children is: `flatMap`'s upstream, or none for a merge.
  @usableFromInline
  enum UpstreamPhase {
    case awaitingSubscription
    /// Subscribed; the subscription is in `upstreamSubscription`.
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

  /// Where downstream is: how far the stream is on its way to its end.
  @usableFromInline
  enum DownstreamPhase {
    case running
    /// The completion is decided, being sent or sent: no more children, no more requests upstream.
    case terminal
    /// Downstream cancelled: nothing more reaches it.
    case cancelled
  }

  @usableFromInline let maxPublishers: Subscribers.Demand
  /// Whether a child's value that arrives after the completion still reaches downstream, as in Combine's `flatMap`;
  /// a merge drops it.
  @usableFromInline let deliversAfterCompletion: Bool
  @usableFromInline var upstream: UpstreamPhase
  /// The upstream's subscription while `upstream` is `.subscribed`, beside the phase rather than its payload (a tag
  /// beside optional fields: WritingAnOperator.md, "Hot-path idioms").
  @usableFromInline var upstreamSubscription = MergingHeldSubscription.nothing
  @usableFromInline var children = MergingChildren()
  /// Values that found no demand, oldest first, with the child that sent each.
  @usableFromInline var buffer = FIFO<(child: MergingChildKey, value: Value)>()
  /// Downstream demand not yet taken by a value.
  @usableFromInline var demand = Subscribers.Demand.none
  @usableFromInline var downstream = DownstreamPhase.running
  /// Values that have taken their demand and whose call to downstream has not returned: nested in one another on
  /// the thread that holds the delivery lock, or waiting for it on other threads.
  @usableFromInline var deliveriesInProgress = 0
  /// Whether a thread is delivering the buffer (see ``nextBuffered(afterAsking:)``).
  @usableFromInline var isDraining = false
  /// Whether the drainer is asking a child for one more value: a value that arrives meanwhile is buffered.
  @usableFromInline var isAskingChild = false
  /// The children to ask for `.unlimited` once the buffer has been delivered: those subscribed when demand turned
  /// unlimited, oldest first (a child subscribed later is asked when it subscribes).
  @usableFromInline var upgradeAfterDrain: [MergingChildKey] = []

  /// Whether the completion is decided or downstream has cancelled.
  @inlinable
  var isTerminated: Bool {
    switch downstream {
    case .running: false
    case .terminal, .cancelled: true
    }
  }

  /// Whether downstream has cancelled.
  @inlinable
  var isCancelled: Bool {
    switch downstream {
    case .cancelled: true
    case .running, .terminal: false
    }
  }

  /// Creates the state of a `flatMap` subscription that subscribes to at most `maxPublishers` children at once.
  @inlinable
  init(maxPublishers: Subscribers.Demand) {
    self.maxPublishers = maxPublishers
    deliversAfterCompletion = true
    upstream = .awaitingSubscription
  }

  /// Creates the state of a `merge` subscription: `count` children known up front and no upstream of publishers.
  @inlinable
  init(mergingCount count: Int) {
    maxPublishers = .unlimited
    deliversAfterCompletion = false
    upstream = .absent
    children = MergingChildren(count: count)
  }

  /// The key of child `index` of a merge.
  @inlinable
  static func mergedChild(_ index: Int) -> MergingChildKey {
    MergingChildKey(slot: index, id: index)
  }

  /// Terminates a merge of no children; returns `true` if downstream must be sent `.finished`.
  @inlinable
  mutating func finishIfEmpty() -> Bool {
    !isTerminated && finishIfDone()
  }

  // MARK: Upstream

  /// What to do with a subscription the caller holds: ask it for demand, cancel it, or nothing.
  @usableFromInline
  enum UpstreamSubscribedAction {
    case request(Subscribers.Demand)
    case cancel
    case none
  }

  @inlinable
  mutating func upstreamSubscribed(_ subscription: any Subscription) -> UpstreamSubscribedAction {
    guard !isTerminated, case .awaitingSubscription = upstream else { return .cancel }
    upstream = .subscribed
    upstreamSubscription = .held(subscription)
    // As in Combine, also a `maxPublishers` of `.none` is requested as it is.
    return .request(maxPublishers)
  }

  /// Registers a child for a value of the upstream; returns its key, or `nil` when the value must be ignored.
  ///
  /// As in Combine, a value that arrives before the upstream's subscription counts.
  @inlinable
  mutating func upstreamValue() -> MergingChildKey? {
    guard !isTerminated, upstream.mayProduceChildren else { return nil }
    return children.add()
  }

  @usableFromInline
  enum CompletionAction {
    /// Send `.finished` downstream.
    case finish
    /// Cancel these subscriptions, then send the failure downstream; release what the machine let go of after
    /// unlocking.
    case fail(Failure, cancelling: [any Subscription], released: Released)
    /// Ask the upstream for one more value.
    case requestUpstream(any Subscription)
    case none
  }

  /// As in Combine, a completion that arrives before the upstream's subscription counts.
  ///
  /// Returns, besides the action, the upstream's subscription, to release after unlocking.
  @inlinable
  mutating func upstreamCompleted(
    _ completion: Subscribers.Completion<Failure>
  ) -> (action: CompletionAction, released: MergingHeldSubscription) {
    guard !isTerminated, upstream.mayProduceChildren else { return (.none, .nothing) }
    upstream = .finished
    let released = upstreamSubscription.take()
    switch completion {
    case .finished:
      return (finishIfDone() ? .finish : .none, released)
    case .failure(let error):
      return (terminate(failure: error, except: nil, cancellingUpstream: false), released)
    }
  }

  // MARK: Children

  /// What to do with the child's subscription, which the caller holds.
  @usableFromInline
  enum ChildSubscribedAction {
    case request(Subscribers.Demand)
    case cancel
  }

  @inlinable
  mutating func childSubscribed(_ child: MergingChildKey, _ subscription: any Subscription) -> ChildSubscribedAction {
    guard !isTerminated, children.subscribed(child, subscription) else { return .cancel }
    return .request(demand == .unlimited ? .unlimited : .max(1))
  }

  @usableFromInline
  enum ChildValueAction {
    /// The value has taken its demand: deliver it downstream, report ``delivered(_:)``, and return `returning` from
    /// the child's `receive`.
    case deliver(Value, returning: Subscribers.Demand)
    /// The value is buffered, or dropped (after downstream's cancel, or without demand after the completion):
    /// return `.none` from the child's `receive`.
    case none
  }

  /// Judges a child's value against the demand at the moment it arrives.
  @inlinable
  mutating func childValue(_ child: MergingChildKey, _ value: Value) -> ChildValueAction {
    guard !isCancelled, deliversAfterCompletion || !isTerminated else { return .none }
    if demand == .unlimited {
      deliveriesInProgress += 1
      return .deliver(value, returning: .none)
    }
    guard demand > 0, !isAskingChild else {
      // After the completion nothing delivers the buffer, as in Combine: the value is dropped.
      if !isTerminated { buffer.append((child, value)) }
      return .none
    }
    demand -= 1
    deliveriesInProgress += 1
    return .deliver(value, returning: .max(1))
  }

  /// As in Combine, each finish of a child that does not end the stream asks a bounded upstream for one more
  /// publisher, also a repeated finish; and a failure fails the stream, also one from a child that has finished,
  /// and cancels the other children and the upstream.
  ///
  /// Returns, besides the action, the child's subscription, to release after unlocking.
  @inlinable
  mutating func childCompleted(
    _ child: MergingChildKey,
    _ completion: Subscribers.Completion<Failure>
  ) -> (action: CompletionAction, released: MergingHeldSubscription) {
    guard !isTerminated else { return (.none, .nothing) }
    let released = children.release(child)
    switch completion {
    case .finished:
      if finishIfDone() { return (.finish, released) }
      if let upstream = upstreamToAskForMore() { return (.requestUpstream(upstream), released) }
      return (.none, released)
    case .failure(let error):
      // Unlike Combine, which lets go of the upstream without cancelling it, a child's failure cancels it:
      // an upstream left running can keep itself alive with nobody left to cancel it.
      return (terminate(failure: error, except: child.id, cancellingUpstream: true), released)
    }
  }

  // MARK: Downstream

  /// What the caller does once a request or a call to downstream has been accounted for.
  @usableFromInline
  enum DrainAction {
    case none
    /// Become the drainer: deliver the buffer, taking each value from ``nextBuffered(afterAsking:)``.
    case drain
    /// Ask these children for `.unlimited`.
    case upgrade([any Subscription])
  }

  /// Adds downstream demand; returns what to do with it.
  ///
  /// As in Combine, a request made while a call to downstream is in progress (from inside it, or from another
  /// thread) only adds its demand: the buffer is delivered once that call returns.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) -> DrainAction {
    guard !isTerminated else { return .none }
    addDemand(more)
    return afterDeliveries()
  }

  /// Records that a value taken by ``childValue(_:_:)`` was delivered and downstream asked for `additional` more.
  @inlinable
  mutating func delivered(_ additional: Subscribers.Demand) -> DrainAction {
    deliveriesInProgress -= 1
    guard !isCancelled else { return .none }
    // As in Combine, demand keeps counting after a completion: a child's later value may use it.
    if additional > 0 { addDemand(additional) }
    return afterDeliveries()
  }

  @usableFromInline
  enum BufferedStep {
    /// Deliver `value` downstream, report ``deliveredBuffered(_:asking:)``, then ask `thenRequest` (if any) for one
    /// more value.
    case deliver(Value, thenRequest: MergingHeldSubscription)
    /// The drain is over: send `.finished` downstream.
    case finish
    /// The drain is over: ask these children for `.unlimited`.
    case end(upgrade: [any Subscription])
  }

  /// The drainer's next step, taken under the delivery lock; `asked` reports that it has asked a child for more.
  @inlinable
  mutating func nextBuffered(afterAsking asked: Bool) -> BufferedStep {
    if asked { isAskingChild = false }
    guard !isTerminated, demand > 0, !buffer.isEmpty else {
      isDraining = false
      if isTerminated { return .end(upgrade: []) }
      if finishIfDone() { return .finish }
      return .end(upgrade: takeUpgradeAfterDrain())
    }
    let (child, value) = buffer.removeFirst()
    demand -= 1
    deliveriesInProgress += 1
    guard demand != .unlimited, let subscription = children.subscription(of: child) else {
      return .deliver(value, thenRequest: .nothing)
    }
    return .deliver(value, thenRequest: .held(subscription))
  }

  /// Records that the drainer delivered a buffered value and downstream asked for `additional` more; returns
  /// whether the drainer is to ask the value's child for one more, which it reports to the next
  /// ``nextBuffered(afterAsking:)``.
  @inlinable
  mutating func deliveredBuffered(_ additional: Subscribers.Demand, asking: Bool) -> Bool {
    deliveriesInProgress -= 1
    guard !isTerminated else { return false }
    if additional > 0 { addDemand(additional) }
    isAskingChild = asking
    return asking
  }

  // MARK: Helpers

  /// Starts a drain once no call to downstream is in progress, or hands out the children to ask for `.unlimited`.
  @inlinable
  mutating func afterDeliveries() -> DrainAction {
    guard deliveriesInProgress == 0, !isDraining, !isTerminated else { return .none }
    if demand > 0, !buffer.isEmpty {
      isDraining = true
      return .drain
    }
    let upgrade = takeUpgradeAfterDrain()
    return upgrade.isEmpty ? .none : .upgrade(upgrade)
  }

  /// Adds downstream demand; when it turns unlimited, notes the subscribed children to ask for `.unlimited`, which
  /// ``takeUpgradeAfterDrain()`` hands out once the buffer has been delivered.
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
  /// Unlike Combine, which asks the children only when a request turns demand unlimited, demand returned from
  /// `receive(_:)` asks them too (Combine's children would wait for a request that never comes); and a child that
  /// finished or was cancelled meanwhile is not asked.
  @inlinable
  mutating func takeUpgradeAfterDrain() -> [any Subscription] {
    guard !upgradeAfterDrain.isEmpty else { return [] }
    let keys = upgradeAfterDrain
    upgradeAfterDrain = []
    guard !isTerminated else { return [] }
    return keys.compactMap { children.subscription(of: $0) }
  }

  /// The upstream to ask for one more publisher now that a child has finished: only when `maxPublishers`
  /// bounds them and the upstream is still subscribed.
  @inlinable @inline(__always)
  func upstreamToAskForMore() -> (any Subscription)? {
    guard maxPublishers != .unlimited, case .subscribed = upstream else { return nil }
    return upstreamSubscription.subscription
  }

  /// Decides the finish once the upstream and every child have finished and the buffer has been delivered;
  /// the caller sends `.finished`.
  ///
  /// While the drainer is at work it decides: it may have taken the last buffered value and not delivered it yet.
  @inlinable
  mutating func finishIfDone() -> Bool {
    guard !upstream.mayProduceChildren, children.isEmpty, buffer.isEmpty, !isDraining else { return false }
    downstream = .terminal
    return true
  }
}
