extension Publisher {
  /// Combines each value of this publisher with the latest value of another publisher, through a closure.
  ///
  /// ```
  /// upstream (hot):                           -1---2---3-|
  /// other (hot):                              ---a---b-----|
  /// withLatestFrom(other) { "\($0)\($1)" }:  -----'2a'---'3b'-|
  /// ```
  ///
  /// The other publisher is subscribed first, with unlimited demand. This publisher is subscribed only once the other
  /// one has sent a value, so nothing this publisher would send before then is seen; downstream's demand waits until
  /// then and goes to this publisher from then on. Each value of this publisher gives one output, with the latest
  /// value of the other publisher.
  ///
  /// The stream ends when this publisher completes, which also cancels the other subscription. The completion and the
  /// failure of the other publisher are ignored: its last value stays in use, and if it completes without a value,
  /// this publisher is never subscribed and the stream never ends. The subscription keeps both publishers alive until
  /// it ends, so a publisher that finishes when it is freed (such as a relay) does not end the stream while the
  /// subscription lasts.
  ///
  /// - Parameters:
  ///   - other: The publisher whose latest value accompanies each value of this one.
  ///   - resultSelector: A closure that combines a value of this publisher with the latest value of `other`.
  /// - Returns: A publisher of the combined values.
  @inlinable
  public func withLatestFrom<Other: Publisher, Result>(
    _ other: Other,
    resultSelector: @escaping (Output, Other.Output) -> Result
  ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
    Publishers.WithLatestFrom(upstream: self, second: other, resultSelector: resultSelector)
  }

  /// Combines each value of this publisher with the latest values of two other publishers, through a closure.
  ///
  /// ```
  /// upstream (hot):  -1-----2---3-|
  /// other (hot):     ---a-----b-----|
  /// other1 (hot):    -----x---------|
  /// withLatestFrom(other, other1) { "\($0)\($1.0)\($1.1)" }:  -------'2ax'---'3bx'-|
  /// ```
  ///
  /// The other publishers are combined with `combineLatest`, which has a value once each of them has sent one; see
  /// ``RillCore/Publisher/withLatestFrom(_:resultSelector:)`` for the rest.
  ///
  /// - Parameters:
  ///   - other: The first publisher whose latest value accompanies each value of this one.
  ///   - other1: The second publisher whose latest value accompanies each value of this one.
  ///   - resultSelector: A closure that combines a value of this publisher with the latest values of the others.
  /// - Returns: A publisher of the combined values.
  @inlinable
  public func withLatestFrom<Other: Publisher, Other1: Publisher, Result>(
    _ other: Other,
    _ other1: Other1,
    resultSelector: @escaping (Output, (Other.Output, Other1.Output)) -> Result
  ) -> Publishers.WithLatestFrom<Self, AnyPublisher<(Other.Output, Other1.Output), Self.Failure>, Result>
  where Other.Failure == Failure, Other1.Failure == Failure {
    let others = other.combineLatest(other1).eraseToAnyPublisher()
    return Publishers.WithLatestFrom(upstream: self, second: others, resultSelector: resultSelector)
  }

  /// Combines each value of this publisher with the latest values of three other publishers, through a closure.
  ///
  /// ```
  /// upstream (hot):  -1-----2---3-|
  /// other (hot):     ---a-----b-----|
  /// other1 (hot):    -----x---------|
  /// other2 (hot):    ----p----------|
  /// withLatestFrom(other, other1, other2) { "\($0)\($1.0)\($1.1)\($1.2)" }:  -------'2axp'---'3bxp'-|
  /// ```
  ///
  /// The other publishers are combined with `combineLatest`, which has a value once each of them has sent one; see
  /// ``RillCore/Publisher/withLatestFrom(_:resultSelector:)`` for the rest.
  ///
  /// - Parameters:
  ///   - other: The first publisher whose latest value accompanies each value of this one.
  ///   - other1: The second publisher whose latest value accompanies each value of this one.
  ///   - other2: The third publisher whose latest value accompanies each value of this one.
  ///   - resultSelector: A closure that combines a value of this publisher with the latest values of the others.
  /// - Returns: A publisher of the combined values.
  @inlinable
  public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher, Result>(
    _ other: Other,
    _ other1: Other1,
    _ other2: Other2,
    resultSelector: @escaping (Output, (Other.Output, Other1.Output, Other2.Output)) -> Result
  )
    -> Publishers.WithLatestFrom<
      Self, AnyPublisher<(Other.Output, Other1.Output, Other2.Output), Self.Failure>, Result
    > where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure
  {
    let others = other.combineLatest(other1, other2).eraseToAnyPublisher()
    return Publishers.WithLatestFrom(upstream: self, second: others, resultSelector: resultSelector)
  }

