extension Publisher {
  /// Ignores elements from the upstream publisher until it receives an element from a second publisher.
  ///
  /// ```
  /// upstream:                      -1-2-3-4-|
  /// other:                         ----x
  /// drop(untilOutputFrom: other):  -----3-4-|
  /// ```
  ///
  /// It subscribes to `publisher` before upstream and asks it for one element. Dropped elements use up
  /// downstream's demand, as in Combine. If `publisher` completes before producing an element, upstream is
  /// cancelled and the stream completes the same way.
  ///
  /// - Parameter publisher: A publisher to monitor for its first emitted element.
  /// - Returns: A publisher that drops elements from the upstream publisher until the `other` publisher produces
  ///   a value.
  public func drop<P: Publisher>(
    untilOutputFrom publisher: P
  ) -> Publishers.DropUntilOutput<Self, P> where Failure == P.Failure {
    Publishers.DropUntilOutput(upstream: self, other: publisher)
  }
}

extension Publishers {
  /// A publisher that ignores elements from the upstream publisher until it receives an element from a second
  /// publisher.
  public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
  where Upstream.Failure == Other.Failure {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// A publisher to monitor for its first emitted element.
    public let other: Other

    /// Creates a publisher that ignores elements from the upstream publisher until it receives an element from
    /// another publisher.
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Other.Failure == S.Failure {
      let inner = Inner(downstream: subscriber)
      subscriber.receive(subscription: inner)
      other.subscribe(Trigger(inner: inner))
      upstream.subscribe(inner)
    }
  }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publishers.DropUntilOutput {
  // SAFETY: all mutable state is in `state`; upstream, the other publisher's subscription and downstream are
  // called outside the lock.
  private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    typealias Input = Upstream.Output

    private struct State {
      var link = SubscriptionState.awaitingSubscription
      var trigger = SubscriptionState.awaitingSubscription
      var isTriggered = false
      var pendingDemand = Subscribers.Demand.none
    }

    private let downstream: Downstream
    private let state = Locked(State())

    init(downstream: Downstream) {
      self.downstream = downstream
    }

    var description: String { "DropUntilOutput" }

    var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
      let demand = state.withLock { state -> Subscribers.Demand? in
        guard state.link.subscribe(subscription) else { return nil }
        defer { state.pendingDemand = .none }
        return state.pendingDemand
      }
      guard let demand else {
        subscription.cancel()
        return
      }
      if demand > 0 { subscription.request(demand) }
    }

    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let isTriggered = state.withLock { $0.link.isSubscribed && $0.isTriggered }
      return isTriggered ? downstream.receive(input) : .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      let trigger = state.withLock { state -> (any Subscription)?? in
        guard state.link.terminate() != nil else { return nil }
        return .some(state.trigger.terminate())
      }
      guard let trigger else { return }
      trigger?.cancel()
      downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
      let upstream = state.withLock { state -> (any Subscription)? in
        if state.link.isAwaitingSubscription { state.pendingDemand += demand }
        return state.link.upstream
      }
      upstream?.request(demand)
    }

    func cancel() {
      let (upstream, trigger) = state.withLock { ($0.link.terminate(), $0.trigger.terminate()) }
      upstream?.cancel()
      trigger?.cancel()
    }

    func receiveTrigger(subscription: any Subscription) {
      let isAccepted = state.withLock { state in !state.link.isTerminal && state.trigger.subscribe(subscription) }
      guard isAccepted else {
        subscription.cancel()
        return
      }
      subscription.request(.max(1))
    }

    func receiveTrigger() {
      let trigger = state.withLock { state -> (any Subscription)? in
        guard let trigger = state.trigger.terminate() else { return nil }
        state.isTriggered = true
        return trigger
      }
      trigger?.cancel()
    }

    func receiveTrigger(completion: Subscribers.Completion<Failure>) {
      let upstream = state.withLock { state -> (any Subscription)?? in
        guard state.trigger.terminate() != nil, !state.link.isTerminal else { return nil }
        return .some(state.link.terminate())
      }
      guard let upstream else { return }
      upstream?.cancel()
      downstream.receive(completion: completion)
    }
  }

  /// Subscribes the inner subscription to the other publisher.
  private struct Trigger<Downstream: Subscriber>: Subscriber, CustomStringConvertible
  where Downstream.Input == Output, Downstream.Failure == Failure {
    typealias Input = Other.Output

    let inner: Inner<Downstream>
    let combineIdentifier = CombineIdentifier()

    var description: String { "DropUntilOutput" }

    func receive(subscription: any Subscription) {
      inner.receiveTrigger(subscription: subscription)
    }

    func receive(_ input: Other.Output) -> Subscribers.Demand {
      inner.receiveTrigger()
      return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      inner.receiveTrigger(completion: completion)
    }
  }
}

extension Publishers.DropUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}
