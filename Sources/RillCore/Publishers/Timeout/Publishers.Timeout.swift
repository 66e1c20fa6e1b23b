extension Publisher {
  /// Terminates publishing if the upstream publisher exceeds the specified time interval without producing an
  /// element.
  ///
  /// ```
  /// upstream:                           -1-----2-|
  /// timeout(3, scheduler: scheduler):   -1--|
  /// ```
  ///
  /// The clock starts at the subscription, restarts at the first request and after each value. When it runs
  /// out, the upstream is cancelled and the downstream receives `.finished`, or the failure `customError`
  /// returns. Values and the upstream's completion are delivered on the scheduler, as with `receive(on:)`.
  ///
  /// - Parameters:
  ///   - interval: The maximum time interval the publisher can go without emitting an element.
  ///   - scheduler: The scheduler on which to deliver events.
  ///   - options: Scheduler options that customize the delivery of elements.
  ///   - customError: A closure that executes if the publisher times out; the publisher sends the failure it
  ///     returns. When `nil`, the publisher finishes normally.
  /// - Returns: A publisher that terminates if the specified interval elapses with no events received from the
  ///   upstream publisher.
  public func timeout<S: Scheduler>(
    _ interval: S.SchedulerTimeType.Stride,
    scheduler: S,
    options: S.SchedulerOptions? = nil,
    customError: (() -> Failure)? = nil
  ) -> Publishers.Timeout<Self, S> {
    Publishers.Timeout(
      upstream: self,
      interval: interval,
      scheduler: scheduler,
      options: options,
      customError: customError
    )
  }
}

extension Publishers {
  /// A publisher that terminates if the upstream publisher goes too long without producing an element.
  public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum time interval the publisher can go without emitting an element.
    public let interval: Context.SchedulerTimeType.Stride

    /// The scheduler on which to deliver events.
    public let scheduler: Context

    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?

    /// A closure that returns the failure to send when the publisher times out.
    public let customError: (() -> Upstream.Failure)?

    /// Creates a publisher that terminates if the upstream publisher goes too long without producing an
    /// element.
    public init(
      upstream: Upstream,
      interval: Context.SchedulerTimeType.Stride,
      scheduler: Context,
      options: Context.SchedulerOptions?,
      customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.options = options
      self.customError = customError
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
      upstream.subscribe(Inner(downstream: subscriber, publisher: self))
    }
  }
}

extension Publishers.Timeout {
  // SAFETY: all mutable state is in `state`; downstream, upstream, the scheduler and `customError` are called
  // outside the lock.
  //
  // As in Combine, the running clock holds the subscription strongly (every way the subscription ends cancels
  // it), the link to the upstream lasts until the upstream's completion has been delivered, so that a cancel
  // meanwhile still reaches the upstream, and a cancel before the upstream's subscription arrives does nothing.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    typealias Machine = TimeoutStateMachine<Input, Failure>

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let interval: Context.SchedulerTimeType.Stride
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let options: Context.SchedulerOptions?
    @usableFromInline
    let customError: (() -> Upstream.Failure)?
    @usableFromInline
    let state = Locked(Machine())

    @inlinable
    init(downstream: Downstream, publisher: Publishers.Timeout<Upstream, Context>) {
      self.downstream = downstream
      self.interval = publisher.interval
      self.scheduler = publisher.scheduler
      self.options = publisher.options
      self.customError = publisher.customError
    }

    @inlinable
    var description: String { "Timeout" }

    @inlinable
    func receive(subscription: any Subscription) {
      guard state.withLock({ $0.upstreamSubscribed(subscription) }) else {
        subscription.cancel()
        return
      }
      // The clock starts once the downstream holds the subscription: a timer that fired sooner (a zero interval,
      // a busy queue) would otherwise deliver the completion before, or during, `receive(subscription:)`.
      downstream.receive(subscription: self)
      restartClock()
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      guard state.withLock({ $0.upstreamValue(input) }) else { return .none }
      restartClock()
      scheduler.schedule(options: options) { self.deliverNext() }
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      let (schedules, timer) = state.withLock { $0.upstreamCompleted(completion) }
      guard schedules else { return }
      timer?.cancel()
      scheduler.schedule(options: options) { self.deliverNext() }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      // Only a request that reaches the upstream counts as the first one, the one that restarts the clock.
      let (upstream, restartsClock) = state.withLock { $0.request() }
      guard let upstream else { return }
      if restartsClock { restartClock() }
      upstream.request(demand)
    }

    @inlinable
    func cancel() {
      let (upstream, timer, released) = state.withLock { $0.cancel() }
      timer?.cancel()
      upstream?.cancel()
      _ = released
    }

    /// Cancels the running clock and starts a new one.
    @inlinable
    func restartClock() {
      let (generation, previous) = state.withLock { $0.restartClock() }
      previous?.cancel()
      let timer = scheduler.schedule(
        after: scheduler.now.advanced(by: interval),
        interval: interval,
        tolerance: scheduler.minimumTolerance,
        options: options
      ) {
        self.timerFired(generation)
      }
      state.withLock { $0.timerScheduled(timer, for: generation) }?.cancel()
    }

    @inlinable
    func timerFired(_ generation: UInt64) {
      guard let (upstream, timer, released) = state.withLock({ $0.timerFired(generation) }) else { return }
      _ = released
      timer?.cancel()
      upstream.cancel()
      let completion = customError.map { Subscribers.Completion.failure($0()) } ?? .finished
      drain(state.withLock { $0.timedOut(with: completion) })
    }

    /// One scheduled action: releases the oldest queued event, and delivers it unless a drain is in progress, so
    /// that events reach downstream in the order they arrived even when a concurrent scheduler runs the actions in
    /// another order.
    @inlinable
    func deliverNext() {
      drain(state.withLock { $0.release() })
    }

    @inlinable
    func drain(_ first: Machine.Event?) {
      state.drain(first, to: downstream) { demand in state.withLock { $0.upstream }?.request(demand) }
    }
  }
}