  /// Republishes the latest value of another publisher each time this publisher sends a value.
  ///
  /// ```
  /// upstream (hot):         -1---2---3-|
  /// other (hot):            ---a---b-----|
  /// withLatestFrom(other):  -----a---b-|
  /// ```
  ///
  /// See ``RillCore/Publisher/withLatestFrom(_:resultSelector:)`` for when each publisher is subscribed, demand and
  /// completion.
  ///
  /// - Parameter other: The publisher whose latest value to republish.
  /// - Returns: A publisher of the latest values of `other`, one for each value of this publisher.
  @inlinable
  public func withLatestFrom<Other: Publisher>(
    _ other: Other
  ) -> Publishers.WithLatestFrom<Self, Other, Other.Output> where Other.Failure == Failure {
    withLatestFrom(other) { $1 }
  }

  /// Republishes the latest values of two other publishers each time this publisher sends a value.
  ///
  /// ```
  /// upstream (hot):                                         -1-----2---3-|
  /// other (hot):                                            ---a-----b-----|
  /// other1 (hot):                                           -----x---------|
  /// withLatestFrom(other, other1).map { "\($0)\($1)" }:  -------'ax'---'bx'-|
  /// ```
  ///
  /// - Parameters:
  ///   - other: The first publisher whose latest value to republish.
  ///   - other1: The second publisher whose latest value to republish.
  /// - Returns: A publisher of the latest values of the others, one pair for each value of this publisher.
  @inlinable
  public func withLatestFrom<Other: Publisher, Other1: Publisher>(
    _ other: Other,
    _ other1: Other1
  )
    -> Publishers.WithLatestFrom<
      Self, AnyPublisher<(Other.Output, Other1.Output), Self.Failure>, (Other.Output, Other1.Output)
    > where Other.Failure == Failure, Other1.Failure == Failure
  {
    withLatestFrom(other, other1) { $1 }
  }

  /// Republishes the latest values of three other publishers each time this publisher sends a value.
  ///
  /// ```
  /// upstream (hot):                                                       -1-----2---3-|
  /// other (hot):                                                          ---a-----b-----|
  /// other1 (hot):                                                         -----x---------|
  /// other2 (hot):                                                         ----p----------|
  /// withLatestFrom(other, other1, other2).map { "\($0)\($1)\($2)" }:  -------'axp'---'bxp'-|
  /// ```
  ///
  /// - Parameters:
  ///   - other: The first publisher whose latest value to republish.
  ///   - other1: The second publisher whose latest value to republish.
  ///   - other2: The third publisher whose latest value to republish.
  /// - Returns: A publisher of the latest values of the others, one triple for each value of this publisher.
  @inlinable
  public func withLatestFrom<Other: Publisher, Other1: Publisher, Other2: Publisher>(
    _ other: Other,
    _ other1: Other1,
    _ other2: Other2
  )
    -> Publishers.WithLatestFrom<
      Self,
      AnyPublisher<(Other.Output, Other1.Output, Other2.Output), Self.Failure>,
      (Other.Output, Other1.Output, Other2.Output)
    > where Other.Failure == Failure, Other1.Failure == Failure, Other2.Failure == Failure
  {
    withLatestFrom(other, other1, other2) { $1 }
  }
}

