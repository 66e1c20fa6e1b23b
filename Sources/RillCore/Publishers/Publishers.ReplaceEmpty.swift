extension Publisher {
  /// Replaces an empty stream with the provided element.
  ///
  /// ```
  /// upstream:             ---|
  /// replaceEmpty(with: 0): ---[0|]
  /// ```
  ///
  /// A stream that publishes anything passes through unchanged. As in Combine, downstream's demand is
  /// forwarded, and unlimited demand is also requested from upstream once downstream has received the
  /// subscription. The replacement element waits for downstream's first request.
  ///
  /// - Parameter output: An element to emit when the upstream publisher finishes without emitting any elements.
  /// - Returns: A publisher that replaces an empty stream with the provided output element.
  @inlinable
  public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
    Publishers.ReplaceEmpty(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces an empty stream with a provided element.
  public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The element to deliver when the upstream publisher finishes without delivering any elements.
    public let output: Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that replaces an empty stream with a provided element.
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      upstream.subscribe(Inner(downstream: subscriber, output: output))
    }
  }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceEmpty {
  // SAFETY: all mutable state is in `state`; upstream and downstream are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Upstream.Output

    @usableFromInline
    struct State {
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      @usableFromInline var hasReceivedElement = false
      @usableFromInline var isDemanded = false
      @usableFromInline var isAwaitingDemand = false

      @inlinable
      init(
        link: SubscriptionState = SubscriptionState.awaitingSubscription,
        hasReceivedElement: Bool = false,
        isDemanded: Bool = false,
        isAwaitingDemand: Bool = false
      ) {
        self.link = link
        self.hasReceivedElement = hasReceivedElement
        self.isDemanded = isDemanded
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

    @usableFromInline var description: String { "ReplaceEmpty" }

    @inlinable
    func receive(subscription: any Subscription) {
      guard state.withLock({ $0.link.subscribe(subscription) }) else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
      state.withLock { $0.link.upstream }?.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let isLive = state.withLock { state -> Bool in
        guard state.link.isSubscribed else { return false }
        state.hasReceivedElement = true
        return true
      }
      return isLive ? downstream.receive(input) : .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      // The upstream's subscription, which has completed, is released after unlocking.
      let (action, upstream) = state.withLock { state -> (ReplaceEmptyCompletion, (any Subscription)?) in
        guard let upstream = state.link.endForCompletion() else { return (.ignore, nil) }
        guard case .finished = completion, !state.hasReceivedElement else { return (.forward, upstream) }
        guard state.isDemanded else {
          state.isAwaitingDemand = true
          return (.ignore, upstream)
        }
        return (.replace, upstream)
      }
      _ = upstream
      switch action {
      case .ignore: return
      case .forward: downstream.receive(completion: completion)
      case .replace: sendReplacement()
      }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "ReplaceEmpty: a subscriber requested \(demand); demand must be greater than zero")
      let (upstream, replace) = state.withLock { state -> ((any Subscription)?, Bool) in
        state.isDemanded = true
        guard !state.isAwaitingDemand else {
          state.isAwaitingDemand = false
          return (nil, true)
        }
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
enum ReplaceEmptyCompletion {
  case ignore
  case forward
  case replace
}

extension Publishers.ReplaceEmpty: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}
