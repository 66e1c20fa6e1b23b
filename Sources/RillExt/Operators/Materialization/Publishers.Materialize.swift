extension Publisher {
  /// Wraps each value and the completion of this publisher in an ``Event``, and finishes after the completion's event.
  ///
  /// ```
  /// upstream:       -1-2-^
  /// materialize():  -'value(1)'-'value(2)'-['failure(MarbleError)'|]
  /// ```
  ///
  /// The returned publisher never fails: a failure upstream becomes a `.failure` value followed by `.finished`, so a
  /// subscriber handles errors as ordinary values. Inside `flatMap`, this keeps one failed request from ending the
  /// whole pipeline.
  ///
  /// Demand goes straight upstream. The event that stands for upstream's completion counts against demand like any
  /// value: when it arrives while the subscriber has no demand left, it waits for the next request, then is
  /// delivered with the finish right after it.
  ///
  /// - Returns: A publisher of this publisher's events.
  public func materialize() -> Publishers.Materialize<Self> {
    Publishers.Materialize(upstream: self)
  }
}

extension Publishers {
  /// A publisher that wraps each value and the completion of its upstream in an ``Event``, and never fails.
  public struct Materialize<Upstream: Publisher>: Publisher {
    public typealias Output = Event<Upstream.Output, Upstream.Failure>

    public typealias Failure = Never

    /// The publisher whose events this publisher republishes.
    public let upstream: Upstream

    /// Creates a publisher that republishes the events of `upstream` as values.
    ///
    /// - Parameter upstream: The publisher whose events to republish.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
      upstream.subscribe(Inner(downstream: subscriber))
    }
  }
}

extension Publishers.Materialize {
  // SAFETY: all mutable state is in `state`; upstream and downstream are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Never {
    @usableFromInline
    typealias Input = Upstream.Output

    @usableFromInline
    typealias Failure = Upstream.Failure

    /// Where the subscription stands.
    ///
    /// It carries no payload: the upstream and a waiting completion are fields of ``State`` of their own, so that
    /// the check each value makes reads a plain tag and never copies an enum that holds an ``Event`` of the
    /// upstream's types (specialised code copies such an enum through its value witnesses, which look the
    /// upstream's associated types up at run time). A tag beside optional fields: WritingAnOperator.md, "Hot-path
    /// idioms".
    @usableFromInline
    enum Phase {
      case awaitingSubscription
      case subscribed
      /// Upstream completed while downstream had no demand: its event waits for the next request.
      case awaitingDemandForCompletion
      case terminal
    }

    @usableFromInline
    struct State {
      @usableFromInline
      var phase = Phase.awaitingSubscription
      /// The upstream's subscription, while `phase` is `.subscribed`.
      @usableFromInline
      var upstream: (any Subscription)?
      /// The event that stands for upstream's completion, while `phase` is `.awaitingDemandForCompletion`.
      @usableFromInline
      var completion: Event<Upstream.Output, Upstream.Failure>?
      /// What downstream has asked for and not yet received.
      @usableFromInline
      var demand = Subscribers.Demand.none

      @inlinable
      init() {}

      /// Ends the subscription; returns what it held, for the caller to release after unlocking.
      @inlinable
      mutating func terminate() -> (
        upstream: (any Subscription)?, completion: Event<Upstream.Output, Upstream.Failure>?
      ) {
        phase = .terminal
        return (upstream.take(), completion.take())
      }
    }

    @usableFromInline
    let downstream: Downstream

    @usableFromInline
    let state = Locked(State())

    @inlinable
    init(downstream: Downstream) {
      self.downstream = downstream
    }

    @inlinable
    var description: String { "Materialize.Subscription<\(Upstream.Output.self), \(Upstream.Failure.self)>" }

    @inlinable
    func receive(subscription: any Subscription) {
      let accepted = state.withLock { state -> Bool in
        guard state.phase == .awaitingSubscription else { return false }
        state.phase = .subscribed
        state.upstream = subscription
        return true
      }
      guard accepted else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let deliver = state.withLock { state -> Bool in
        // A value beyond demand, or after the end, breaks upstream's contract and is not delivered.
        guard state.phase == .subscribed, state.demand > 0 else { return false }
        state.demand -= 1
        return true
      }
      guard deliver else { return .none }
      let more = downstream.receive(.value(input))
      guard more > 0 else { return .none }
      state.withLock { state in
        if state.phase == .subscribed { state.demand += more }
      }
      return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      let event: Event<Upstream.Output, Upstream.Failure> =
        switch completion {
        case .finished: .finished
        case .failure(let error): .failure(error)
        }
      // The upstream's subscription, which has completed, is released after unlocking.
      let (deliverNow, upstream) = state.withLock { state -> (Bool, (any Subscription)?) in
        guard state.phase == .subscribed else { return (false, nil) }
        if state.demand > 0 {
          return (true, state.terminate().upstream)
        }
        state.phase = .awaitingDemandForCompletion
        state.completion = event
        return (false, state.upstream.take())
      }
      _ = upstream
      if deliverNow { finish(with: event) }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      // As in CombineExt, a request of `.none` does nothing.
      guard demand > 0 else { return }
      let action = state.withLock { state -> RequestAction? in
        switch state.phase {
        case .subscribed:
          guard let upstream = state.upstream else { return nil }
          state.demand += demand
          return .requestUpstream(upstream)
        case .awaitingDemandForCompletion:
          return state.terminate().completion.map { .finish($0) }
        case .awaitingSubscription, .terminal:
          return nil
        }
      }
      switch action {
      case .requestUpstream(let upstream): upstream.request(demand)
      case .finish(let event): finish(with: event)
      case nil: break
      }
    }

    @inlinable
    func cancel() {
      // The phase it leaves (a completion that waited for demand) is released after unlocking.
      let released = state.withLock { $0.terminate() }
      released.upstream?.cancel()
    }

    @usableFromInline
    enum RequestAction {
      case requestUpstream(any Subscription)
      case finish(Event<Upstream.Output, Upstream.Failure>)
    }

    /// Sends the event that stands for upstream's completion, then finishes.
    @inlinable
    func finish(with event: Event<Upstream.Output, Upstream.Failure>) {
      _ = downstream.receive(event)
      downstream.receive(completion: .finished)
    }
  }
}
