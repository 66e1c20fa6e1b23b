extension Publisher {
  /// Subscribes to this publisher again each time a trigger, made from the stream of its failures, sends a value.
  ///
  /// ```
  /// upstream (each subscription):   -1-^
  /// retryWhen { $0.prefix(3) }:     -1--1--1-|
  /// ```
  ///
  /// `errorTrigger` receives a publisher of this publisher's failures and returns the trigger, which is subscribed
  /// once, before this publisher, with unlimited demand. A failure of this publisher does not reach downstream: it
  /// goes to the failures publisher instead, and the stream waits for the trigger.
  /// - A value of the trigger subscribes to this publisher again (cancelling the running subscription, if any);
  ///   the new subscription is asked for what downstream asked for and has not received yet.
  /// - The trigger's finish finishes the stream, and its failure fails it, if its error is a `Failure`; a failure
  ///   of another type is ignored, as CombineExt does.
  /// - A finish of this publisher finishes the stream.
  ///
  /// The end of the stream, or a cancel, cancels both subscriptions. In the diagram, the trigger's third value starts
  /// a subscription that its finish, right after, cancels and ends the stream.
  ///
  /// - Parameter errorTrigger: A closure that makes the trigger from the publisher of failures.
  /// - Returns: A publisher that retries this one each time the trigger says so.
  @inlinable
  public func retryWhen<RetryTrigger>(
    _ errorTrigger: @escaping (AnyPublisher<Self.Failure, Never>) -> RetryTrigger
  ) -> Publishers.RetryWhen<Self, RetryTrigger, Output, Failure> where RetryTrigger: Publisher {
    Publishers.RetryWhen(upstream: self, errorTrigger: errorTrigger)
  }
}

extension Publishers {
  /// A publisher that subscribes to its upstream again each time a trigger, made from its failures, sends a value.
  ///
  /// Create one with ``RillCore/Publisher/retryWhen(_:)``.
  public final class RetryWhen<Upstream, RetryTrigger, Output, Failure>: Publisher
  where Upstream: Publisher, Upstream.Output == Output, Upstream.Failure == Failure, RetryTrigger: Publisher {
    @usableFromInline
    typealias ErrorTrigger = (AnyPublisher<Upstream.Failure, Never>) -> RetryTrigger

    @usableFromInline let upstream: Upstream

    @usableFromInline let errorTrigger: ErrorTrigger

    @inlinable
    init(upstream: Upstream, errorTrigger: @escaping ErrorTrigger) {
      self.upstream = upstream
      self.errorTrigger = errorTrigger
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let inner = Inner(downstream: subscriber, upstream: upstream)
      subscriber.receive(subscription: inner)
      inner.start(errorTrigger)
    }
  }
}

