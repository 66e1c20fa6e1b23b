extension Publisher {
  /// Attempts to recreate a failed subscription with the upstream publisher up to the number of times you
  /// specify.
  ///
  /// ```
  /// upstream: -1-^
  /// retry(1): -1--1-^
  /// ```
  ///
  /// A cold upstream starts over on each retry, as above. Each retry subscribes to upstream again and asks it for the downstream demand still outstanding. A failure
  /// after the last retry is passed downstream.
  ///
  /// - Parameter retries: The number of times to attempt to recreate the subscription; as in Combine, a negative
  ///   number retries indefinitely.
  /// - Returns: A publisher that attempts to recreate its subscription to a failed upstream publisher.
  public func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: retries)
  }
}

extension Publishers {
  /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
  public struct Retry<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of retry attempts to perform; `nil` retries indefinitely.
    public let retries: Int?

    /// Creates a publisher that attempts to recreate its subscription to a failed upstream publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives its elements.
    ///   - retries: The maximum number of retry attempts to perform. If `nil`, this publisher attempts to
    ///     reconnect with the upstream publisher an unlimited number of times.
    public init(upstream: Upstream, retries: Int?) {
      self.upstream = upstream
      self.retries = retries
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
      upstream.subscribe(Inner(downstream: subscriber, upstream: upstream, retries: retries))
    }
  }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publishers.Retry {
  // SAFETY: all mutable state is in `state`; downstream and upstream are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure

    /// As in Combine, the only phases are "running" (`downstream` set) and "ended": between a failure and the
    /// next subscription, and before the first one, upstream's values and completions are taken as usual.
    @usableFromInline
    struct State {
      /// The current upstream subscription; `nil` before the first one and between a failure and the next one.
      @usableFromInline
      var upstream: (any Subscription)?
      /// `nil` once downstream has completed or cancelled.
      @usableFromInline
      var downstream: Downstream?
      @usableFromInline
      var hasSentSubscription = false
      /// Downstream demand not yet met: what a new upstream subscription is asked for.
      @usableFromInline
      var demand = Subscribers.Demand.none
      /// Retries left; `nil` for no limit.
      @usableFromInline
      var remaining: Int?
      /// Set while a resubscription runs on this thread, so that a synchronous failure loops instead of
      /// recursing.
      @usableFromInline
      var isResubscribing = false
      @usableFromInline
      var needsResubscribe = false

      @inlinable
      init(
        upstream: (any Subscription)? = nil,
        downstream: Downstream? = nil,
        hasSentSubscription: Bool = false,
        demand: Subscribers.Demand = Subscribers.Demand.none,
        remaining: Int? = nil,
        isResubscribing: Bool = false,
        needsResubscribe: Bool = false
      ) {
        self.upstream = upstream
        self.downstream = downstream
        self.hasSentSubscription = hasSentSubscription
        self.demand = demand
        self.remaining = remaining
        self.isResubscribing = isResubscribing
        self.needsResubscribe = needsResubscribe
      }
    }

    @usableFromInline
    enum CompletionAction {
      case ignore
      case complete(Downstream)
      case resubscribe
    }

    @usableFromInline
    let state: Locked<State>
    @usableFromInline
    let upstream: Upstream

    @inlinable
    init(downstream: Downstream, upstream: Upstream, retries: Int?) {
      // A negative count never runs out, as in Combine: it retries indefinitely.
      state = Locked(State(downstream: downstream, remaining: retries.flatMap { $0 < 0 ? nil : $0 }))
      self.upstream = upstream
    }

    @inlinable
    var description: String { "Retry" }

    @inlinable
    func receive(subscription: any Subscription) {
      let action = state.withLock { state -> (Downstream?, Subscribers.Demand)? in
        guard state.downstream != nil, state.upstream == nil else { return nil }
        state.upstream = subscription
        if state.hasSentSubscription { return (nil, state.demand) }
        state.hasSentSubscription = true
        return (state.downstream, state.demand)
      }
      guard let (downstream, demand) = action else {
        subscription.cancel()
        return
      }
      downstream?.receive(subscription: self)
      if demand > 0 { subscription.request(demand) }
    }

    /// As in Combine, the demand downstream returns is requested from upstream's subscription rather than
    /// returned.
    ///
    /// A value that arrives while no subscription is held (as a resubscribed publisher may send before
    /// handing over its subscription) is delivered like any other; one beyond the outstanding demand is not.
    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let downstream = state.withLock { state -> Downstream? in
        guard state.downstream != nil, state.demand > 0 else { return nil }
        state.demand -= 1
        return state.downstream
      }
      guard let downstream else { return .none }
      let more = downstream.receive(input)
      guard more > 0 else { return .none }
      let upstream = state.withLock { state -> (any Subscription)? in
        guard state.downstream != nil else { return nil }
        state.demand += more
        return state.upstream
      }
      upstream?.request(more)
      return .none
    }

    /// As in Combine, a completion counts whenever downstream is still running, also before the first
    /// subscription and between a failure and the next subscription.
    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      // The subscription of the attempt that completed is released after unlocking.
      let (action, attempt) = state.withLock { state -> (CompletionAction, (any Subscription)?) in
        guard let downstream = state.downstream else { return (.ignore, nil) }
        let attempt = state.upstream.take()
        if case .failure = completion, state.remaining.map({ $0 > 0 }) ?? true {
          state.remaining = state.remaining.map { $0 - 1 }
          if state.isResubscribing {
            state.needsResubscribe = true
            return (.ignore, attempt)
          }
          state.isResubscribing = true
          return (.resubscribe, attempt)
        }
        state.downstream = nil
        return (.complete(downstream), attempt)
      }
      _ = attempt
      switch action {
      case .ignore:
        return
      case .complete(let downstream):
        downstream.receive(completion: completion)
      case .resubscribe:
        var again = true
        while again {
          upstream.subscribe(self)
          again = state.withLock { state in
            defer { state.needsResubscribe = false }
            // A cancel that has returned meanwhile ends the loop: no new attempt starts after it.
            state.isResubscribing = state.needsResubscribe && state.downstream != nil
            return state.isResubscribing
          }
        }
      }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "Retry: a subscriber requested \(demand); demand must be greater than zero")
      let upstream = state.withLock { state -> (any Subscription)? in
        guard state.downstream != nil else { return nil }
        state.demand += demand
        return state.upstream
      }
      upstream?.request(demand)
    }

    @inlinable
    func cancel() {
      let (upstream, downstream) = state.withLock { ($0.upstream.take(), $0.downstream.take()) }
      // A subscription kept after the subscription ended is only released.
      if downstream != nil { upstream?.cancel() }
      _ = downstream
    }
  }
}