extension Publishers {
  /// A publisher that combines each value of its upstream with the latest value of a second publisher.
  ///
  /// Create one with `withLatestFrom(_:)` or `withLatestFrom(_:resultSelector:)`.
  public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
  where Upstream.Failure == Other.Failure {
    public typealias Failure = Upstream.Failure

    /// The closure that combines a value of upstream with the latest value of the second publisher.
    public typealias ResultSelector = (Upstream.Output, Other.Output) -> Output

    @usableFromInline let upstream: Upstream

    @usableFromInline let second: Other

    @usableFromInline let resultSelector: ResultSelector

    @inlinable
    init(upstream: Upstream, second: Other, resultSelector: @escaping ResultSelector) {
      self.upstream = upstream
      self.second = second
      self.resultSelector = resultSelector
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let inner = Inner(downstream: subscriber, sources: (upstream, second), resultSelector: resultSelector)
      subscriber.receive(subscription: inner)
      inner.subscribeOther(second)
    }
  }
}

extension Publishers.WithLatestFrom {
  // SAFETY: all mutable state is in `machine`; upstream, the other publisher, downstream and the result selector are
  // called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output

    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let downstream: Downstream

    @usableFromInline let resultSelector: ResultSelector

    @usableFromInline let machine: Locked<WithLatestFromStateMachine<(Upstream, Other), Other.Output>>

    @inlinable
    init(downstream: Downstream, sources: (Upstream, Other), resultSelector: @escaping ResultSelector) {
      self.downstream = downstream
      self.resultSelector = resultSelector
      machine = Locked(WithLatestFromStateMachine(sources: sources))
    }

    @usableFromInline var description: String {
      "WithLatestFrom.Subscription<\(Output.self), \(Upstream.Failure.self)>"
    }

    /// Subscribes to the other publisher, unless downstream already cancelled.
    @inlinable
    func subscribeOther(_ other: Other) {
      guard !machine.withLock({ $0.isTerminal }) else { return }
      other.subscribe(OtherSubscriber(inner: self))
    }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
      switch machine.withLock({ $0.upstreamSubscribed(subscription) }) {
      case .request(let upstream, let demand):
        if demand > 0 { upstream.request(demand) }
      case .cancel(let extra):
        extra.cancel()
      }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      guard let latest = machine.withLock({ $0.upstreamValue() }) else { return .none }
      return downstream.receive(resultSelector(input, latest))
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      let (ending, retained) = machine.withLock { ($0.upstreamCompleted(), $0.takeRetained()) }
      guard let (cancelling, _) = ending else { return }
      // The publishers, the latest value and upstream's subscription are let go of here, outside the lock.
      withExtendedLifetime(retained) {}
      for subscription in cancelling { subscription.cancel() }
      downstream.receive(completion: completion)
    }

    // MARK: The other publisher

    @inlinable
    func otherSubscribed(_ subscription: any Subscription) {
      if machine.withLock({ $0.otherSubscribed(subscription) }) {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    @inlinable
    func otherValue(_ value: Other.Output) {
      // The value it replaces is released after unlocking.
      let (subscribing, replaced) = machine.withLock { $0.otherValue(value) }
      _ = replaced
      guard let (upstream, _) = subscribing else { return }
      upstream.subscribe(self)
    }

    @inlinable
    func otherCompleted() {
      // The other publisher's subscription, which has completed, is released after unlocking.
      let released = machine.withLock { $0.otherCompleted() }
      _ = released
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      // As in CombineExt, a request of `.none` does nothing.
      guard demand > 0 else { return }
      machine.withLock { $0.request(demand) }?.request(demand)
    }

    @inlinable
    func cancel() {
      let (cancelling, retained) = machine.withLock { ($0.cancel(), $0.takeRetained()) }
      // The publishers and the latest value are let go of here, outside the lock.
      withExtendedLifetime(retained) {}
      for subscription in cancelling { subscription.cancel() }
    }
  }

  /// The subscriber to the second publisher, which hands its events to `Inner`.
  // SAFETY: immutable; `Inner` keeps the state.
  @usableFromInline
  final class OtherSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Other.Output

    @usableFromInline typealias Failure = Other.Failure

    @usableFromInline let inner: Inner<Downstream>

    @inlinable
    init(inner: Inner<Downstream>) {
      self.inner = inner
    }

    @usableFromInline var description: String { "WithLatestFrom.Other" }

    @inlinable
    func receive(subscription: any Subscription) {
      inner.otherSubscribed(subscription)
    }

    @inlinable
    func receive(_ input: Other.Output) -> Subscribers.Demand {
      inner.otherValue(input)
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Other.Failure>) {
      inner.otherCompleted()
    }
  }
}
