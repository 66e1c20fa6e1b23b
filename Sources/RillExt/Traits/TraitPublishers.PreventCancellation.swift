extension MaybePublisher {
  /// Lets this publisher run to completion even when its subscriber cancels.
  ///
  /// ```
  /// upstream:               --1--|
  /// preventCancellation():  --[1|]
  /// cancelled at tick 1:    -        (upstream still runs to --1--|)
  /// ```
  ///
  /// Use it when the work a publisher starts must be fully done once started, such as saving or signing out,
  /// whatever happens to the screen that asked for it:
  ///
  /// ```swift
  /// func signOutPublisher() -> AnySinglePublisher<Void, Never> {
  ///   Publishers.Zip(invalidateSessionPublisher(), eraseLocalDataPublisher())
  ///     .map { _ in }
  ///     .preventCancellation()
  ///     .eraseToAnySinglePublisher()
  /// }
  /// ```
  ///
  /// See ``TraitPublishers/PreventCancellation`` for when upstream is subscribed and what a cancel does.
  ///
  /// - Returns: A publisher with the same value and completion, single when this publisher is single.
  @inlinable
  public func preventCancellation() -> TraitPublishers.PreventCancellation<Self> {
    TraitPublishers.PreventCancellation(upstream: self)
  }
}

extension MaybePublisher where Output == Never {
  /// Subscribes to this publisher and lets it run to completion, ignoring its failure.
  ///
  /// ```
  /// upstream:                        -----^
  /// fireAndForgetIgnoringFailure():  (runs to the end; nothing is reported)
  /// ```
  ///
  /// Use `ignoreOutput()` first to get a publisher of `Never`.
  @inlinable
  public func fireAndForgetIgnoringFailure() {
    _ = preventCancellation().sink(receiveCompletion: { _ in }, receiveValue: { _ in })
  }
}

extension MaybePublisher where Output == Never, Failure == Never {
  /// Subscribes to this publisher and lets it run to completion.
  ///
  /// ```
  /// upstream:         -----|
  /// fireAndForget():  (runs to the end; nothing is reported)
  /// ```
  ///
  /// Use `ignoreOutput()` first to get a publisher of `Never`, and
  /// ``MaybePublisher/fireAndForgetIgnoringFailure()`` for one that can fail.
  @inlinable
  public func fireAndForget() {
    _ = preventCancellation().sink(receiveValue: { _ in })
  }
}

extension TraitPublishers {
  /// A maybe publisher that lets its upstream run to completion even when its subscriber cancels.
  ///
  /// ```
  /// upstream:                --1--|
  /// PreventCancellation:     --[1|]
  /// ```
  ///
  /// At the subscriber's first demand it subscribes to upstream with unlimited demand. It publishes upstream's value
  /// and finishes as soon as the value arrives, or forwards upstream's completion. When the subscriber cancels,
  /// upstream is not cancelled: it keeps running, and what it publishes next is ignored. The subscription to upstream
  /// keeps itself alive until upstream completes, then lets go of everything.
  ///
  /// It is a single publisher when upstream is one.
  public struct PreventCancellation<Upstream: MaybePublisher>: MaybePublisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher that runs to completion.
    public let upstream: Upstream

    /// Creates a publisher that lets `upstream` run to completion even when its subscriber cancels.
    ///
    /// - Parameter upstream: The publisher that runs to completion.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S>(subscriber: S) where S: Subscriber, S.Input == Output, S.Failure == Failure {
      let upstream = upstream
      TraitPublishers.Maybe<Output, Failure> { promise in
        Self.run(upstream, reportingTo: promise)
        return AnyCancellable {}
      }
      .receive(subscriber: subscriber)
    }

    /// Subscribes to `upstream` and keeps the subscription alive until upstream completes.
    @inlinable
    static func run(
      _ upstream: Upstream,
      reportingTo promise: @escaping TraitPublishers.Maybe<Output, Failure>.Promise
    ) {
      let keeper = Locked(Keeper.subscribing)
      let cancellable = upstream.sink(
        receiveCompletion: { completion in
          switch completion {
          // After a value, the promise has been kept already and ignores this.
          case .finished: promise(.finished)
          case .failure(let error): promise(.failure(error))
          }
          let kept = keeper.withLock { keeper -> AnyCancellable? in
            defer { keeper = .completed }
            if case .running(let cancellable) = keeper { return cancellable }
            return nil
          }
          // Let go of the subscription outside the lock.
          _ = kept
        },
        receiveValue: { value in promise(.success(value)) }
      )
      keeper.withLock { keeper in
        if case .subscribing = keeper { keeper = .running(cancellable) }
      }
    }
  }
}

extension TraitPublishers.PreventCancellation: SinglePublisher where Upstream: SinglePublisher {}

extension TraitPublishers.PreventCancellation: Sendable where Upstream: Sendable {}

/// What keeps a ``TraitPublishers/PreventCancellation`` subscription to upstream alive.
@usableFromInline
enum Keeper {
  case subscribing
  case running(AnyCancellable)
  case completed
}
