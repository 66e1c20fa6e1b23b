extension Publisher {
  /// Republishes elements until another publisher emits an element.
  ///
  /// ```
  /// upstream:                        -1-2-3-4-|
  /// other:                           ------x
  /// prefix(untilOutputFrom: other):  -1-2-3|
  /// ```
  ///
  /// It subscribes to `publisher` before upstream and asks it for one element; that element cancels upstream
  /// and `publisher` and finishes the stream. If `publisher` completes without an element, upstream simply
  /// continues.
  ///
  /// - Parameter publisher: A second publisher.
  /// - Returns: A publisher that republishes elements until the second publisher publishes an element.
  public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
    Publishers.PrefixUntilOutput(upstream: self, other: publisher)
  }
}

extension Publishers {
  /// A publisher that republishes elements until another publisher emits an element.
  public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Another publisher, whose first output causes this publisher to finish.
    public let other: Other

    /// Creates a publisher that republishes elements until another publisher emits an element.
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let inner = Inner(downstream: subscriber)
      other.subscribe(Trigger(inner: inner))
      upstream.subscribe(inner)
    }
  }
}

/// What the inner subscription does with upstream's subscription.
private enum PrefixUntilOutputSubscriptionAction {
  case accept
  case reject
  case finishAtOnce
}

extension Publishers.PrefixUntilOutput {
  // SAFETY: all mutable state is in `state`; upstream, the other publisher's subscription and downstream are
  // called outside the lock.
  private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    typealias Input = Upstream.Output

    private struct State {
      var link = SubscriptionState.awaitingSubscription
      var trigger = SubscriptionState.awaitingSubscription
      var isTriggeredEarly = false
    }

    private let downstream: Downstream
    private let state = Locked(State())

    init(downstream: Downstream) {
      self.downstream = downstream
    }

    var description: String { "PrefixUntilOutput" }

    var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
      let action = state.withLock { state -> PrefixUntilOutputSubscriptionAction in
        if state.isTriggeredEarly, state.link.isAwaitingSubscription {
          state.link = .terminal
          return .finishAtOnce
        }
        return state.link.subscribe(subscription) ? .accept : .reject
      }
      switch action {
      case .accept:
        downstream.receive(subscription: self)
      case .reject:
        subscription.cancel()
      case .finishAtOnce:
        subscription.cancel()
        downstream.receive(subscription: self)
        downstream.receive(completion: .finished)
      }
    }

    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      guard state.withLock({ $0.link.upstream }) != nil else { return .none }
      return downstream.receive(input)
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
      state.withLock { $0.link.upstream }?.request(demand)
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
      let (trigger, upstream) = state.withLock { state -> ((any Subscription)?, (any Subscription)?) in
        guard let trigger = state.trigger.terminate() else { return (nil, nil) }
        if state.link.isAwaitingSubscription {
          state.isTriggeredEarly = true
          return (trigger, nil)
        }
        return (trigger, state.link.terminate())
      }
      trigger?.cancel()
      guard let upstream else { return }
      upstream.cancel()
      downstream.receive(completion: .finished)
    }

    func receiveTrigger(completion: Subscribers.Completion<Other.Failure>) {
      _ = state.withLock { $0.trigger.terminate() }
    }
  }

  /// Subscribes the inner subscription to the other publisher.
  private struct Trigger<Downstream: Subscriber>: Subscriber, CustomStringConvertible
  where Downstream.Input == Output, Downstream.Failure == Failure {
    typealias Input = Other.Output
    typealias Failure = Other.Failure

    let inner: Inner<Downstream>
    let combineIdentifier = CombineIdentifier()

    var description: String { "PrefixUntilOutput" }

    func receive(subscription: any Subscription) {
      inner.receiveTrigger(subscription: subscription)
    }

    func receive(_ input: Other.Output) -> Subscribers.Demand {
      inner.receiveTrigger()
      return .none
    }

    func receive(completion: Subscribers.Completion<Other.Failure>) {
      inner.receiveTrigger(completion: completion)
    }
  }
}

extension Publishers.PrefixUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}
