/// The state of one `switchToLatest` subscription: where the upstream of publishers is, which child is current, and
/// the outstanding downstream demand (forwarded to the current child and carried over to the next one).
///
/// Each event is one mutating method that returns what the caller must do after unlocking. There is no queue: as in
/// Combine, a value of the current child that finds demand takes it at once and is delivered by the thread that sent
/// it, under the subscription's delivery lock; values of a child that has been replaced are dropped.
///
/// Its rules are Combine's. Only downstream's cancel silences it. A completion does not: each completion of the
/// upstream is passed on (a finish once no child is current or awaited), and the current child stays current after
/// the upstream fails, so its values still reach downstream while there is demand, and a subscription it hands over
/// late is asked for the outstanding demand. A child that has ended stays current until the next one, so a
/// subscription it hands over afterwards is kept.
@usableFromInline
struct SwitchToLatestStateMachine<Value, Failure: Error> {
  /// Where the upstream of publishers is.
  @usableFromInline
  enum UpstreamPhase {
    case awaitingSubscription
    case subscribed(any Subscription)
    /// It finished while a child was current: that child's finish completes downstream.
    case finished
    /// It completed and a completion went downstream: the children's completions are not passed on.
    case completionSent
  }

  /// The latest child publisher.
  @usableFromInline
  enum ChildPhase {
    case none
    /// Child `index` has been subscribed to and has not handed over its subscription yet.
    case subscribing(index: Int)
    case running(index: Int, any Subscription)
    /// Child `index` holds no subscription: it completed, or the upstream's failure cancelled it. It stays current
    /// until the next child.
    case ended(index: Int)

    @inlinable
    var index: Int? {
      switch self {
      case .none: nil
      case .subscribing(let index), .running(let index, _), .ended(let index): index
      }
    }
  }

  @usableFromInline
  enum Phase {
    case active(upstream: UpstreamPhase, child: ChildPhase)
    /// A child failed: its failure is on its way downstream, and nothing else is.
    case failed
    /// Downstream cancelled: nothing more reaches it.
    case cancelled
  }

  @usableFromInline
  var phase = Phase.active(upstream: .awaitingSubscription, child: .none)
  @usableFromInline
  var nextIndex = 0
  @usableFromInline
  var demand = Subscribers.Demand.none

  @inlinable
  init() {}

  /// The demand downstream has asked for that no value has taken yet.
  @inlinable
  var outstandingDemand: Subscribers.Demand { demand }

  @usableFromInline
  enum UpstreamSubscribedAction {
    case requestUnlimited(any Subscription)
    case cancel(any Subscription)
  }

  /// Accepts the upstream's subscription; a second one, or one after the end, is cancelled.
  @inlinable
  mutating func upstreamSubscribed(_ subscription: any Subscription) -> UpstreamSubscribedAction {
    guard case .active(.awaitingSubscription, let child) = phase else { return .cancel(subscription) }
    phase = .active(upstream: .subscribed(subscription), child: child)
    return .requestUnlimited(subscription)
  }

  /// Makes a new child current; returns its index and the previous child's subscription to cancel.
  @inlinable
  mutating func upstreamValue() -> (index: Int, cancelling: (any Subscription)?)? {
    guard case .active(let upstream, let child) = phase else { return nil }
    switch upstream {
    case .finished, .completionSent: return nil
    case .awaitingSubscription, .subscribed: break
    }
    let index = nextIndex
    nextIndex += 1
    phase = .active(upstream: upstream, child: .subscribing(index: index))
    guard case .running(_, let previous) = child else { return (index, nil) }
    return (index, previous)
  }

  /// What to do for a completion of the upstream or of a child.
  @usableFromInline
  enum CompletionAction {
    case none
    /// Cancel `cancelling`, if any, then send `completion` downstream.
    case complete(Subscribers.Completion<Failure>, cancelling: (any Subscription)?)
    /// A child failed: let no child's value reach downstream any more, cancel `cancelling`, if any, then send the
    /// failure downstream.
    case fail(Subscribers.Completion<Failure>, cancelling: (any Subscription)?)
  }

