extension Publisher {
  /// Performs the specified closures when publisher events occur.
  ///
  /// ```
  /// upstream:                             -1-2-|
  /// handleEvents(receiveOutput: { _ in }): -1-2-|
  /// ```
  ///
  /// Each closure runs before the event is passed on: `receiveOutput` before downstream receives the value,
  /// `receiveRequest` before demand goes upstream (and for demand downstream returns from receiving a value,
  /// when not `.none`), `receiveCancel` before upstream is cancelled. The closures are released when the
  /// subscription completes or is cancelled.
  ///
  /// - Parameters:
  ///   - receiveSubscription: An optional closure that executes when the publisher receives the subscription
  ///     from the upstream publisher.
  ///   - receiveOutput: An optional closure that executes when the publisher receives a value from the
  ///     upstream publisher.
  ///   - receiveCompletion: An optional closure that executes when the upstream publisher finishes normally or
  ///     terminates with an error.
  ///   - receiveCancel: An optional closure that executes when the downstream receiver cancels publishing.
  ///   - receiveRequest: An optional closure that executes when the publisher receives a request for more
  ///     elements.
  /// - Returns: A publisher that performs the specified closures when publisher events occur.
  public func handleEvents(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveOutput: ((Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil,
    receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    Publishers.HandleEvents(
      upstream: self,
      receiveSubscription: receiveSubscription,
      receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion,
      receiveCancel: receiveCancel,
      receiveRequest: receiveRequest
    )
  }
}

extension Publishers {
  /// A publisher that performs the specified closures when publisher events occur.
  public struct HandleEvents<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that executes when the publisher receives the subscription from the upstream publisher.
    public var receiveSubscription: ((any Subscription) -> Void)?

    /// A closure that executes when the publisher receives a value from the upstream publisher.
    public var receiveOutput: ((Upstream.Output) -> Void)?

    /// A closure that executes when the upstream publisher finishes normally or terminates with an error.
    public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?

    /// A closure that executes when the downstream receiver cancels publishing.
    public var receiveCancel: (() -> Void)?

    /// A closure that executes when the publisher receives a request for more elements.
    public var receiveRequest: ((Subscribers.Demand) -> Void)?

    /// Creates a publisher that performs the specified closures when publisher events occur.
    public init(
      upstream: Upstream,
      receiveSubscription: ((any Subscription) -> Void)? = nil,
      receiveOutput: ((Output) -> Void)? = nil,
      receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
      receiveCancel: (() -> Void)? = nil,
      receiveRequest: ((Subscribers.Demand) -> Void)?
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
      self.receiveCancel = receiveCancel
      self.receiveRequest = receiveRequest
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
      let events = Events(
        receiveSubscription: receiveSubscription,
        receiveOutput: receiveOutput,
        receiveCompletion: receiveCompletion,
        receiveCancel: receiveCancel,
        receiveRequest: receiveRequest
      )
      upstream.subscribe(Inner(events: events, downstream: subscriber))
    }
  }
}

extension Publishers.HandleEvents {
  /// The closures a subscription runs: only these, never the publisher, so that a subscription does not keep
  /// its upstream alive (an upstream that holds its subscription would otherwise never be freed).
  @usableFromInline
  struct Events {
    @usableFromInline let receiveSubscription: ((any Subscription) -> Void)?
    @usableFromInline let receiveOutput: OutputHandler?
    @usableFromInline let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
    @usableFromInline let receiveCancel: (() -> Void)?
    @usableFromInline let receiveRequest: ((Subscribers.Demand) -> Void)?

    @inlinable
    init(
      receiveSubscription: ((any Subscription) -> Void)?,
      receiveOutput: ((Upstream.Output) -> Void)?,
      receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?,
      receiveCancel: (() -> Void)?,
      receiveRequest: ((Subscribers.Demand) -> Void)?
    ) {
      self.receiveSubscription = receiveSubscription
      if let receiveOutput {
        self.receiveOutput = OutputHandler(receiveOutput)
      } else {
        self.receiveOutput = nil
      }
      self.receiveCompletion = receiveCompletion
      self.receiveCancel = receiveCancel
      self.receiveRequest = receiveRequest
    }
  }

  /// `receiveOutput`, in a struct: read out of the lock on every value, a bare closure of a generic type would be
  /// wrapped in a reabstraction thunk, one allocation each time (WritingAnOperator.md, "A closure in a struct").
  @usableFromInline
  struct OutputHandler {
    @usableFromInline let call: (Upstream.Output) -> Void

    @inlinable
    init(_ call: @escaping (Upstream.Output) -> Void) {
      self.call = call
    }
  }

  /// As in Combine, elements and completions that arrive before the upstream subscription are handled as if it had
  /// come, and a cancel before it runs `receiveCancel` and nothing else: the subscription is still taken when it
  /// comes. Once the subscription completes or is cancelled, the closures are released and no longer run, yet what
  /// upstream still sends (values, further completions) reaches the subscriber as in Combine, while something else
  /// keeps it alive (see `DownstreamHold`).
  ///
  /// A value takes the lock once, for the closures and the subscriber; only when `receiveRequest` is set and the
  /// subscriber asks for more does it take it again, so that a subscription that ended meanwhile reports nothing.
  // SAFETY: all mutable state is in `state`; the closures, downstream and upstream are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline
    struct State {
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      /// The closures; `nil` once the subscription has completed or been cancelled.
      @usableFromInline var events: Events?
      @usableFromInline var downstream: DownstreamHold<Downstream>

      @inlinable
      init(events: Events, downstream: DownstreamHold<Downstream>) {
        self.events = events
        self.downstream = downstream
      }

      /// Ends the subscription; returns the upstream to cancel, the closures that were set and the subscriber that
      /// was held, all to use or drop outside the lock.
      @inlinable
      mutating func end() -> ((any Subscription)?, Events?, Downstream?) {
        (link.terminate(), events.take(), downstream.release())
      }
    }

    @usableFromInline let state: Locked<State>

    @inlinable
    init(events: Events, downstream: Downstream) {
      state = Locked(State(events: events, downstream: DownstreamHold(downstream)))
    }

    @usableFromInline
    var description: String { "HandleEvents" }

    @inlinable
    var events: Events? { state.withLock { $0.events } }

    @inlinable
    func receive(subscription: any Subscription) {
      events?.receiveSubscription?(subscription)
      let downstream = state.withLock { state -> Downstream? in
        state.link.subscribe(subscription) ? state.downstream.subscriber : nil
      }
      guard let downstream else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let (receiveOutput, watchesRequests, downstream) = state.withLock {
        ($0.events?.receiveOutput, $0.events?.receiveRequest != nil, $0.downstream.subscriber)
      }
      receiveOutput?.call(input)
      guard let downstream else { return .none }
      let demand = downstream.receive(input)
      if watchesRequests, demand != .none {
        events?.receiveRequest?(demand)
      }
      return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      let (upstream, events, held, downstream) = state.withLock { state in
        let (upstream, events, held) = state.end()
        return (upstream, events, held, held ?? state.downstream.subscriber)
      }
      _ = (upstream, held)
      events?.receiveCompletion?(completion)
      downstream?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      events?.receiveRequest?(demand)
      state.withLock { $0.link.upstream }?.request(demand)
    }

    @inlinable
    func cancel() {
      if let early = state.withLock({ $0.link.isAwaitingSubscription ? $0.events : nil }) {
        early.receiveCancel?()
        return
      }
      let (upstream, events, downstream) = state.withLock { $0.end() }
      _ = downstream
      guard let upstream else { return }
      events?.receiveCancel?()
      upstream.cancel()
    }
  }
}
