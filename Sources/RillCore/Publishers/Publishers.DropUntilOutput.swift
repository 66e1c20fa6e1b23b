extension Publisher {
  /// Ignores elements from the upstream publisher until it receives an element from a second publisher.
  ///
  /// ```
  /// upstream:                      -1-2-3-4-|
  /// other:                         ----x
  /// drop(untilOutputFrom: other):  -----3-4-|
  /// ```
  ///
  /// It subscribes to `publisher` before upstream and asks it for one element; once that element arrives, it cancels
  /// `publisher`'s subscription. (Combine lets go of it without cancelling it, so a subject kept only by that
  /// subscription lives on with everything it holds.) Dropped elements use up downstream's demand, as in Combine.
  /// If `publisher` completes before producing an element, upstream is cancelled and the stream completes the same
  /// way; an upstream subscription that arrives after that is still asked for the demand downstream requested, as in
  /// Combine.
  ///
  /// As in Combine, the two publishers are followed apart once the stream has ended: each completion of `publisher`
  /// before its element reaches downstream, and so does upstream's first completion, whichever came first; an
  /// element of `publisher`, even after its completion, lets upstream's elements through again. After the end,
  /// downstream is reached only while something else keeps it alive, and after a cancel not at all.
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

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Other.Failure == S.Failure {
      let inner = Inner(downstream: subscriber)
      subscriber.receive(subscription: inner)
      other.subscribe(Trigger(inner: inner))
      upstream.subscribe(inner)
    }
  }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

/// What `drop(untilOutputFrom:)` knows of an upstream subscription that arrives after the other publisher ended the
/// stream.
@usableFromInline
enum DropUntilOutputLateLink {
  /// The stream has not ended that way.
  case none
  /// The other publisher completed before the upstream subscription arrived.
  case awaitingSubscription
  /// The upstream subscription arrived afterwards and was asked for the demand requested until then.
  case subscribed(WeakSubscription)
}

/// A subscription referred to without being retained, so that keeping it cannot keep alive the subscriber it holds.
@usableFromInline
struct WeakSubscription {
  @usableFromInline
  weak var object: AnyObject?

  @inlinable
  init(_ subscription: any Subscription) {
    // Only an instance of a class can be referred to weakly; a value has no identity to cancel later.
    if type(of: subscription) is AnyClass { object = subscription as AnyObject }
  }

  /// The subscription, while something else keeps it alive.
  @inlinable
  var subscription: (any Subscription)? { object as? any Subscription }
}

extension Publishers.DropUntilOutput {
  // SAFETY: all mutable state is in `state`; upstream, the other publisher's subscription and downstream are
  // called, and released, outside the lock.
  //
  // As in Combine, the two publishers are followed apart: a completion from the other publisher before its value is
  // passed on each time it arrives, and so is upstream's first completion, whichever came first; once the other
  // publisher has delivered, upstream's values go on reaching downstream until upstream completes or downstream
  // cancels. Whatever ends the stream first (a completion from either publisher, or a cancel) lets go of both
  // subscriptions and holds downstream only weakly from then on (`DownstreamHold`), so no reference cycle through the
  // other publisher outlives it: the other publisher's subscriber holds this object, and downstream may lead back to
  // the other publisher.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    typealias Input = Upstream.Output

    @usableFromInline
    struct State {
      /// Downstream: held while the stream lasts, reached only while something else keeps it afterwards.
      @usableFromInline
      var downstream: DownstreamHold<Downstream>
      @usableFromInline
      var link = SubscriptionState.awaitingSubscription
      /// The other publisher's subscription, until it delivers or completes.
      ///
      /// Once it has delivered its value it is cancelled (Combine lets go of it without a cancel), and, as in
      /// Combine, the slot takes a new subscription again.
      @usableFromInline
      var trigger = SubscriptionState.awaitingSubscription
      @usableFromInline
      var isTriggered = false
      /// Whether upstream completed or downstream cancelled: from then on nothing of upstream's reaches downstream.
      @usableFromInline
      var isUpstreamDone = false
      /// Whether downstream cancelled: from then on nothing reaches it.
      @usableFromInline
      var isCancelled = false
      /// Demand requested before the upstream subscription arrived.
      @usableFromInline
      var pendingDemand = Subscribers.Demand.none
      @usableFromInline
      var late = DropUntilOutputLateLink.none

      /// Whether upstream has handed over a subscription, before or after the other publisher ended the stream.
      @inlinable
      var hasUpstreamSubscribed: Bool {
        switch (link.phase, late) {
        case (.awaitingSubscription, _), (.terminal, .awaitingSubscription): false
        case (.subscribed, _), (.terminal, .none), (.terminal, .subscribed): true
        }
      }

      @inlinable
      init(
        downstream: DownstreamHold<Downstream>,
        link: SubscriptionState = SubscriptionState.awaitingSubscription,
        trigger: SubscriptionState = SubscriptionState.awaitingSubscription,
        isTriggered: Bool = false,
        isUpstreamDone: Bool = false,
        isCancelled: Bool = false,
        pendingDemand: Subscribers.Demand = Subscribers.Demand.none,
        late: DropUntilOutputLateLink = DropUntilOutputLateLink.none
      ) {
        self.downstream = downstream
        self.link = link
        self.trigger = trigger
        self.isTriggered = isTriggered
        self.isUpstreamDone = isUpstreamDone
        self.isCancelled = isCancelled
        self.pendingDemand = pendingDemand
        self.late = late
      }
    }

    @usableFromInline
    let state: Locked<State>

    /// Held around each call to downstream, as Combine holds one: a completion from the other publisher's thread
    /// waits while downstream receives a value on another thread, and nothing of upstream's follows it.
    @usableFromInline
    let delivery = DeliveryLock()

