extension Publisher {
  /// Delays delivery of all output to the downstream receiver by a specified amount of time on a particular
  /// scheduler.
  ///
  /// ```
  /// upstream:                              -1-2-|
  /// delay(for: 2, scheduler: scheduler):   ---1-2-|
  /// ```
  ///
  /// Each value and the completion are scheduled for `interval` after they arrive; failures are delayed
  /// too. The subscription reaches the downstream at once, and demand goes straight upstream.
  ///
  /// - Parameters:
  ///   - interval: The amount of time to delay.
  ///   - tolerance: The allowed tolerance in firing delayed events; the scheduler's minimum tolerance when
  ///     `nil`.
  ///   - scheduler: The scheduler to deliver the delayed events.
  ///   - options: Options relevant to the scheduler's behavior.
  /// - Returns: A publisher that delays delivery of elements and completion to the downstream receiver.
  public func delay<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride,
    tolerance: S.SchedulerTimeType.Stride? = nil,
    scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.Delay<Self, S> {
    Publishers.Delay(
      upstream: self,
      interval: interval,
      tolerance: tolerance ?? scheduler.minimumTolerance,
      scheduler: scheduler,
      options: options
    )
  }
}

extension Publishers {
  /// A publisher that delays delivery of elements and completion to the downstream receiver.
  public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// The amount of time to delay.
    public let interval: Context.SchedulerTimeType.Stride

    /// The allowed tolerance in firing delayed events.
    public let tolerance: Context.SchedulerTimeType.Stride

    /// The scheduler to deliver the delayed events.
    public let scheduler: Context

    /// Options relevant to the scheduler's behavior.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that delays delivery of elements and completion to the downstream receiver.
    public init(
      upstream: Upstream,
      interval: Context.SchedulerTimeType.Stride,
      tolerance: Context.SchedulerTimeType.Stride,
      scheduler: Context,
      options: Context.SchedulerOptions? = nil
    ) {
      self.upstream = upstream
      self.interval = interval
      self.tolerance = tolerance
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let scheduler = self.scheduler
      let interval = self.interval
      let tolerance = self.tolerance
      let options = self.options
      upstream.subscribe(
        ScheduledDeliveryInner(downstream: subscriber, kind: DelayDelivery.self) { action in
          scheduler.schedule(
            after: scheduler.now.advanced(by: interval),
            tolerance: tolerance,
            options: options,
            action
          )
        }
      )
    }
  }
}
