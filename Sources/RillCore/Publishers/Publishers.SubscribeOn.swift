extension Publisher {
  /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
  ///
  /// ```
  /// upstream:                 -1-2-|
  /// subscribe(on: scheduler): -1-2-|
  /// ```
  ///
  /// The subscription to the upstream, every request and the cancel are each scheduled with
  /// `schedule(options:_:)`; values and the completion pass through on whatever thread the upstream uses.
  ///
  /// - Parameters:
  ///   - scheduler: The scheduler used to send messages to upstream publishers.
  ///   - options: Options that customize the delivery of elements.
  /// - Returns: A publisher which performs upstream operations on the specified scheduler.
  @inlinable
  public func subscribe<S: Scheduler>(
    on scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.SubscribeOn<Self, S> {
    Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that receives elements from an upstream publisher on a specific scheduler.
  public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The scheduler the publisher should use to receive elements.
    public let scheduler: Context

    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that receives elements from an upstream publisher on a specific scheduler.
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let inner = Inner(downstream: subscriber, scheduler: scheduler, options: options)
      let upstream = self.upstream
      scheduler.schedule(options: options) {
        upstream.subscribe(inner)
      }
    }
  }
}

extension Publishers.SubscribeOn {
  // SAFETY: all mutable state is in `state`; downstream, upstream and the scheduler are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?
    @usableFromInline let state = Locked(SubscriptionState.awaitingSubscription)

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions? = nil) {
      self.downstream = downstream
      self.scheduler = scheduler
      self.options = options
    }

    @usableFromInline var description: String { "SubscribeOn" }

    @inlinable
    func receive(subscription: any Subscription) {
      guard state.withLock({ $0.subscribe(subscription) }) else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      guard state.withLock({ $0.upstream }) != nil else { return .none }
      return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      guard state.withLock({ $0.terminate() }) != nil else { return }
      downstream.receive(completion: completion)
    }

    /// Hands the request to the scheduler; a request for `.none` goes upstream as it is, as in Combine.
    @inlinable
    func request(_ demand: Subscribers.Demand) {
      guard let upstream = state.withLock({ $0.upstream }) else { return }
      scheduler.schedule(options: options) {
        upstream.request(demand)
      }
    }

    /// Hands the cancel to the scheduler.
    ///
    /// As in Combine, a cancel before the upstream's subscription arrives does nothing: the subscription is then
    /// taken as usual.
    @inlinable
    func cancel() {
      guard let upstream = state.withLock({ $0.isAwaitingSubscription ? nil : $0.terminate() }) else { return }
      scheduler.schedule(options: options) {
        upstream.cancel()
      }
    }
  }
}
