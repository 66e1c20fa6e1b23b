/// The state of one `switchToLatest` subscription: the upstream of publishers, the current child, the
/// outstanding downstream demand (forwarded to the current child and carried over to the next one), and who is
/// delivering downstream right now.
///
/// Downstream is called by one thread at a time: an event that arrives while another thread delivers is queued
/// and the delivering thread (the drainer) sends it; values of a child that has been replaced are dropped.
struct SwitchToLatestStateMachine<Value, Failure: Error> {
  private enum Event {
    case value(Value)
    case completion(Subscribers.Completion<Failure>)
  }

  private var upstream = SubscriptionState.awaitingSubscription
  private var isUpstreamFinished = false
  private var current: (index: Int, subscription: (any Subscription)?)?
  private var nextIndex = 0
  private var demand = Subscribers.Demand.none
  private var isDelivering = false
  private var queue: [Event] = []
  private var isTerminated = false

  init() {}

  enum UpstreamSubscriptionAction {
    case requestUnlimited(any Subscription)
    case cancel(any Subscription)
  }

  mutating func upstreamSubscribed(_ subscription: any Subscription) -> UpstreamSubscriptionAction {
    guard !isTerminated, upstream.subscribe(subscription) else { return .cancel(subscription) }
    return .requestUnlimited(subscription)
  }

  /// Makes a new child current; returns its index and the previous child's subscription to cancel.
  mutating func upstreamValue() -> (index: Int, cancelling: (any Subscription)?)? {
    guard !isTerminated, upstream.isSubscribed else { return nil }
    let previous = current?.subscription
    let index = nextIndex
    nextIndex += 1
    current = (index, nil)
    return (index, previous)
  }

  enum CompletionAction {
    /// Cancel `cancelling` (if any), then deliver `step`.
    case deliver(DrainStep, cancelling: (any Subscription)?)
    case none
  }

  mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> CompletionAction {
    guard !isTerminated, upstream.terminate() != nil else { return .none }
    isUpstreamFinished = true
    switch completion {
    case .finished:
      guard current == nil else { return .none }
      return complete(.finished, cancelling: nil)
    case .failure:
      let cancelling = current?.subscription
      current = nil
      return complete(completion, cancelling: cancelling)
    }
  }

  enum ChildSubscriptionAction {
    case request(any Subscription, Subscribers.Demand)
    case cancel(any Subscription)
    case none
  }

  mutating func childSubscribed(_ index: Int, _ subscription: any Subscription) -> ChildSubscriptionAction {
    guard !isTerminated, let current, current.index == index, current.subscription == nil else {
      return .cancel(subscription)
    }
    self.current = (index, subscription)
    return demand > 0 ? .request(subscription, demand) : .none
  }

  enum DrainStep {
    case deliver(Value)
    case complete(Subscribers.Completion<Failure>)
    case idle
  }

  /// A value from child `index`: deliver it now (`.deliver`, with the child's subscription), or `.idle` when it
  /// was queued or dropped.
  mutating func childValue(_ index: Int, _ value: Value) -> (DrainStep, child: (any Subscription)?) {
    guard !isTerminated, let current, current.index == index else { return (.idle, nil) }
    demand -= 1
    guard !isDelivering else {
      queue.append(.value(value))
      return (.idle, nil)
    }
    isDelivering = true
    return (.deliver(value), current.subscription)
  }

  mutating func childCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) -> CompletionAction {
    guard !isTerminated, current?.index == index else { return .none }
    current = nil
    switch completion {
    case .finished:
      return isUpstreamFinished ? complete(.finished, cancelling: nil) : .none
    case .failure:
      return complete(completion, cancelling: upstream.terminate())
    }
  }

  /// Adds downstream demand; returns the current child to forward it to.
  mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
    guard !isTerminated else { return nil }
    demand += more
    return current?.subscription
  }

  /// Records that the drainer delivered a value and downstream asked for `additional` more; returns the next
  /// step and the child to forward `additional` to.
  mutating func delivered(_ additional: Subscribers.Demand) -> (DrainStep, forwardTo: (any Subscription)?) {
    var forwardTo: (any Subscription)?
    if additional > 0, !isTerminated {
      demand += additional
      forwardTo = current?.subscription
    }
    guard !queue.isEmpty else {
      isDelivering = false
      return (.idle, forwardTo)
    }
    switch queue.removeFirst() {
    case .value(let value): return (.deliver(value), forwardTo)
    case .completion(let completion):
      queue.removeAll()
      isDelivering = false
      return (.complete(completion), forwardTo)
    }
  }

  /// Terminates on downstream's cancel; returns the subscriptions to cancel.
  mutating func cancel() -> [any Subscription] {
    guard !isTerminated else { return [] }
    isTerminated = true
    queue.removeAll()
    let subscriptions = [current?.subscription, upstream.terminate()].compactMap { $0 }
    current = nil
    return subscriptions
  }

  private mutating func complete(
    _ completion: Subscribers.Completion<Failure>,
    cancelling: (any Subscription)?
  ) -> CompletionAction {
    isTerminated = true
    _ = upstream.terminate()
    guard !isDelivering else {
      queue.append(.completion(completion))
      return .deliver(.idle, cancelling: cancelling)
    }
    return .deliver(.complete(completion), cancelling: cancelling)
  }
}
