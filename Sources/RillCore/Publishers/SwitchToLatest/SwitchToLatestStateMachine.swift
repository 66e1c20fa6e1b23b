/// The state of one `switchToLatest` subscription: the upstream of publishers, the current child, the
/// outstanding downstream demand (forwarded to the current child and carried over to the next one), and who is
/// delivering downstream right now.
///
/// Downstream is called by one thread at a time: an event that arrives while another thread delivers is queued
/// and the delivering thread (the drainer) sends it; values of a child that has been replaced are dropped.
///
/// Its rules are Combine's. Only downstream's cancel silences it. A completion does not: each completion of the
/// upstream is passed on (a finish once no child is current or awaited), and the current child stays current after
/// the upstream fails, so its values still reach downstream while there is demand, and a subscription it hands over
/// late is asked for the outstanding demand. A child that has finished stays current until the next one, so a
/// subscription it hands over afterwards is kept.
struct SwitchToLatestStateMachine<Value, Failure: Error> {
  private enum Event {
    case value(Value)
    case completion(Subscribers.Completion<Failure>)
  }

  private var upstream = SubscriptionState.awaitingSubscription
  /// Set once the upstream has completed: it sends no more children.
  private var isUpstreamFinished = false
  /// The index of the latest child, once there is one.
  private var currentIndex: Int?
  /// The latest child's subscription, while it has one and has not completed.
  private var currentSubscription: (any Subscription)?
  /// Whether the latest child has not yet handed over its subscription.
  private var isAwaitingChildSubscription = false
  private var nextIndex = 0
  private var demand = Subscribers.Demand.none
  private var isDelivering = false
  private var queue: [Event] = []
  /// Set once a completion has been sent for a child's finish or failure or for the upstream's failure.
  private var hasSentCompletion = false
  /// Set by downstream's cancel or a child's failure: nothing more reaches downstream from a child.
  private var isCancelled = false

  init() {}

  enum UpstreamSubscriptionAction {
    case requestUnlimited(any Subscription)
    case cancel(any Subscription)
  }

  mutating func upstreamSubscribed(_ subscription: any Subscription) -> UpstreamSubscriptionAction {
    guard !isCancelled, upstream.subscribe(subscription) else { return .cancel(subscription) }
    return .requestUnlimited(subscription)
  }

  /// Makes a new child current; returns its index and the previous child's subscription to cancel.
  mutating func upstreamValue() -> (index: Int, cancelling: (any Subscription)?)? {
    guard !isCancelled, !isUpstreamFinished else { return nil }
    let previous = currentSubscription.take()
    let index = nextIndex
    nextIndex += 1
    currentIndex = index
    isAwaitingChildSubscription = true
    return (index, previous)
  }

  enum CompletionAction {
    /// Cancel `cancelling` (if any), then deliver `step`.
    case deliver(DrainStep, cancelling: (any Subscription)?)
    case none
  }

  mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> CompletionAction {
    _ = upstream.terminate()
    isUpstreamFinished = true
    guard !isCancelled else { return .none }
    switch completion {
    case .finished:
      guard !isAwaitingChildSubscription, currentSubscription == nil else { return .none }
      hasSentCompletion = true
      return .deliver(send(.completion(completion)), cancelling: nil)
    case .failure:
      hasSentCompletion = true
      return .deliver(send(.completion(completion)), cancelling: currentSubscription.take())
    }
  }

  enum ChildSubscriptionAction {
    case request(any Subscription, Subscribers.Demand)
    case cancel(any Subscription)
    case none
  }

  mutating func childSubscribed(_ index: Int, _ subscription: any Subscription) -> ChildSubscriptionAction {
    guard !isCancelled, currentIndex == index, currentSubscription == nil else { return .cancel(subscription) }
    currentSubscription = subscription
    isAwaitingChildSubscription = false
    return demand > 0 ? .request(subscription, demand) : .none
  }

  enum DrainStep {
    case deliver(Value)
    case complete(Subscribers.Completion<Failure>)
    case idle
  }

  /// A value from child `index`: deliver it now (`.deliver`), or `.idle` when it was queued or dropped.
  ///
  /// A value beyond the outstanding demand is dropped (Combine traps on it).
  mutating func childValue(_ index: Int, _ value: Value) -> DrainStep {
    guard !isCancelled, currentIndex == index, demand > 0 else { return .idle }
    demand -= 1
    return send(.value(value))
  }

  mutating func childCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) -> CompletionAction {
    guard !isCancelled, currentIndex == index else { return .none }
    currentSubscription = nil
    isAwaitingChildSubscription = false
    guard !hasSentCompletion else { return .none }
    switch completion {
    case .finished:
      guard isUpstreamFinished else { return .none }
      hasSentCompletion = true
      return .deliver(send(.completion(completion)), cancelling: nil)
    case .failure:
      isCancelled = true
      hasSentCompletion = true
      return .deliver(send(.completion(completion)), cancelling: upstream.terminate())
    }
  }

  /// Adds downstream demand; returns the current child to forward it to.
  mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
    demand += more
    return currentSubscription
  }

  /// Records that the drainer delivered a value and downstream asked for `additional` more; returns the next
  /// step and, when `forwarding`, the current child to forward `additional` to.
  mutating func delivered(
    _ additional: Subscribers.Demand,
    forwarding: Bool
  ) -> (DrainStep, forwardTo: (any Subscription)?) {
    var forwardTo: (any Subscription)?
    if additional > 0 {
      demand += additional
      if forwarding { forwardTo = currentSubscription }
    }
    return (next(), forwardTo)
  }

  /// Records that the drainer sent a completion; returns the next step.
  mutating func completed() -> DrainStep {
    next()
  }

  /// Terminates on downstream's cancel; returns the subscriptions to cancel, the current child first.
  mutating func cancel() -> [any Subscription] {
    isCancelled = true
    queue.removeAll()
    return [currentSubscription.take(), upstream.terminate()].compactMap { $0 }
  }

  /// Delivers `event` now if no one is delivering, or queues it for the drainer.
  private mutating func send(_ event: Event) -> DrainStep {
    guard !isDelivering else {
      queue.append(event)
      return .idle
    }
    isDelivering = true
    return step(for: event)
  }

  /// The drainer's next step: the next queued event, or idle.
  private mutating func next() -> DrainStep {
    guard !isCancelled, !queue.isEmpty else {
      queue.removeAll()
      isDelivering = false
      return .idle
    }
    return step(for: queue.removeFirst())
  }

  private func step(for event: Event) -> DrainStep {
    switch event {
    case .value(let value): .deliver(value)
    case .completion(let completion): .complete(completion)
    }
  }
}
