extension Publisher {
  /// Handles errors from an upstream publisher by replacing it with another publisher.
  ///
  /// ```
  /// upstream:               -1-2-^
  /// catch { _ in Just(9) }: -1-2-[9|]
  /// ```
  ///
  /// Downstream demand that upstream had not met when it failed is requested from the replacement publisher.
  ///
  /// - Parameter handler: A closure that accepts the upstream failure as input and returns a publisher to replace
  ///   the upstream publisher.
  /// - Returns: A publisher that handles errors from an upstream publisher by replacing the failed publisher with
  ///   another publisher.
  public func `catch`<P: Publisher>(
    _ handler: @escaping (Failure) -> P
  ) -> Publishers.Catch<Self, P> where Output == P.Output {
    Publishers.Catch(upstream: self, handler: handler)
  }

  /// Handles errors from an upstream publisher by either replacing it with another publisher or throwing a new
  /// error.
  ///
  /// ```
  /// upstream:                  -1-2-^
  /// tryCatch { _ in Just(9) }: -1-2-[9|]
  /// ```
  ///
  /// If `handler` throws, the publisher fails with the thrown error.
  ///
  /// - Parameter handler: A throwing closure that accepts the upstream failure as input and returns a publisher
  ///   to replace the upstream publisher, or throws an error.
  /// - Returns: A publisher that handles errors from an upstream publisher by replacing the failed publisher with
  ///   another publisher, or by failing with the error the handler throws.
  public func tryCatch<P: Publisher>(
    _ handler: @escaping (Failure) throws -> P
  ) -> Publishers.TryCatch<Self, P> where Output == P.Output {
    Publishers.TryCatch(upstream: self, handler: handler)
  }
}

extension Publishers {
  /// A publisher that handles errors from an upstream publisher by replacing the failed publisher with another
  /// publisher.
  public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    public typealias Output = Upstream.Output
    public typealias Failure = NewPublisher.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// A closure that accepts the upstream failure as input and returns a publisher to replace the upstream
    /// publisher.
    public let handler: (Upstream.Failure) -> NewPublisher

    /// Creates a publisher that handles errors from an upstream publisher by replacing the failed publisher with
    /// another publisher.
    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
      let handler = self.handler
      let inner = CatchInner<Upstream, NewPublisher, S>(
        downstream: subscriber,
        name: "Catch",
        handler: { .success(handler($0)) },
        mapFailure: { $0 }
      )
      upstream.subscribe(CatchInner.Before(inner: inner))
    }
  }

  /// A publisher that handles errors from an upstream publisher by replacing the failed publisher with another
  /// publisher or producing a new error.
  public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// A closure that accepts the upstream failure as input and either returns a publisher to replace the
    /// upstream publisher or throws an error.
    public let handler: (Upstream.Failure) throws -> NewPublisher

    /// Creates a publisher that handles errors from an upstream publisher by replacing the failed publisher with
    /// another publisher or by throwing an error.
    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
      let handler = self.handler
      let inner = CatchInner<Upstream, NewPublisher, S>(
        downstream: subscriber,
        name: "TryCatch",
        handler: { error in Result { try handler(error) } },
        mapFailure: { $0 }
      )
      upstream.subscribe(CatchInner.Before(inner: inner))
    }
  }
}

/// The engine of `catch` and `tryCatch`: forwards upstream until it fails, then subscribes to the replacement
/// publisher and asks it for the demand upstream had not met.
///
/// As in Combine, a cancel while the replacement publisher is being subscribed (there is no subscription to cancel
/// yet) changes nothing: the replacement's subscription is then asked for the demand not met, and what it sends goes
/// downstream. After the subscription ended, the values that the publisher in use still sends go downstream (while
/// something else keeps the subscriber alive, see `DownstreamHold`); its completions and a later subscription do not.
// SAFETY: all mutable state is in `state`; downstream, upstream, the replacement and the handler are called
// outside the lock.
@usableFromInline
final class CatchInner<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
  CombineDescribable, @unchecked Sendable
