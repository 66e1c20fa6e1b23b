extension Publisher {
  /// Omits the specified number of elements before republishing subsequent elements.
  ///
  /// ```
  /// upstream:      -1-2-3-4-|
  /// dropFirst(2):  -----3-4-|
  /// ```
  ///
  /// As in Combine, the dropped elements are requested from upstream along with downstream's first demand, so
  /// dropping them uses none of downstream's demand.
  ///
  /// - Parameter count: The number of elements to omit. The default is `1`.
  /// - Returns: A publisher that doesn't republish the first `count` elements.
  @inlinable
  public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
    Publishers.Drop(upstream: self, count: count)
  }
}

extension Publishers {
  /// A publisher that omits a specified number of elements before republishing later elements.
  public struct Drop<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The number of elements to drop.
    public let count: Int

    /// Creates a publisher that omits a specified number of elements before republishing later elements.
    ///
    /// A negative `count` traps when a subscriber attaches, as in Combine.
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      precondition(count >= 0, "dropFirst: count must not be negative")
      let inner = Inner(downstream: subscriber, count: count)
      subscriber.receive(subscription: inner)
      upstream.subscribe(inner)
    }
  }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publishers.Drop {
  /// As in Combine, the link to upstream can be taken up again: a completion or a cancel lets go of the upstream
  /// subscription, and a subscription that comes later is taken and asked for the demand requested meanwhile and the
  /// elements still to drop. Elements are counted, dropped or passed on, and completions passed on, whatever the link's
  /// phase, as Combine does; a cancel without an upstream subscription does nothing.
  // SAFETY: all mutable state is in `state`; upstream and downstream are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Upstream.Output

    @usableFromInline
    struct State {
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      /// Demand requested while there is no upstream subscription.
      @usableFromInline var pendingDemand = Subscribers.Demand.none
      @usableFromInline var remaining: Int

      @inlinable
      init(
        link: SubscriptionState = SubscriptionState.awaitingSubscription,
        pendingDemand: Subscribers.Demand = Subscribers.Demand.none,
        remaining: Int
      ) {
        self.link = link
        self.pendingDemand = pendingDemand
        self.remaining = remaining
      }
    }

    @usableFromInline let downstream: Downstream
    @usableFromInline let state: Locked<State>

    @inlinable
    init(downstream: Downstream, count: Int) {
      self.downstream = downstream
      state = Locked(State(remaining: count))
    }

    @usableFromInline var description: String { "Drop" }

    @inlinable
    func receive(subscription: any Subscription) {
      let demand = state.withLock { state -> Subscribers.Demand? in
        guard state.link.subscribe(subscription) else { return nil }
        defer { state.pendingDemand = .none }
        return state.pendingDemand + state.remaining
      }
      guard let demand else {
        subscription.cancel()
        return
      }
      if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let isDropped = state.withLock { state -> Bool in
        guard state.remaining > 0 else { return false }
        state.remaining -= 1
        return true
      }
      return isDropped ? .none : downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      let upstream = state.withLock { $0.link.detach() }
      _ = upstream
      downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "Drop: a subscriber requested \(demand); demand must be greater than zero")
      let upstream = state.withLock { state -> (any Subscription)? in
        if !state.link.isSubscribed { state.pendingDemand += demand }
        return state.link.upstream
      }
      upstream?.request(demand)
    }

    @inlinable
    func cancel() {
      state.withLock { $0.link.detach() }?.cancel()
    }
  }
}

extension Publishers.Drop: Sendable where Upstream: Sendable {}
