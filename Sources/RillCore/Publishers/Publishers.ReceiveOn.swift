extension Publisher {
  /// Specifies the scheduler on which to receive elements from the publisher.
  ///
  /// ```
  /// upstream:               -1-2-|
  /// receive(on: scheduler): -1-2-|
  /// ```
  ///
  /// Each value and the completion are scheduled, one action each, with `schedule(options:_:)`; the
  /// subscription itself reaches the downstream on the upstream's thread. Demand goes straight upstream.
  ///
  /// - Parameters:
  ///   - scheduler: The scheduler the publisher uses for element delivery.
  ///   - options: Scheduler options used to customize element delivery.
  /// - Returns: A publisher that delivers elements using the specified scheduler.
  @inlinable
  public func receive<S: Scheduler>(
    on scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.ReceiveOn<Self, S> {
    Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
  public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The scheduler the publisher is to use for element delivery.
    public let scheduler: Context

    /// Scheduler options used to customize element delivery.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that delivers elements to its downstream subscriber on a specific scheduler.
    @inlinable
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let scheduler = self.scheduler
      let options = self.options
      upstream.subscribe(
        ScheduledDeliveryInner(
          downstream: subscriber,
          kind: ReceiveOnDelivery.self,
          schedule: { action in scheduler.schedule(options: options, action) },
          prepare: scheduler.repeatedActionPreparer(options: options)
        )
      )
    }
  }
}