where Upstream.Output == NewPublisher.Output, Downstream.Input == Upstream.Output {
  @usableFromInline
  enum Phase {
    case awaitingUpstream
    case upstream(any Subscription)
    /// The upstream completed: its finish is on its way downstream, or its failure is with the handler.
    case recovering
    /// The handler returned the replacement publisher, which is being subscribed.
    case awaitingReplacement
    case replacement(any Subscription)
    /// The subscription ended; `hasRecovered` says whether the replacement publisher had taken over.
    case terminal(hasRecovered: Bool)

    @inlinable
    var hasRecovered: Bool {
      switch self {
      case .awaitingReplacement, .replacement: true
      case .terminal(let hasRecovered): hasRecovered
      case .awaitingUpstream, .upstream, .recovering: false
      }
    }
  }

  @usableFromInline
  struct State {
    @usableFromInline
    var phase = Phase.awaitingUpstream
    @usableFromInline
    var downstream: DownstreamHold<Downstream>
    /// Downstream demand not yet met: what the replacement publisher is asked for.
    @usableFromInline
    var demand = Subscribers.Demand.none

    /// Ends the link; returns the subscription to cancel and the subscriber that was held, to drop outside the lock.
    @inlinable
    mutating func terminate() -> ((any Subscription)?, Downstream?) {
      defer { phase = .terminal(hasRecovered: phase.hasRecovered) }
      switch phase {
      case .upstream(let subscription), .replacement(let subscription): return (subscription, downstream.release())
      case .awaitingUpstream, .recovering, .awaitingReplacement, .terminal: return (nil, downstream.release())
      }
    }

    /// Ends the link to complete downstream; returns the subscriber that was held and the one to complete, and the
    /// completed publisher's subscription, to release after unlocking.
    @inlinable
    mutating func complete() -> (held: Downstream?, subscriber: Downstream?, subscription: (any Subscription)?) {
      let (subscription, held) = terminate()
      return (held, held ?? downstream.subscriber, subscription)
    }

    @inlinable
    init(
      phase: Phase = Phase.awaitingUpstream,
      downstream: DownstreamHold<Downstream>,
      demand: Subscribers.Demand = Subscribers.Demand.none
    ) {
      self.phase = phase
      self.downstream = downstream
      self.demand = demand
    }
  }

  /// The subscriber given to the upstream publisher.
  @usableFromInline
  struct Before: Subscriber, CombineDescribable {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    let inner: CatchInner

    @inlinable
    var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

    @inlinable
    var description: String { inner.description }

    @inlinable
    var customMirror: Mirror { inner.customMirror }

    @inlinable
    func receive(subscription: any Subscription) { inner.receiveUpstream(subscription: subscription) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { inner.receiveUpstream(input) }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { inner.receiveUpstream(completion: completion) }

    @inlinable
    init(inner: CatchInner) {
      self.inner = inner
    }
  }

  /// The subscriber given to the replacement publisher.
  @usableFromInline
  struct After: Subscriber, CombineDescribable {
    @usableFromInline
    typealias Input = NewPublisher.Output
    @usableFromInline
    typealias Failure = NewPublisher.Failure

    @usableFromInline
    let inner: CatchInner

    @inlinable
    var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

    @inlinable
    var description: String { inner.description }

    @inlinable
    var customMirror: Mirror { inner.customMirror }

    @inlinable
    func receive(subscription: any Subscription) { inner.receiveReplacement(subscription: subscription) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { inner.receiveReplacement(input) }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { inner.receiveReplacement(completion: completion) }

    @inlinable
    init(inner: CatchInner) {
      self.inner = inner
    }
  }

  @usableFromInline
  let state: Locked<State>
  @usableFromInline
  let handler: (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>
  @usableFromInline
  let mapFailure: (NewPublisher.Failure) -> Downstream.Failure
  @usableFromInline
  let name: String

  @inlinable
  init(
    downstream: Downstream,
    name: String,
    handler: @escaping (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>,
    mapFailure: @escaping (NewPublisher.Failure) -> Downstream.Failure
  ) {
    state = Locked(State(downstream: DownstreamHold(downstream)))
    self.handler = handler
    self.mapFailure = mapFailure
    self.name = name
  }

  @inlinable
  var description: String { name }

  @inlinable
  var customMirror: Mirror {
    let (downstream, demand) = state.withLock { ($0.downstream.subscriber, $0.demand) }
    return Mirror(self, children: ["downstream": downstream as Any, "demand": demand])
  }

  @inlinable
  func receiveUpstream(subscription: any Subscription) {
    let downstream = state.withLock { state -> Downstream? in
      guard case .awaitingUpstream = state.phase else { return nil }
      state.phase = .upstream(subscription)
      return state.downstream.subscriber
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  func receiveUpstream(_ input: Upstream.Output) -> Subscribers.Demand {
    let downstream = state.withLock { state -> Downstream? in
      switch state.phase {
      case .upstream:
        state.demand -= 1
        return state.downstream.subscriber
      case .terminal(let hasRecovered):
        return hasRecovered ? nil : state.downstream.subscriber
      case .awaitingUpstream, .recovering, .awaitingReplacement, .replacement:
        return nil
      }
    }
    guard let downstream else { return .none }
    let more = downstream.receive(input)
    state.withLock { state in
      if case .upstream = state.phase { state.demand += more }
    }
    return more
  }

  @inlinable
  func receiveUpstream(completion: Subscribers.Completion<Upstream.Failure>) {
    // The upstream's subscription, which has completed, is released after unlocking.
    let upstream = state.withLock { state -> (any Subscription)? in
      guard case .upstream(let subscription) = state.phase else { return nil }
      state.phase = .recovering
      return subscription
    }
    guard upstream != nil else { return }
    switch completion {
    case .finished:
      let (held, downstream, _) = state.withLock { $0.complete() }
      _ = held
      downstream?.receive(completion: .finished)
    case .failure(let error):
      switch handler(error) {
      case .success(let replacement):
        state.withLock { state in
          if case .recovering = state.phase { state.phase = .awaitingReplacement }
        }
        replacement.subscribe(After(inner: self))
      case .failure(let error):
        let (held, downstream, _) = state.withLock { $0.complete() }
        _ = held
        downstream?.receive(completion: .failure(error))
      }
    }
  }

  @inlinable
  func receiveReplacement(subscription: any Subscription) {
    let demand = state.withLock { state -> Subscribers.Demand? in
      guard case .awaitingReplacement = state.phase else { return nil }
      state.phase = .replacement(subscription)
      return state.demand
    }
    guard let demand else {
      subscription.cancel()
      return
    }
    if demand > 0 { subscription.request(demand) }
  }

  @inlinable
  func receiveReplacement(_ input: NewPublisher.Output) -> Subscribers.Demand {
    let downstream = state.withLock { state -> Downstream? in
      switch state.phase {
      case .replacement, .terminal: return state.downstream.subscriber
      case .awaitingUpstream, .upstream, .recovering, .awaitingReplacement: return nil
      }
    }
    return downstream?.receive(input) ?? .none
  }

  @inlinable
  func receiveReplacement(completion: Subscribers.Completion<NewPublisher.Failure>) {
    // The replacement's subscription, which has completed, and the subscriber that was held are released after
    // unlocking.
    let ended = state.withLock {
      state -> (held: Downstream?, subscriber: Downstream?, subscription: (any Subscription)?)? in
      guard case .replacement = state.phase else { return nil }
      return state.complete()
    }
    ended?.subscriber?.receive(completion: completion.mapError(mapFailure))
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    let subscription = state.withLock { state -> (any Subscription)? in
      switch state.phase {
      case .upstream(let subscription):
        state.demand += demand
        return subscription
      case .recovering, .awaitingReplacement:
        state.demand += demand
        return nil
      case .replacement(let subscription):
        return subscription
      case .awaitingUpstream, .terminal:
        return nil
      }
    }
    subscription?.request(demand)
  }

  @inlinable
  func cancel() {
    let (subscription, downstream) = state.withLock { state -> ((any Subscription)?, Downstream?) in
      switch state.phase {
      case .recovering, .awaitingReplacement: return (nil, nil)
      case .awaitingUpstream, .upstream, .replacement, .terminal: return state.terminate()
      }
    }
    subscription?.cancel()
    _ = downstream
  }
}
