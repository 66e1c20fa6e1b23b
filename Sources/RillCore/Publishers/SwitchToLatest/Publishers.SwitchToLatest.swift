// `public` because the per-value paths are `@inlinable` and read an atomic gate.
public import Atomics

extension Publisher where Output: Publisher, Output.Failure == Failure {
  /// Republishes elements sent by the most recently received publisher.
  ///
  /// ```
  /// upstream:         -a----b-----|
  /// a:                 -1-2-3|
  /// b:                      -4-|
  /// switchToLatest(): --1-2--4----|
  /// ```
  ///
  /// Each new publisher from upstream cancels the previous one; outstanding demand carries over to the new one.
  /// The result finishes once upstream and the current publisher have finished.
  ///
  /// As in Combine, a value of the current publisher reaches the subscriber on the thread that sent it, before
  /// that publisher's call returns, once the subscriber has returned from any other value; a value sent from inside
  /// the subscriber arrives at once, nested. A value beyond the outstanding demand is dropped (Combine traps).
  ///
  /// - Returns: A publisher that emits elements only from the most recent publisher.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
  /// Republishes elements sent by the most recently received publisher, when neither can fail.
  ///
  /// ```
  /// upstream:         -a----b-----|
  /// a:                 -1-2-3|
  /// b:                      -4-|
  /// switchToLatest(): --1-2--4----|
  /// ```
  ///
  /// - Returns: A publisher that emits elements only from the most recent publisher.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension Publisher where Output: Publisher, Failure == Never {
  /// Republishes elements sent by the most recently received publisher, for an upstream that never fails.
  ///
  /// ```
  /// upstream:         -a----b-----|
  /// a:                 -1-2-3|
  /// b:                      -4-|
  /// switchToLatest(): --1-2--4----|
  /// ```
  ///
  /// The upstream takes on the nested publishers' failure type.
  ///
  /// - Returns: A publisher that emits elements only from the most recent publisher.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
    setFailureType(to: Output.Failure.self).switchToLatest()
  }
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension Publisher where Output: Publisher, Output.Failure == Never {
  /// Republishes elements sent by the most recently received publisher, for nested publishers that never fail.
  ///
  /// ```
  /// upstream:         -a----b-----|
  /// a:                 -1-2-3|
  /// b:                      -4-|
  /// switchToLatest(): --1-2--4----|
  /// ```
  ///
  /// The nested publishers take on the upstream's failure type.
  ///
  /// - Returns: A publisher that emits elements only from the most recent publisher.
  public func switchToLatest()
    -> Publishers.SwitchToLatest<
      Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    >
  {
    map { $0.setFailureType(to: Failure.self) }.switchToLatest()
  }
}

extension Publishers {
  /// A publisher that flattens nested publishers, republishing only the elements of the most recent one.
  public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
  where P == Upstream.Output, P.Failure == Upstream.Failure {
    public typealias Output = P.Output

    public typealias Failure = P.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that “flattens” nested publishers.
    ///
    /// - Parameter upstream: The publisher from which this publisher receives elements.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
      let inner = Inner(downstream: subscriber)
      inner.start()
      upstream.subscribe(inner)
    }
  }
}

extension Publishers.SwitchToLatest {
  // SAFETY: all mutable state is in `machine`; downstream is called under the delivery lock only, upstream and
  // children outside every lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Machine = SwitchToLatestStateMachine<Output, Failure>

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let machine = Locked(Machine())
    /// Held around each call to downstream, as Combine holds one: a child's value from another thread waits until
    /// downstream returns, then is delivered on its own thread; one from inside downstream is delivered at once.
    @usableFromInline
    let delivery = DeliveryLock()
    /// Bits of the delivery lock's gate, set once a child has failed and once downstream has cancelled; read under
    /// the delivery lock, so that a value that waited for it follows neither the failure nor a cancel that has
    /// returned (a gate beside a lock: WritingAnOperator.md, "Hot-path idioms").
    @inlinable
    static var valuesSilenced: Int { 1 }
    @inlinable
    static var cancelled: Int { 2 }