    @inlinable
    init(downstream: Downstream) {
      state = Locked(State(downstream: DownstreamHold(downstream)))
    }

    @inlinable
    var description: String { "DropUntilOutput" }

    @inlinable
    func receive(subscription: any Subscription) {
      let demand = state.withLock { state -> Subscribers.Demand? in
        if !state.link.subscribe(subscription) {
          guard case .awaitingSubscription = state.late else { return nil }
          // As in Combine, a subscription that arrives after the other publisher ended the stream is still asked
          // for the demand requested until then, and a cancel from downstream still reaches it. It is not
          // retained: downstream has its completion, and nothing should keep the pipeline alive for it.
          state.late = .subscribed(WeakSubscription(subscription))
        }
        defer { state.pendingDemand = .none }
        return state.pendingDemand
      }
      guard let demand else {
        subscription.cancel()
        return
      }
      if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      // As in Combine, a value after the trigger reaches downstream even once the other publisher's completion has
      // cancelled upstream; a value before the trigger is dropped, and so is one before upstream's subscription.
      delivery.withLock {
        let downstream = state.withLock { state -> Downstream? in
          guard state.isTriggered, !state.isUpstreamDone, state.hasUpstreamSubscribed else { return nil }
          return state.downstream.subscriber
        }
        return downstream?.receive(input) ?? .none
      }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      // The upstream's subscription, which has completed, is released after unlocking.
      let (trigger, downstream, upstream) = state.withLock {
        state -> ((any Subscription)?, Downstream?, (any Subscription)?) in
        guard !state.isUpstreamDone else { return (nil, nil, nil) }
        state.isUpstreamDone = true
        // The late subscription, if any, has ended: there is nothing left to cancel.
        state.late = .none
        let upstream = state.link.terminate()
        // The first end of the stream cancels the other publisher; after the other publisher's own completion, as
        // in Combine, upstream's completion still reaches downstream.
        guard let held = state.downstream.release() else { return (nil, state.downstream.subscriber, upstream) }
        return (state.trigger.terminate(), held, upstream)
      }
      _ = upstream
      trigger?.cancel()
      guard let downstream else { return }
      delivery.withLock { downstream.receive(completion: completion) }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      let upstream = state.withLock { state -> (any Subscription)? in
        switch (state.link.phase, state.late) {
        case (.subscribed, _):
          return state.link.upstream
        case (.awaitingSubscription, _), (.terminal, .awaitingSubscription):
          state.pendingDemand += demand
          return nil
        case (.terminal, .subscribed(let late)):
          return late.subscription
        case (.terminal, .none):
          return nil
        }
      }
      upstream?.request(demand)
    }

    @inlinable
    func cancel() {
      let (upstream, trigger, downstream) = state.withLock { state in
        state.isCancelled = true
        state.isUpstreamDone = true
        var upstream = state.link.terminate()
        if case .subscribed(let late) = state.late { upstream = late.subscription }
        state.late = .none
        return (upstream, state.trigger.terminate(), state.downstream.release())
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
      let trigger = state.withLock { state -> (any Subscription)? in
        guard !state.isCancelled else { return nil }
        // As in Combine, any value from the other publisher opens the gate, also one that follows its completion.
        state.isTriggered = true
        guard state.trigger.isSubscribed else { return nil }
        let trigger = state.trigger.terminate()
        state.trigger = .awaitingSubscription
        return trigger
      }
      // Unlike Combine, which lets go of it without a cancel, the other publisher's subscription is cancelled: a
      // subject's subscription keeps the subject alive until it is cancelled or completes, and with it this object.
      trigger?.cancel()
    }

    @inlinable
    func receiveTrigger(completion: Subscribers.Completion<Failure>) {
      let (trigger, upstream, downstream) = state.withLock {
        state -> ((any Subscription)?, (any Subscription)?, Downstream?) in
        guard !state.isCancelled else { return (nil, nil, nil) }
        guard !state.isTriggered else {
          // A subscription taken after the trigger has ended; the stream goes on.
          guard state.trigger.isSubscribed else { return (nil, nil, nil) }
          let trigger = state.trigger.terminate()
          state.trigger = .awaitingSubscription
          return (trigger, nil, nil)
        }
        // As in Combine, every completion before the trigger reaches downstream, also one that follows the end of
        // the stream (a second completion, or one after upstream's).
        if state.link.isAwaitingSubscription { state.late = .awaitingSubscription }
        let downstream = state.downstream.release() ?? state.downstream.subscriber
        return (state.trigger.terminate(), state.link.terminate(), downstream)
      }
      _ = trigger
      upstream?.cancel()
      guard let downstream else { return }
      delivery.withLock { downstream.receive(completion: completion) }
    }
  }

  /// Subscribes the inner subscription to the other publisher.
  ///
  /// As in Combine, it shares the subscription's identifier, description and mirror.
  @usableFromInline
  struct Trigger<Downstream: Subscriber>: Subscriber, CombineDescribable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    typealias Input = Other.Output

    @usableFromInline
    let inner: Inner<Downstream>
    @usableFromInline
    let combineIdentifier: CombineIdentifier

    @inlinable
    init(inner: Inner<Downstream>) {
      self.inner = inner
      combineIdentifier = inner.combineIdentifier
    }

    @inlinable
    var description: String { inner.description }

    @inlinable
    var customMirror: Mirror { inner.customMirror }

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
    func receive(completion: Subscribers.Completion<Failure>) {
      inner.receiveTrigger(completion: completion)
    }
  }
}

extension Publishers.DropUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}