  /// The upstream completed.
  ///
  /// A finish completes downstream once no child is current or awaited; a failure does at once, and cancels the
  /// current child's subscription. As in Combine, a second completion is passed on too.
  ///
  /// Returns, besides the action, the phase it leaves (with the upstream's subscription), to release after
  /// unlocking.
  @inlinable
  mutating func upstreamCompleted(
    _ completion: Subscribers.Completion<Failure>
  ) -> (action: CompletionAction, released: Phase?) {
    guard case .active(let upstream, let child) = phase else { return (.none, nil) }
    let released = phase
    switch (completion, child) {
    case (.finished, .subscribing), (.finished, .running):
      if case .completionSent = upstream { return (.none, nil) }
      phase = .active(upstream: .finished, child: child)
      return (.none, released)
    case (.finished, .none), (.finished, .ended):
      phase = .active(upstream: .completionSent, child: child)
      return (.complete(completion, cancelling: nil), released)
    case (.failure, .running(let index, let subscription)):
      phase = .active(upstream: .completionSent, child: .ended(index: index))
      return (.complete(completion, cancelling: subscription), released)
    case (.failure, _):
      phase = .active(upstream: .completionSent, child: child)
      return (.complete(completion, cancelling: nil), released)
    }
  }

  @usableFromInline
  enum ChildSubscribedAction {
    case request(any Subscription, Subscribers.Demand)
    case cancel(any Subscription)
    case none
  }

  /// Child `index` handed over its subscription: kept if the child is current and holds none, asked for the
  /// outstanding demand.
  @inlinable
  mutating func childSubscribed(_ index: Int, _ subscription: any Subscription) -> ChildSubscribedAction {
    guard case .active(let upstream, let child) = phase, child.index == index else { return .cancel(subscription) }
    switch child {
    case .subscribing, .ended:
      phase = .active(upstream: upstream, child: .running(index: index, subscription))
      return demand > 0 ? .request(subscription, demand) : .none
    case .none, .running:
      return .cancel(subscription)
    }
  }

  /// A value from child `index`: returns `true` when it has taken its demand and the caller must deliver it.
  ///
  /// A value of a replaced child, or beyond the outstanding demand, is dropped (Combine traps on the latter).
  @inlinable
  mutating func childValue(_ index: Int) -> Bool {
    guard case .active(_, let child) = phase, child.index == index, demand > 0 else { return false }
    demand -= 1
    return true
  }

  /// Child `index` completed.
  ///
  /// Its finish completes downstream if the upstream has finished; its failure does at once and cancels the
  /// upstream.
  ///
  /// Returns, besides the action, the phase it leaves (with the child's subscription), to release after unlocking.
  @inlinable
  mutating func childCompleted(
    _ index: Int,
    _ completion: Subscribers.Completion<Failure>
  ) -> (action: CompletionAction, released: Phase?) {
    guard case .active(let upstream, let child) = phase, child.index == index else { return (.none, nil) }
    let released = phase
    switch (completion, upstream) {
    case (_, .completionSent), (.finished, .awaitingSubscription), (.finished, .subscribed):
      phase = .active(upstream: upstream, child: .ended(index: index))
      return (.none, released)
    case (.finished, .finished):
      phase = .active(upstream: .completionSent, child: .ended(index: index))
      return (.complete(completion, cancelling: nil), released)
    case (.failure, .subscribed(let subscription)):
      phase = .failed
      return (.fail(completion, cancelling: subscription), released)
    case (.failure, .awaitingSubscription), (.failure, .finished):
      phase = .failed
      return (.fail(completion, cancelling: nil), released)
    }
  }

  /// Adds downstream demand; returns the current child to forward it to.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
    demand += more
    return currentSubscription
  }

  /// Records that downstream asked for `additional` more on a value, which also goes back to the child that sent it.
  @inlinable
  mutating func delivered(_ additional: Subscribers.Demand) {
    demand += additional
  }

  /// Terminates on downstream's cancel; returns the subscriptions to cancel, the current child first.
  @inlinable
  mutating func cancel() -> [any Subscription] {
    defer { phase = .cancelled }
    guard case .active(let upstream, let child) = phase else { return [] }
    var cancelling: [any Subscription] = []
    if case .running(_, let subscription) = child { cancelling.append(subscription) }
    if case .subscribed(let subscription) = upstream { cancelling.append(subscription) }
    return cancelling
  }

  @inlinable
  var currentSubscription: (any Subscription)? {
    guard case .active(_, .running(_, let subscription)) = phase else { return nil }
    return subscription
  }
}
