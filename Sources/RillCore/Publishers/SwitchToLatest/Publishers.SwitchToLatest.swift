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
  /// - Returns: A publisher that emits elements only from the most recent publisher.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

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

    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
      let inner = Inner(downstream: subscriber)
      subscriber.receive(subscription: inner)
      upstream.subscribe(inner)
    }
  }
}

extension Publishers.SwitchToLatest {
  // SAFETY: all mutable state is in `machine`; downstream, upstream and children are called outside the lock.
  private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    typealias Input = Upstream.Output
    typealias Machine = SwitchToLatestStateMachine<Output, Failure>

    private let downstream: Downstream
    private let machine = Locked(Machine())

    init(downstream: Downstream) {
      self.downstream = downstream
    }

    var description: String { "SwitchToLatest" }

    var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
      switch machine.withLock({ $0.upstreamSubscribed(subscription) }) {
      case .requestUnlimited(let upstream): upstream.request(.unlimited)
      case .cancel(let upstream): upstream.cancel()
      }
    }

    func receive(_ input: P) -> Subscribers.Demand {
      guard let (index, previous) = machine.withLock({ $0.upstreamValue() }) else { return .none }
      previous?.cancel()
      input.subscribe(Child(index: index, parent: self))
      return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      perform(machine.withLock { $0.upstreamCompleted(completion) })
    }

    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "SwitchToLatest: a subscriber requested \(demand); demand must be greater than zero")
      machine.withLock { $0.request(demand) }?.request(demand)
    }

    func cancel() {
      for subscription in machine.withLock({ $0.cancel() }) { subscription.cancel() }
    }

    fileprivate func childSubscribed(_ index: Int, _ subscription: any Subscription) {
      switch machine.withLock({ $0.childSubscribed(index, subscription) }) {
      case .request(let child, let demand): child.request(demand)
      case .cancel(let child): child.cancel()
      case .none: break
      }
    }

    /// As in Combine, the demand downstream returns for a value it was handed directly goes back to the child
    /// that sent it.
    fileprivate func childValue(_ index: Int, _ value: Output) -> Subscribers.Demand {
      guard case .value(let value) = machine.withLock({ $0.childValue(index, value) }) else { return .none }
      let additional = downstream.receive(value)
      drain(machine.withLock { $0.delivered(additional) })
      return additional
    }

    fileprivate func childCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
      perform(machine.withLock { $0.childCompleted(index, completion) })
    }

    private func perform(_ action: Machine.CompletionAction) {
      action.cancelling?.cancel()
      drain(action.deliver)
    }

    /// Delivers downstream, one event at a time, until the machine has no more; the demand downstream returns for
    /// a queued value goes to the current child.
    private func drain(_ first: Machine.Event?) {
      machine.drain(first, to: downstream) { demand in machine.withLock { $0.request(demand) }?.request(demand) }
    }
  }

  private struct Child<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  where Downstream.Input == Output, Downstream.Failure == Failure {
    typealias Input = Output

    let index: Int
    let parent: Inner<Downstream>
    let combineIdentifier = CombineIdentifier()

    var description: String { "SwitchToLatest" }

    var customMirror: Mirror { Mirror(self, children: ["parentSubscription": parent.combineIdentifier]) }

    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
      parent.childSubscribed(index, subscription)
    }

    func receive(_ input: Output) -> Subscribers.Demand {
      parent.childValue(index, input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      parent.childCompleted(index, completion)
    }
  }
}
