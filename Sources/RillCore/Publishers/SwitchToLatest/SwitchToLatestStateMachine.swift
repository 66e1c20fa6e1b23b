/// The state of one `switchToLatest` subscription: where the upstream of publishers is, which child is current,
/// the outstanding downstream demand (forwarded to the current child and carried over to the next one), and the
/// events on their way downstream.
///
/// Each event is one mutating method that returns what the caller must do after unlocking. Downstream is called by
/// one thread at a time: an event that arrives while another thread delivers is queued in a ``DeliveryQueue``,
/// and the delivering thread sends it; values of a child that has been replaced are dropped.
///
/// Its rules are Combine's. Only downstream's cancel silences it. A completion does not: each completion of the
/// upstream is passed on (a finish once no child is current or awaited), and the current child stays current after
/// the upstream fails, so its values still reach downstream while there is demand, and a subscription it hands over
/// late is asked for the outstanding demand. A child that has ended stays current until the next one, so a
/// subscription it hands over afterwards is kept.
struct SwitchToLatestStateMachine<Value, Failure: Error>: DrainingStateMachine {
  typealias Output = Value
  /// What goes downstream, one at a time and in order.
  typealias Event = DeliveryEvent<Value, Failure>

  /// Where the upstream of publishers is.
  private enum Upstream {
    case awaitingSubscription
    case subscribed(any Subscription)
    /// It finished while a child was current: that child's finish completes downstream.
    case finished
    /// It completed and a completion went downstream: the children's completions are not passed on.
    case completionSent
  }

  /// The latest child publisher.
  private enum Child {
    case none
    /// Child `index` has been subscribed to and has not handed over its subscription yet.
    case subscribing(index: Int)
    case running(index: Int, any Subscription)
    /// Child `index` holds no subscription: it completed, or the upstream's failure cancelled it. It stays current
    /// until the next child.
    case ended(index: Int)

    var index: Int? {
      switch self {
      case .none: nil
      case .subscribing(let index), .running(let index, _), .ended(let index): index
      }
    }
  }

  private enum Phase {
    case active(upstream: Upstream, child: Child)
    /// Downstream cancelled, or a child failed: nothing more reaches downstream from a child.
    case cancelled
  }

  private var phase = Phase.active(upstream: .awaitingSubscription, child: .none)
  private var nextIndex = 0
  private var demand = Subscribers.Demand.none
  private var outbox = DeliveryQueue<Event>()

  init() {}

  enum UpstreamSubscriptionAction {
    case requestUnlimited(any Subscription)
    case cancel(any Subscription)
  }

  /// Accepts the upstream's subscription; a second one, or one after the end, is cancelled.
  mutating func upstreamSubscribed(_ subscription: any Subscription) -> UpstreamSubscriptionAction {
    guard case .active(.awaitingSubscription, let child) = phase else { return .cancel(subscription) }
    phase = .active(upstream: .subscribed(subscription), child: child)
    return .requestUnlimited(subscription)
  }

  /// Makes a new child current; returns its index and the previous child's subscription to cancel.
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

  /// What to do for a completion: cancel `cancelling`, if any, then deliver `deliver`, if any, and drain.
  struct CompletionAction {
    var cancelling: (any Subscription)?
    var deliver: Event?

    static var none: CompletionAction { CompletionAction(cancelling: nil, deliver: nil) }
  }

  /// The upstream completed.
  ///
  /// A finish completes downstream once no child is current or awaited; a failure does at once, and cancels the
  /// current child's subscription. As in Combine, a second completion is passed on too.
  mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> CompletionAction {
    guard case .active(let upstream, let child) = phase else { return .none }
    switch (completion, child) {
    case (.finished, .subscribing), (.finished, .running):
      if case .completionSent = upstream { return .none }
      phase = .active(upstream: .finished, child: child)
      return .none
    case (.finished, .none), (.finished, .ended):
      phase = .active(upstream: .completionSent, child: child)
      return CompletionAction(cancelling: nil, deliver: outbox.push(.completion(completion)))
    case (.failure, .running(let index, let subscription)):
      phase = .active(upstream: .completionSent, child: .ended(index: index))
      return CompletionAction(cancelling: subscription, deliver: outbox.push(.completion(completion)))
    case (.failure, _):
      phase = .active(upstream: .completionSent, child: child)
      return CompletionAction(cancelling: nil, deliver: outbox.push(.completion(completion)))
    }
  }

