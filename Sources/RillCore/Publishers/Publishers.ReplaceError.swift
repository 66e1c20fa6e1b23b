extension Publisher {
  /// Replaces any errors in the stream with the provided element.
  ///
  /// ```
  /// upstream:              -1-2-^
  /// replaceError(with: 0): -1-2-[0|]
  /// ```
  ///
  /// If downstream has no outstanding demand when upstream fails, the replacement element waits for
  /// downstream's next request.
  ///
  /// - Parameter output: An element to emit when the upstream publisher fails.
  /// - Returns: A publisher that replaces an error from the upstream publisher with the provided output element.
  @inlinable
  public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
    Publishers.ReplaceError(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces any errors in the stream with a provided element.
  public struct ReplaceError<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Never

    /// The element with which to replace errors from the upstream publisher.
    public let output: Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that replaces any errors in the stream with a provided element.
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == Never {
      upstream.subscribe(Inner(downstream: subscriber, output: output))
    }
  }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceError {
  // SAFETY: all mutable state is in `state`; upstream and downstream are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Never {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline
    struct State {
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      @usableFromInline var demand = Subscribers.Demand.none
      @usableFromInline var isAwaitingDemand = false

      @inlinable
      init(
        link: SubscriptionState = SubscriptionState.awaitingSubscription,
        demand: Subscribers.Demand = Subscribers.Demand.none,
        isAwaitingDemand: Bool = false
      ) {
        self.link = link
        self.demand = demand
        self.isAwaitingDemand = isAwaitingDemand
      }
    }

    @usableFromInline let downstream: Downstream
    @usableFromInline let output: Output
    @usableFromInline let state = Locked(State())

    @inlinable
    init(downstream: Downstream, output: Output) {
      self.downstream = downstream
      self.output = output
    }

    @usableFromInline var description: String { "ReplaceError" }

    @inlinable
    func receive(subscription: any Subscription) {
      guard state.withLock({ $0.link.subscribe(subscription) }) else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let isLive = state.withLock { state -> Bool in
        guard state.link.isSubscribed else { return false }
        if state.demand > 0 { state.demand -= 1 }
        return true
      }
      guard isLive else { return .none }
      let more = downstream.receive(input)
      if more > 0 { state.withLock { $0.demand += more } }
      return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      // The upstream's subscription, which has completed, is released after unlocking.
      let (action, upstream) = state.withLock { state -> (ReplaceErrorCompletion, (any Subscription)?) in
        guard let upstream = state.link.endForCompletion() else { return (.ignore, nil) }
        guard case .failure = completion else { return (.finish, upstream) }
        guard state.demand > 0 else {
          state.isAwaitingDemand = true
          return (.ignore, upstream)
        }
        return (.replace, upstream)
      }
      _ = upstream
      switch action {
      case .ignore: return
      case .finish: downstream.receive(completion: .finished)
      case .replace: sendReplacement()
      }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "ReplaceError: a subscriber requested \(demand); demand must be greater than zero")
      let (upstream, replace) = state.withLock { state -> ((any Subscription)?, Bool) in
        guard !state.isAwaitingDemand else {
          state.isAwaitingDemand = false
          return (nil, true)
        }
        state.demand += demand
        return (state.link.upstream, false)
      }
      if replace { sendReplacement() }
      upstream?.request(demand)
    }

    @inlinable
    func cancel() {
      // As in Combine, a cancel before the upstream subscription arrives does nothing.
      let upstream = state.withLock { state -> (any Subscription)? in
        guard !state.link.isAwaitingSubscription else { return nil }
        state.isAwaitingDemand = false
        return state.link.terminate()
      }
      upstream?.cancel()
    }

    @inlinable
    func sendReplacement() {
      _ = downstream.receive(output)
      downstream.receive(completion: .finished)
    }
  }
}

/// What to do when upstream completes.
@usableFromInline
enum ReplaceErrorCompletion {
  case ignore
  case finish
  case replace
}

extension Publishers.ReplaceError: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}
