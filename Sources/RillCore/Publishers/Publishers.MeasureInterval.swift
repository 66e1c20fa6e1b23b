extension Publisher {
  /// Measures and emits the time interval between events received from an upstream publisher.
  ///
  /// ```
  /// upstream:                        -a--b---c|
  /// measureInterval(using: clock):   -1--3---4|
  /// ```
  ///
  /// The first interval is measured from the subscription. Demand goes straight upstream, and so does the demand
  /// the subscriber returns for an interval.
  ///
  /// - Parameters:
  ///   - scheduler: A scheduler to use for tracking the timing of events.
  ///   - options: Options that customize the delivery of elements.
  /// - Returns: A publisher that emits elements representing the time interval between the elements it
  ///   receives.
  @inlinable
  public func measureInterval<S: Scheduler>(
    using scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.MeasureInterval<Self, S> {
    Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
  }
}

extension Publishers {
  /// A publisher that measures and emits the time interval between events received from an upstream
  /// publisher.
  public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Context.SchedulerTimeType.Stride
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The scheduler used for tracking the timing of events.
    public let scheduler: Context

    /// Creates a publisher that measures and emits the time interval between events received from an
    /// upstream publisher.
    public init(upstream: Upstream, scheduler: Context) {
      self.upstream = upstream
      self.scheduler = scheduler
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == Context.SchedulerTimeType.Stride {
      upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
    }
  }
}

extension Publishers.MeasureInterval {
  // SAFETY: all mutable state is in `state`; downstream, upstream and the scheduler are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Context.SchedulerTimeType.Stride, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline
    struct State {
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      @usableFromInline var last: Context.SchedulerTimeType?

      @inlinable
      init(link: SubscriptionState = SubscriptionState.awaitingSubscription, last: Context.SchedulerTimeType? = nil) {
        self.link = link
        self.last = last
      }
    }

    @usableFromInline let downstream: Downstream
    @usableFromInline let scheduler: Context
    @usableFromInline let state = Locked(State())

    @inlinable
    init(downstream: Downstream, scheduler: Context) {
      self.downstream = downstream
      self.scheduler = scheduler
    }

    @usableFromInline var description: String { "MeasureInterval" }

    @inlinable
    func receive(subscription: any Subscription) {
      let now = scheduler.now
      let accepted = state.withLock { state -> Bool in
        guard state.link.subscribe(subscription) else { return false }
        state.last = now
        return true
      }
      guard accepted else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      // A subscription that has ended reads no clock, as in Combine.
      guard state.withLock({ $0.link.isSubscribed }) else { return .none }
      let now = scheduler.now
      let interval = state.withLock { state -> Context.SchedulerTimeType.Stride? in
        guard state.link.isSubscribed, let last = state.last else { return nil }
        state.last = now
        return last.distance(to: now)
      }
      guard let interval else { return .none }
      // As in Combine, the demand the downstream returns is requested upstream, not returned.
      let demand = downstream.receive(interval)
      if demand > 0 {
        state.withLock { $0.link.upstream }?.request(demand)
      }
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      guard state.withLock({ $0.link.terminate() }) != nil else { return }
      downstream.receive(completion: completion)
    }

    /// Passes the request upstream; a request for `.none` goes as it is, as in Combine.
    @inlinable
    func request(_ demand: Subscribers.Demand) {
      state.withLock { $0.link.upstream }?.request(demand)
    }

    /// As in Combine, a cancel before the upstream's subscription arrives does nothing: the subscription is then
    /// taken as usual.
    @inlinable
    func cancel() {
      state.withLock { $0.link.isAwaitingSubscription ? nil : $0.link.terminate() }?.cancel()
    }
  }
}
