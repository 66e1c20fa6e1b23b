extension Publisher {
  /// Publishes either the most-recent or first element published by the upstream publisher in the specified
  /// time interval.
  ///
  /// ```
  /// upstream:                                            -abc---de-|
  /// throttle(for: 3, scheduler: scheduler, latest: true): -a--c--d--[e|]
  /// ```
  ///
  /// A value arriving when no emission is pending is published at once if `interval` has passed since the last
  /// emission, otherwise when it has; values arriving while an emission is pending replace it when `latest`
  /// is `true` and are dropped otherwise. Values arriving without downstream demand are dropped. The upstream
  /// is asked for unlimited values; a completion is delivered after a pending emission.
  ///
  /// - Parameters:
  ///   - interval: The interval at which to find and emit either the most recent or the first element.
  ///   - scheduler: The scheduler on which to publish elements.
  ///   - latest: A Boolean value that indicates whether to publish the most recent element. If `false`, the
  ///     publisher emits the first element received during the interval.
  /// - Returns: A publisher that emits either the most-recent or first element received during the specified
  ///   interval.
  public func throttle<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride,
    scheduler: S,
    latest: Bool
  ) -> Publishers.Throttle<Self, S> {
    Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
  }
}

extension Publishers {
  /// A publisher that publishes either the most-recent or first element published by the upstream publisher
  /// in a specified time interval.
  public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The interval in which to find and emit the most recent element.
    public let interval: Context.SchedulerTimeType.Stride

    /// The scheduler on which to publish elements.
    public let scheduler: Context

    /// A Boolean value indicating whether to publish the most recent element.
    public let latest: Bool

    /// Creates a publisher that publishes either the most-recent or first element published by the upstream
    /// publisher in a specified time interval.
    public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.latest = latest
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      upstream.subscribe(Inner(downstream: subscriber, publisher: self))
    }
  }
}

extension Publishers.Throttle {
  // SAFETY: all mutable state is in `state`; downstream, upstream and the scheduler are called outside the lock.
  // At most one emission is scheduled at a time, but on a concurrent scheduler the next one can run while the
  // previous one is still delivering: emissions go through the machine's outbox, so the downstream is never called
  // concurrently and sees them in order.
  //
  // Scheduled emissions hold the subscription weakly, as Combine's do: a pending emission does not keep a
  // cancelled or abandoned pipeline alive. The downstream is released once the subscription ends.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    typealias Machine = ThrottleStateMachine<Input, Failure, Context.SchedulerTimeType, Downstream>

    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let state: Locked<Machine>

    @inlinable
    init(downstream: Downstream, publisher: Publishers.Throttle<Upstream, Context>) {
      self.scheduler = publisher.scheduler
      self.state = Locked(Machine(downstream: downstream, interval: publisher.interval, latest: publisher.latest))
      // Combine reads the clock when the subscription is created and when it is subscribed; a scheduler that
      // records its calls sees the same ones.
      _ = publisher.scheduler.now
    }

    @inlinable
    var description: String { "Throttle" }

    @inlinable
    func receive(subscription: any Subscription) {
      guard let downstream = state.withLock({ $0.upstreamSubscribed(subscription) }) else {
        subscription.cancel()
        return
      }
      _ = scheduler.now
      downstream.receive(subscription: self)
      subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      guard state.withLock({ $0.acceptsEvents }) else { return .none }
      let now = scheduler.now
      let (action, replaced) = state.withLock { $0.upstreamValue(input, at: now) }
      switch action {
      case .none:
        _ = replaced
      case .emitNow:
        scheduler.schedule { [weak self] in self?.emit() }
      case .emit(let time):
        scheduler.schedule(after: time) { [weak self] in self?.emit() }
      }
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      guard state.withLock({ $0.acceptsEvents }) else { return }
      _ = scheduler.now
      if state.withLock({ $0.upstreamCompleted(completion) }) {
        scheduler.schedule { [weak self] in self?.emit() }
      }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      state.withLock { $0.request(demand) }
    }

    @inlinable
    func cancel() {
      let (upstream, downstream, released) = state.withLock { $0.cancel() }
      upstream?.cancel()
      // Released after unlocking: the subscriber's or a value's deinit may call back into this subscription.
      _ = (downstream, released)
    }

    /// One scheduled emission: the pending value, then the pending completion.
    @inlinable
    func emit() {
      // The time of a value's emission starts the next interval; Combine reads it only for a value that no
      // completion follows.
      guard let readsClock = state.withLock({ $0.emissionReadsClock() }) else { return }
      let now = readsClock ? scheduler.now : nil
      let (delivery, released) = state.withLock { $0.emit(at: now) }
      _ = released
      guard let (downstream, first) = delivery else { return }
      state.drain(first, to: downstream) { demand in state.withLock { $0.request(demand) } }
    }
  }
}
