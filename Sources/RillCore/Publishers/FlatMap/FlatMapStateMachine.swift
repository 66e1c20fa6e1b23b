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
@usableFromInline
struct FlatMapStateMachine<Value, Failure: Error> {
  @usableFromInline
  enum OuterPhase {
    case awaitingSubscription
    case subscribed(any Subscription)
    case finished
  }

  @usableFromInline let maxPublishers: Subscribers.Demand
  @usableFromInline var outer: OuterPhase
  @usableFromInline var children: [Int: (any Subscription)?] = [:]
  @usableFromInline var nextChild = 0
  @usableFromInline var queue: [(child: Int, value: Value)] = []
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
    for index in 0..<count { children[index] = .some(nil) }
  }

  /// Terminates a merge of no children; returns `true` if downstream must be sent `.finished`.
  @inlinable
  mutating func finishIfEmpty() -> Bool {
    !isTerminated && finishIfDone()
  }

  // MARK: Outer upstream

  @usableFromInline
  enum OuterSubscriptionAction {
    case request(any Subscription, Subscribers.Demand)
    case cancel(any Subscription)
    case none
  }

  @inlinable
  mutating func outerSubscribed(_ subscription: any Subscription) -> OuterSubscriptionAction {
    guard !isTerminated, case .awaitingSubscription = outer else { return .cancel(subscription) }
    outer = .subscribed(subscription)
    return maxPublishers == .none ? .none : .request(subscription, maxPublishers)
  }

  /// Registers a child for an outer value; returns its index, or `nil` when the value must be ignored.
  @inlinable
  mutating func outerValue() -> Int? {
    guard !isTerminated, case .subscribed = outer else { return nil }
    let index = nextChild
    nextChild += 1
    children[index] = .some(nil)
    return index
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
      return finishIfDone() ? .finish : .none
    case .failure(let error):
      outer = .finished
      return terminate(failure: error, except: nil)
    }
  }

  // MARK: Children

  @usableFromInline
  enum ChildSubscriptionAction {
    case request(any Subscription, Subscribers.Demand)
    case cancel(any Subscription)
  }

  @inlinable
  mutating func childSubscribed(_ index: Int, _ subscription: any Subscription) -> ChildSubscriptionAction {
    guard !isTerminated, let slot = children.index(forKey: index), children.values[slot] == nil else {
      return .cancel(subscription)
    }
    children.values[slot] = subscription
    return .request(subscription, demand == .unlimited ? .unlimited : .max(1))
  }

  @usableFromInline
  enum ChildValueAction {
    /// Deliver `value` downstream and become the drainer; return `returning` from the child's `receive`.
    case deliver(Value, thenRequest: (any Subscription)?, returning: Subscribers.Demand)
    /// The value is queued (or dropped after termination); return `.none` from the child's `receive`.
    case none
  }

  @inlinable
  mutating func childValue(_ index: Int, _ value: Value) -> ChildValueAction {
    guard !isTerminated else { return .none }
    guard !isDelivering, demand > 0 else {
      queue.append((index, value))
      return .none
    }
    isDelivering = true
    if queueHead == queue.count {
      let returning: Subscribers.Demand = demand == .unlimited ? .none : .max(1)
      demand -= 1
      return .deliver(value, thenRequest: nil, returning: returning)
    }
    queue.append((index, value))
    let (value, request) = dequeue()
    return .deliver(value, thenRequest: request, returning: .none)
  }

  @inlinable
  mutating func childCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) -> CompletionAction {
    guard !isTerminated, children.removeValue(forKey: index) != nil else { return .none }
    switch completion {
    case .finished:
      if finishIfDone() { return .finish }
      if maxPublishers != .unlimited, case .subscribed(let upstream) = outer { return .requestOuter(upstream) }
      return .none
    case .failure(let error):
      return terminate(failure: error, except: index)
    }
  }

  // MARK: Downstream

  @usableFromInline
  enum DrainStep {
    /// Deliver `value` downstream, then ask `thenRequest` (if any) for one more value, then report `delivered`.
    case deliver(Value, thenRequest: (any Subscription)?)
    case finish
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
    return (finishIfDone() ? .finish : .idle, upgrade)
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

  @inlinable
  mutating func addDemand(_ more: Subscribers.Demand) -> [any Subscription] {
    let wasUnlimited = demand == .unlimited
    demand += more
    guard !wasUnlimited, demand == .unlimited else { return [] }
    return children.sorted { $0.key < $1.key }.compactMap { $0.value }
  }

  @inlinable
  mutating func dequeue() -> (Value, (any Subscription)?) {
    let (child, value) = queue[queueHead]
    queueHead += 1
    if queueHead == queue.count {
      queue.removeAll(keepingCapacity: true)
      queueHead = 0
    }
    demand -= 1
    let request = demand == .unlimited ? nil : children[child] ?? nil
    return (value, request)
  }

  @inlinable
  mutating func finishIfDone() -> Bool {
    guard case .finished = outer, children.isEmpty, queueHead == queue.count, !isDelivering else { return false }
    isTerminated = true
    return true
  }

  @inlinable
  mutating func terminate(failure: Failure, except index: Int?) -> CompletionAction {
    isTerminated = true
    queue.removeAll()
    queueHead = 0
    let cancelling = releaseAll(except: index)
    guard !isDelivering else {
      pendingFailure = failure
      return .cancel(cancelling)
    }
    return .fail(failure, cancelling: cancelling)
  }

  @inlinable
  mutating func releaseAll(except index: Int?) -> [any Subscription] {
    var cancelling: [any Subscription] = []
    for (child, subscription) in children.sorted(by: { $0.key < $1.key }) where child != index {
      if let subscription { cancelling.append(subscription) }
    }
    children.removeAll()
    queue.removeAll()
    queueHead = 0
    if case .subscribed(let upstream) = outer { cancelling.append(upstream) }
    outer = .finished
    return cancelling
  }
}
