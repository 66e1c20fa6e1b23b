extension Publisher {
  /// Applies a closure to create a subject that delivers elements to subscribers.
  ///
  /// ```
  /// upstream:                                -1-2-3-|
  /// multicast { PassthroughSubject() }, connected: -1-2-3-|
  /// ```
  ///
  /// The subject is created when the first subscriber arrives or on `connect()`, whichever comes first, and is
  /// shared by all subscribers. Upstream is subscribed to only when `connect()` is called.
  ///
  /// - Parameter createSubject: A closure that creates the shared ``Subject`` when it is first needed.
  /// - Returns: A connectable publisher that uses the subject to deliver elements to its subscribers.
  public func multicast<S: Subject>(
    _ createSubject: @escaping () -> S
  ) -> Publishers.Multicast<Self, S> where Failure == S.Failure, Output == S.Output {
    Publishers.Multicast(upstream: self, createSubject: createSubject)
  }

  /// Provides a subject to deliver elements to multiple subscribers.
  ///
  /// ```
  /// upstream:                        -1-2-3-|
  /// multicast(subject:), connected:  -1-2-3-|
  /// ```
  ///
  /// - Parameter subject: A subject to deliver elements to downstream subscribers.
  /// - Returns: A connectable publisher that uses `subject` to deliver elements to its subscribers.
  public func multicast<S: Subject>(
    subject: S
  ) -> Publishers.Multicast<Self, S> where Failure == S.Failure, Output == S.Output {
    Publishers.Multicast(upstream: self) { subject }
  }
}

extension Publishers {
  /// A publisher that uses a subject to deliver elements to multiple subscribers.
  ///
  /// Use a multicast publisher when you have multiple downstream subscribers, but you want upstream publishers to
  /// only process one `receive(_:)` call per event.
  public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
  where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// A closure that creates the shared ``Subject`` when it is first needed.
    public let createSubject: () -> SubjectType

    @usableFromInline let subject = Locked<SubjectType?>(nil)

    /// Creates a multicast publisher that applies a closure to create a subject that delivers elements to
    /// subscribers.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - createSubject: A closure that creates the ``Subject`` the first time a subscriber attaches or the
    ///     publisher connects; every subscriber shares that subject. If two threads get there at once, it may be
    ///     called twice, and one of the two subjects is dropped unused.
    public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
      self.upstream = upstream
      self.createSubject = createSubject
    }

    /// The shared subject, created on first use.
    @usableFromInline var sharedSubject: SubjectType {
      if let existing = subject.withLock({ $0 }) { return existing }
      let created = createSubject()
      return subject.withLock { subject in
        if let existing = subject { return existing }
        subject = created
        return created
      }
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where SubjectType.Failure == S.Failure, SubjectType.Output == S.Input {
      sharedSubject.subscribe(Inner(downstream: subscriber))
    }

    /// Connects the subject to the upstream publisher.
    @inlinable
    public func connect() -> any Cancellable {
      upstream.subscribe(sharedSubject)
    }
  }
}

extension Publishers.Multicast {
  /// The subscriber a multicast puts between its subject and each downstream subscriber, and the subscription that
  /// subscriber sees.
  ///
  /// It passes the subject's subscription on once and cancels any other; the demand the downstream returns for a
  /// value goes to the subject as a request.
  // SAFETY: all mutable state is in `state`; downstream and upstream are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Output

    @usableFromInline
    struct State {
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      @usableFromInline var downstream: Downstream?

      @inlinable
      init(downstream: Downstream) {
        self.downstream = downstream
      }
    }

    @usableFromInline let state: Locked<State>

    @inlinable
    init(downstream: Downstream) {
      state = Locked(State(downstream: downstream))
    }

    @usableFromInline var description: String { "Multicast" }

    @inlinable
    func receive(subscription: any Subscription) {
      let downstream = state.withLock { state -> Downstream? in
        guard state.downstream != nil, state.link.subscribe(subscription) else { return nil }
        return state.downstream
      }
      guard let downstream else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
      guard let downstream = state.withLock({ $0.link.isSubscribed ? $0.downstream : nil }) else { return .none }
      let demand = downstream.receive(input)
      if demand > 0 {
        state.withLock { $0.link.upstream }?.request(demand)
      }
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      // The subject's subscription, which has completed, is released after unlocking.
      let (upstream, downstream) = state.withLock { state -> ((any Subscription)?, Downstream?) in
        guard state.link.isSubscribed else { return (nil, nil) }
        return (state.link.terminate(), state.downstream.take())
      }
      _ = upstream
      downstream?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      state.withLock { $0.link.upstream }?.request(demand)
    }

    @inlinable
    func cancel() {
      let (upstream, downstream) = state.withLock { state in
        (state.link.terminate(), state.downstream.take())
      }
      upstream?.cancel()
      _ = downstream
    }
  }
}