    @inlinable
    init(downstream: Downstream) {
      self.downstream = downstream
    }

    @inlinable
    var description: String { "SwitchToLatest" }

    @inlinable
    var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

    /// Hands the subscription to downstream, under the delivery lock so that nothing reaches downstream before it.
    @inlinable
    func start() {
      delivery.withLock { downstream.receive(subscription: self) }
    }

    @inlinable
    func receive(subscription: any Subscription) {
      switch machine.withLock({ $0.upstreamSubscribed(subscription) }) {
      case .requestUnlimited(let upstream): upstream.request(.unlimited)
      case .cancel(let upstream): upstream.cancel()
      }
    }

    @inlinable
    func receive(_ input: P) -> Subscribers.Demand {
      guard let (index, previous) = machine.withLock({ $0.upstreamValue() }) else { return .none }
      previous?.cancel()
      input.subscribe(Child(index: index, parent: self))
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      let (action, released) = machine.withLock { $0.upstreamCompleted(completion) }
      _ = released
      perform(action)
    }

    /// The demand downstream has asked for that no value has taken yet.
    @inlinable
    var outstandingDemand: Subscribers.Demand { machine.withLock { $0.outstandingDemand } }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "SwitchToLatest: a subscriber requested \(demand); demand must be greater than zero")
      machine.withLock { $0.request(demand) }?.request(demand)
    }

    @inlinable
    func cancel() {
      let cancelling = machine.withLock { $0.cancel() }
      _ = delivery.gate.loadThenBitwiseOr(with: Self.cancelled, ordering: .releasing)
      for subscription in cancelling { subscription.cancel() }
    }

    @inlinable
    func childSubscribed(_ index: Int, _ subscription: any Subscription) {
      switch machine.withLock({ $0.childSubscribed(index, subscription) }) {
      case .request(let child, let demand): child.request(demand)
      case .cancel(let child): child.cancel()
      case .none: break
      }
    }

    /// Delivers a value of the current child on the calling thread, before returning, if it finds demand.
    ///
    /// As in Combine, the demand downstream returns for it also goes back to the child that sent it.
    @inlinable
    func childValue(_ index: Int, _ value: Output) -> Subscribers.Demand {
      guard machine.withLock({ $0.childValue(index) }) else { return .none }
      let additional = delivery.withLock { () -> Subscribers.Demand in
        guard delivery.gate.load(ordering: .acquiring) == 0 else { return .none }
        return downstream.receive(value)
      }
      guard additional > 0 else { return .none }
      machine.withLock { $0.delivered(additional) }
      return additional
    }

    @inlinable
    func childCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
      let (action, released) = machine.withLock { $0.childCompleted(index, completion) }
      _ = released
      perform(action)
    }

    @inlinable
    func perform(_ action: Machine.CompletionAction) {
      let completion: Subscribers.Completion<Failure>
      switch action {
      case .none:
        return
      case .complete(let sent, let cancelling):
        cancelling?.cancel()
        completion = sent
      case .fail(let sent, let cancelling):
        _ = delivery.gate.loadThenBitwiseOr(with: Self.valuesSilenced, ordering: .releasing)
        cancelling?.cancel()
        completion = sent
      }
      delivery.withLock {
        guard delivery.gate.load(ordering: .acquiring) & Self.cancelled == 0 else { return }
        downstream.receive(completion: completion)
      }
    }
  }

  @usableFromInline
  struct Child<Downstream: Subscriber>: Subscriber, CombineDescribable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    typealias Input = Output

    @usableFromInline
    let index: Int
    @usableFromInline
    let parent: Inner<Downstream>
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    var description: String { "SwitchToLatest" }

    @inlinable
    var customMirror: Mirror { Mirror(self, children: ["parentSubscription": parent.combineIdentifier]) }

    @inlinable
    func receive(subscription: any Subscription) {
      parent.childSubscribed(index, subscription)
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
      parent.childValue(index, input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.childCompleted(index, completion)
    }

    @inlinable
    init(index: Int, parent: Inner<Downstream>) {
      self.index = index
      self.parent = parent
    }
  }
}