extension Publishers.RetryWhen {
  // SAFETY: all mutable state is in `state`; upstream, the trigger, the failures subject and downstream are called
  // outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    enum Link {
      case awaitingSubscription
      case subscribed(any Subscription)
      /// Completed, failed, or replaced by a newer attempt.
      case ended
    }

    @usableFromInline
    struct State {
      @usableFromInline var isTerminal = false
      /// The number of the running subscription to upstream; events of older ones are ignored.
      @usableFromInline var attempt = 0
      @usableFromInline var upstream = Link.ended
      @usableFromInline var trigger = Link.awaitingSubscription
      /// What downstream asked for and has not received yet.
      @usableFromInline var demand = Subscribers.Demand.none

      @inlinable
      init(
        isTerminal: Bool = false,
        attempt: Int = 0,
        upstream: Link = Link.ended,
        trigger: Link = Link.awaitingSubscription,
        demand: Subscribers.Demand = Subscribers.Demand.none
      ) {
        self.isTerminal = isTerminal
        self.attempt = attempt
        self.upstream = upstream
        self.trigger = trigger
        self.demand = demand
      }

      /// Ends the stream, unless it has ended; returns the subscriptions to cancel.
      @inlinable
      mutating func terminate() -> [any Subscription]? {
        guard !isTerminal else { return nil }
        isTerminal = true
        var live: [any Subscription] = []
        if case .subscribed(let subscription) = upstream { live.append(subscription) }
        if case .subscribed(let subscription) = trigger { live.append(subscription) }
        upstream = .ended
        trigger = .ended
        return live
      }
    }

    @usableFromInline let downstream: Downstream

    @usableFromInline let upstream: Upstream

    @usableFromInline let failures = PassthroughSubject<Failure, Never>()

    @usableFromInline let state = Locked(State())

    /// Held around each call to downstream, as Combine holds one: a value from the running attempt and a completion
    /// from the trigger on another thread reach downstream one at a time, and nothing follows the completion.
    @usableFromInline let delivery = DeliveryLock()

    @inlinable
    init(downstream: Downstream, upstream: Upstream) {
      self.downstream = downstream
      self.upstream = upstream
    }

    @usableFromInline var description: String { "RetryWhen.Subscription<\(Output.self), \(Failure.self)>" }

    /// Subscribes to the trigger, then to upstream, unless downstream cancelled meanwhile.
    @inlinable
    func start(_ errorTrigger: ErrorTrigger) {
      guard !state.withLock({ $0.isTerminal }) else { return }
      errorTrigger(failures.eraseToAnyPublisher()).subscribe(TriggerSubscriber(inner: self))
      subscribeUpstream()
    }

    /// Starts a new attempt: cancels the running one, if any, and subscribes to upstream.
    @inlinable
    func subscribeUpstream() {
      let started = state.withLock { state -> (attempt: Int, replaced: (any Subscription)?)? in
        guard !state.isTerminal else { return nil }
        state.attempt += 1
        defer { state.upstream = .awaitingSubscription }
        guard case .subscribed(let running) = state.upstream else { return (state.attempt, nil) }
        return (state.attempt, running)
      }
      guard let started else { return }
      started.replaced?.cancel()
      upstream.subscribe(AttemptSubscriber(inner: self, attempt: started.attempt))
    }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription, attempt: Int) {
      let demand = state.withLock { state -> Subscribers.Demand? in
        guard attempt == state.attempt, case .awaitingSubscription = state.upstream else { return nil }
        state.upstream = .subscribed(subscription)
        return state.demand
      }
      guard let demand else {
        subscription.cancel()
        return
      }
      if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Output, attempt: Int) -> Subscribers.Demand {
      let current = state.withLock { state -> Bool in
        guard attempt == state.attempt, case .subscribed = state.upstream, state.demand > 0 else { return false }
        state.demand -= 1
        return true
      }
      guard current else { return .none }
      let more = delivery.withLock { () -> Subscribers.Demand in
        // Read under the delivery lock: a completion that went out meanwhile ends the stream.
        guard !state.withLock({ $0.isTerminal }) else { return .none }
        return downstream.receive(input)
      }
      guard more > 0 else { return .none }
      // The demand is downstream's, whichever attempt is running: if a new attempt started during the delivery, it
      // goes to that one (asked now if it is subscribed, or when it subscribes), not to the attempt that ended.
      let newer = state.withLock { state -> (isCurrent: Bool, subscription: (any Subscription)?) in
        state.demand += more
        guard attempt != state.attempt else { return (true, nil) }
        guard case .subscribed(let subscription) = state.upstream else { return (false, nil) }
        return (false, subscription)
      }
      if newer.isCurrent { return more }
      newer.subscription?.request(more)
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>, attempt: Int) {
      switch completion {
      case .finished:
        // The attempt's subscription, which has completed, is released after unlocking.
        let (cancelling, ended) = state.withLock { state -> ([any Subscription]?, Link?) in
          guard attempt == state.attempt, case .subscribed = state.upstream else { return (nil, nil) }
          let ended = state.upstream
          state.upstream = .ended
          return (state.terminate(), ended)
        }
        _ = ended
        guard let cancelling else { return }
        for subscription in cancelling { subscription.cancel() }
        delivery.withLock { downstream.receive(completion: .finished) }
      case .failure(let error):
        // The attempt's subscription, which has failed, is released after unlocking.
        let ended = state.withLock { state -> Link? in
          guard attempt == state.attempt, !state.isTerminal, case .subscribed = state.upstream else { return nil }
          defer { state.upstream = .ended }
          return state.upstream
        }
        if ended != nil { failures.send(error) }
      }
    }

    // MARK: The trigger

    @inlinable
    func triggerSubscribed(_ subscription: any Subscription) {
      let accepted = state.withLock { state -> Bool in
        guard !state.isTerminal, case .awaitingSubscription = state.trigger else { return false }
        state.trigger = .subscribed(subscription)
        return true
      }
      if accepted { subscription.request(.unlimited) } else { subscription.cancel() }
    }

    @inlinable
    func triggerFired() {
      guard state.withLock({ !$0.isTerminal && !isEnded($0.trigger) }) else { return }
      subscribeUpstream()
    }

    @inlinable
    func triggerCompleted(_ completion: Subscribers.Completion<RetryTrigger.Failure>) {
      let downstreamCompletion: Subscribers.Completion<Failure>
      switch completion {
      case .finished:
        downstreamCompletion = .finished
      case .failure(let error):
        // A trigger failure that is not a `Failure` cannot reach downstream; CombineExt ignores it too.
        guard let failure = error as? Failure else { return }
        downstreamCompletion = .failure(failure)
      }
      // The trigger's subscription, which has completed, is released after unlocking.
      let (cancelling, ended) = state.withLock { state -> ([any Subscription]?, Link) in
        let ended = state.trigger
        state.trigger = .ended
        return (state.terminate(), ended)
      }
      _ = ended
      guard let cancelling else { return }
      for subscription in cancelling { subscription.cancel() }
      delivery.withLock { downstream.receive(completion: downstreamCompletion) }
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "RetryWhen: a subscriber requested \(demand); demand must be greater than zero")
      let running = state.withLock { state -> (any Subscription)? in
        guard !state.isTerminal else { return nil }
        state.demand += demand
        guard case .subscribed(let running) = state.upstream else { return nil }
        return running
      }
      running?.request(demand)
    }

    @inlinable
    func cancel() {
      for subscription in state.withLock({ $0.terminate() }) ?? [] { subscription.cancel() }
    }

    @inlinable
    func isEnded(_ link: Link) -> Bool {
      if case .ended = link { true } else { false }
    }
  }

  /// The subscriber to one subscription to upstream, which hands its events to `Inner` with its attempt's number.
  // SAFETY: immutable; `Inner` keeps the state.
  @usableFromInline
  final class AttemptSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Output

    @usableFromInline let inner: Inner<Downstream>

    @usableFromInline let attempt: Int

    @inlinable
    init(inner: Inner<Downstream>, attempt: Int) {
      self.inner = inner
      self.attempt = attempt
    }

    @usableFromInline var description: String { "RetryWhen" }

    @inlinable
    func receive(subscription: any Subscription) {
      inner.receive(subscription: subscription, attempt: attempt)
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
      inner.receive(input, attempt: attempt)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      inner.receive(completion: completion, attempt: attempt)
    }
  }

  /// The subscriber to the trigger, which hands its events to `Inner`.
  // SAFETY: immutable; `Inner` keeps the state.
  @usableFromInline
  final class TriggerSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    @unchecked Sendable
  where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = RetryTrigger.Output

    @usableFromInline typealias Failure = RetryTrigger.Failure

    @usableFromInline let inner: Inner<Downstream>

    @inlinable
    init(inner: Inner<Downstream>) {
      self.inner = inner
    }

    @usableFromInline var description: String { "RetryWhen.Trigger" }

    @inlinable
    func receive(subscription: any Subscription) {
      inner.triggerSubscribed(subscription)
    }

    @inlinable
    func receive(_ input: RetryTrigger.Output) -> Subscribers.Demand {
      inner.triggerFired()
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<RetryTrigger.Failure>) {
      inner.triggerCompleted(completion)
    }
  }
}
