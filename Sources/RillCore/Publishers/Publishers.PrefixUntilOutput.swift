extension Publisher {
  /// Republishes elements until another publisher emits an element.
  ///
  /// ```
  /// upstream:                        -1-2-3-4-|
  /// other:                           ------x
  /// prefix(untilOutputFrom: other):  -1-2-3|
  /// ```
  ///
  /// It subscribes to `publisher` before upstream and asks it for one element; that element cancels upstream and
  /// `publisher`'s subscription, and finishes the stream. (Combine lets go of `publisher`'s subscription without
  /// cancelling it, so a subject kept only by that subscription lives on with everything it holds.) If that element
  /// comes before upstream's subscription, downstream receives `.finished` without a subscription, as in Combine,
  /// and the upstream subscription is cancelled when it arrives. If `publisher` completes without an element,
  /// upstream simply continues.
  ///
  /// If that element comes while downstream is still receiving an upstream value, on another thread or from inside
  /// that `receive(_:)`, `.finished` waits until the value's `receive(_:)` has returned, and is delivered by the
  /// thread that delivered the value: a subscriber is never called from two threads at once. (Combine's delivers
  /// `.finished` at once, on the other publisher's thread.)
  ///
  /// - Parameter publisher: A second publisher.
  /// - Returns: A publisher that republishes elements until the second publisher publishes an element.
  @inlinable
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

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let inner = Inner(downstream: subscriber)
      other.subscribe(Trigger(inner: inner))
      upstream.subscribe(inner)
    }
  }
}

extension Publishers.PrefixUntilOutput {
  // SAFETY: all mutable state is in `state`; upstream, the other publisher's subscription and downstream are
  // called, and released, outside the lock.
  //
  // Whatever ends the stream (upstream's completion, the other publisher's value, or a cancel) lets go of
  // downstream and of both subscriptions, so no reference cycle through the other publisher outlives it: the other
  // publisher's subscriber holds this object, and downstream may lead back to the other publisher.
  //
  // As in Combine, neither this subscription nor the subscriber given to the other publisher customises its
  // description or mirror: a debugger shows the type's name.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Upstream.Output

    @usableFromInline
    struct State {
      /// Downstream, until the stream ends.
      @usableFromInline var downstream: Downstream?
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      /// The other publisher's subscription, until it delivers or completes.
      @usableFromInline var trigger = SubscriptionState.awaitingSubscription

      @inlinable
      init(
        downstream: Downstream? = nil,
        link: SubscriptionState = SubscriptionState.awaitingSubscription,
        trigger: SubscriptionState = SubscriptionState.awaitingSubscription
      ) {
        self.downstream = downstream
        self.link = link
        self.trigger = trigger
      }
    }

    @usableFromInline let state: Locked<State>

    /// Held around each call to downstream, as Combine holds one: the other publisher's value, arriving on another
    /// thread while downstream is receiving, waits for it to return before `.finished`; one sent from inside
    /// downstream finishes it at once, nested.
    @usableFromInline let delivery = DeliveryLock()

    /// Runs `requestNow` in specialised code: a request arrives through `any Subscription` (a specialised entry:
    /// WritingAnOperator.md, "Hot-path idioms").
    @usableFromInline let specialized: SpecializedEntry<Inner>

    @inlinable
    init(downstream: Downstream) {
      state = Locked(State(downstream: downstream))
      specialized = SpecializedEntry { $0.requestNow($1) }
    }

    @inlinable
    func receive(subscription: any Subscription) {
      let downstream = state.withLock { state in state.link.subscribe(subscription) ? state.downstream : nil }
      guard let downstream else {
        subscription.cancel()
        return
      }
      delivery.withLock { downstream.receive(subscription: self) }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      delivery.withLock {
        // Read under the delivery lock: once the stream has ended, no value follows its completion.
        guard let downstream = state.withLock({ $0.link.isSubscribed ? $0.downstream : nil }) else { return .none }
        return downstream.receive(input)
      }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      // The upstream's subscription, which has completed, is released after unlocking.
      let (trigger, downstream, upstream) = state.withLock {
        state -> ((any Subscription)?, Downstream?, (any Subscription)?) in
        guard !state.link.isTerminal else { return (nil, nil, nil) }
        return (state.trigger.terminate(), state.downstream.take(), state.link.terminate())
      }
      // Only a subscribed link hands back its subscription.
      let isSubscribed = upstream != nil
      trigger?.cancel()
      // As in Combine, a completion before the subscription ends the stream without reaching downstream, which has
      // no subscription yet.
      guard isSubscribed, let downstream else { return }
      delivery.withLock { downstream.receive(completion: completion) }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      specialized(self, demand)
    }

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
      state.withLock { $0.link.upstream }?.request(demand)
    }

    @inlinable
    func cancel() {
      let (upstream, trigger, downstream) = state.withLock {
        ($0.link.terminate(), $0.trigger.terminate(), $0.downstream.take())
      }
      upstream?.cancel()
      trigger?.cancel()
      _ = downstream
    }

    @inlinable
    func receiveTrigger(subscription: any Subscription) {
      let isAccepted = state.withLock { state in !state.link.isTerminal && state.trigger.subscribe(subscription) }
      guard isAccepted else {
        subscription.cancel()
        return
      }
      subscription.request(.max(1))
    }

    @inlinable
    func receiveTrigger() {
      let (trigger, upstream, downstream) = state.withLock {
        state -> ((any Subscription)?, (any Subscription)?, Downstream?) in
        guard state.trigger.isSubscribed else { return (nil, nil, nil) }
        return (state.trigger.terminate(), state.link.terminate(), state.downstream.take())
      }
      // Unlike Combine, which lets go of it without a cancel, the other publisher's subscription is cancelled: a
      // subject's subscription keeps the subject alive until it is cancelled or completes, and with it this object.
      trigger?.cancel()
      // As in Combine, downstream finishes at once, also when upstream has not subscribed yet: it then receives its
      // completion without a subscription, and the upstream subscription that arrives later is cancelled.
      upstream?.cancel()
      guard let downstream else { return }
      delivery.withLock { downstream.receive(completion: .finished) }
    }

    @inlinable
    func receiveTrigger(completion: Subscribers.Completion<Other.Failure>) {
      // The other publisher ended without a value: upstream goes on, and its subscription is let go.
      let trigger = state.withLock { $0.trigger.isSubscribed ? $0.trigger.terminate() : nil }
      _ = trigger
    }
  }

  /// Subscribes the inner subscription to the other publisher.
  ///
  /// As in Combine, it shares the subscription's identifier.
  @usableFromInline
  struct Trigger<Downstream: Subscriber>: Subscriber
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Other.Output
    @usableFromInline typealias Failure = Other.Failure

    @usableFromInline let inner: Inner<Downstream>
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(inner: Inner<Downstream>) {
      self.inner = inner
      combineIdentifier = inner.combineIdentifier
    }

    @inlinable
    func receive(subscription: any Subscription) {
      inner.receiveTrigger(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Other.Output) -> Subscribers.Demand {
      inner.receiveTrigger()
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Other.Failure>) {
      inner.receiveTrigger(completion: completion)
    }
  }
}

extension Publishers.PrefixUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}