  enum ChildSubscriptionAction {
    case request(any Subscription, Subscribers.Demand)
    case cancel(any Subscription)
    case none
  }

  /// Child `index` handed over its subscription: kept if the child is current and holds none, asked for the
  /// outstanding demand.
  mutating func childSubscribed(_ index: Int, _ subscription: any Subscription) -> ChildSubscriptionAction {
    guard case .active(let upstream, let child) = phase, child.index == index else { return .cancel(subscription) }
    switch child {
    case .subscribing, .ended:
      phase = .active(upstream: upstream, child: .running(index: index, subscription))
      return demand > 0 ? .request(subscription, demand) : .none
    case .none, .running:
      return .cancel(subscription)
    }
  }

  /// A value from child `index`: returns it when the caller must deliver it now, or `nil` when it was queued or
  /// dropped.
  ///
  /// A value of a replaced child, or beyond the outstanding demand, is dropped (Combine traps on the latter).
  mutating func childValue(_ index: Int, _ value: Value) -> Event? {
    guard case .active(_, let child) = phase, child.index == index, demand > 0 else { return nil }
    demand -= 1
    return outbox.push(.value(value))
  }

  /// Child `index` completed.
  ///
  /// Its finish completes downstream if the upstream has finished; its failure does at once and cancels the
  /// upstream.
  mutating func childCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) -> CompletionAction {
    guard case .active(let upstream, let child) = phase, child.index == index else { return .none }
    switch (completion, upstream) {
    case (_, .completionSent), (.finished, .awaitingSubscription), (.finished, .subscribed):
      phase = .active(upstream: upstream, child: .ended(index: index))
      return .none
    case (.finished, .finished):
      phase = .active(upstream: .completionSent, child: .ended(index: index))
      return CompletionAction(cancelling: nil, deliver: outbox.push(.completion(completion)))
    case (.failure, .subscribed(let subscription)):
      phase = .cancelled
      return CompletionAction(cancelling: subscription, deliver: outbox.push(.completion(completion)))
    case (.failure, .awaitingSubscription), (.failure, .finished):
      phase = .cancelled
      return CompletionAction(cancelling: nil, deliver: outbox.push(.completion(completion)))
    }
  }

  /// Adds downstream demand; returns the current child to forward it to.
  mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
    demand += more
    return currentSubscription
  }

  /// Records that the caller delivered a child's value directly and downstream asked for `additional` more, which
  /// goes back to that child as the caller's return value; returns the next event of the drain that follows.
  mutating func delivered(_ additional: Subscribers.Demand) -> Event? {
    demand += additional
    return outbox.next()
  }

  /// Returns the next event for the drainer, or `nil` when the drain is over.
  mutating func next() -> Event? {
    outbox.next()
  }

  /// The completion is being delivered; there is nothing to record.
  ///
  /// The call that queued it already ended what it ends, and only downstream's cancel silences the machine.
  mutating func deliveringCompletion() {}

  /// Terminates on downstream's cancel; returns the subscriptions to cancel, the current child first.
  mutating func cancel() -> [any Subscription] {
    defer {
      phase = .cancelled
      outbox.removeAll()
    }
    guard case .active(let upstream, let child) = phase else { return [] }
    var cancelling: [any Subscription] = []
    if case .running(_, let subscription) = child { cancelling.append(subscription) }
    if case .subscribed(let subscription) = upstream { cancelling.append(subscription) }
    return cancelling
  }

  private var currentSubscription: (any Subscription)? {
    guard case .active(_, .running(_, let subscription)) = phase else { return nil }
    return subscription
  }
}
