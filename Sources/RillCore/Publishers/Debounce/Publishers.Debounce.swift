extension Publisher {
  /// Publishes elements only after a specified time interval elapses between events.
  ///
  /// ```
  /// upstream:                              -a-b-----c----|
  /// debounce(for: 3, scheduler: scheduler): ------b-----c-|
  /// ```
  ///
  /// Each value restarts the clock; the latest value is published when `dueTime` passes without a new one and
  /// the downstream has demand, otherwise it is dropped. The upstream is asked for unlimited values. A value
  /// still waiting when the upstream completes is dropped, and the completion is delivered on the scheduler.
  ///
  /// - Parameters:
  ///   - dueTime: The time the publisher should wait before publishing an element.
  ///   - scheduler: The scheduler on which this publisher delivers elements.
  ///   - options: Scheduler options that customize this publisher's delivery of elements.
  /// - Returns: A publisher that publishes events only after a specified time elapses.
  public func debounce<S: Scheduler>(
    for dueTime: S.SchedulerTimeType.Stride,
    scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.Debounce<Self, S> {
    Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that publishes elements only after a specified time interval elapses between events.
  public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The amount of time the publisher should wait before publishing an element.
    public let dueTime: Context.SchedulerTimeType.Stride

    /// The scheduler on which this publisher delivers elements.
    public let scheduler: Context

    /// Scheduler options that customize this publisher's delivery of elements.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that publishes elements only after a specified time interval elapses between
    /// events.
    public init(
      upstream: Upstream,
      dueTime: Context.SchedulerTimeType.Stride,
      scheduler: Context,
      options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.dueTime = dueTime
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      upstream.subscribe(Inner(downstream: subscriber, publisher: self))
    }
  }
}

extension Publishers.Debounce {
  // SAFETY: all mutable state is in `state`; downstream, upstream and the scheduler are called outside the lock.
  //
  // As in Combine, the timer of a pending value holds the subscription strongly; every way the value stops being
  // pending (a newer value, its emission, the completion, a cancel) cancels that timer.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    typealias Machine = DebounceStateMachine<Input, Failure>

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let dueTime: Context.SchedulerTimeType.Stride
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let options: Context.SchedulerOptions?
    @usableFromInline
    let state = Locked(Machine())

    @inlinable
    init(downstream: Downstream, publisher: Publishers.Debounce<Upstream, Context>) {
      self.downstream = downstream
      self.dueTime = publisher.dueTime
      self.scheduler = publisher.scheduler
      self.options = publisher.options
    }

    @inlinable
    var description: String { "Debounce" }

    @inlinable
    var customMirror: Mirror {
      let (demand, pending) = state.withLock { ($0.demand, $0.pendingValue) }
      let children: [(label: String?, value: Any)] = [
        ("downstream", downstream),
        ("downstreamDemand", demand),
        ("currentValue", pending as Any),
      ]
      return Mirror(self, children: children)
    }

    @inlinable
    func receive(subscription: any Subscription) {
      guard state.withLock({ $0.upstreamSubscribed(subscription) }) else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
      subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      guard let (generation, replaced) = state.withLock({ $0.upstreamValue(input) }) else { return .none }
      replaced?.timer?.cancel()
      let timer = scheduler.schedule(
        after: scheduler.now.advanced(by: dueTime),
        interval: dueTime,
        tolerance: scheduler.minimumTolerance,
        options: options
      ) {
        self.timerFired(generation)
      }
      state.withLock { $0.timerScheduled(timer, for: generation) }?.cancel()
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      let (schedules, released) = state.withLock { $0.upstreamCompleted() }
      released?.pending?.timer?.cancel()
      guard schedules else { return }
      scheduler.schedule(options: nil) { self.drain(self.state.withLock { $0.push(.completion(completion)) }) }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "Debounce: a subscriber requested \(demand); demand must be greater than zero")
      state.withLock { $0.request(demand) }
    }

    @inlinable
    func cancel() {
      let (upstream, pending, released) = state.withLock { $0.cancel() }
      pending?.timer?.cancel()
      upstream?.cancel()
      _ = released
    }

    @inlinable
    func timerFired(_ generation: UInt64) {
      switch state.withLock({ $0.timerFired(generation) }) {
      case .deliver(let first, let timer):
        timer?.cancel()
        drain(first)
      case .drop(let value, let timer):
        timer?.cancel()
        _ = value
      case .none:
        break
      }
    }

    /// Delivers `first`, then the events queued meanwhile, one at a time.
    @inlinable
    func drain(_ first: Machine.Event?) {
      state.drain(first, to: downstream) { demand in state.withLock { $0.request(demand) } }
    }
  }
}
