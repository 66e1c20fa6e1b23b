extension Publisher {
  /// Collects elements by a given time-grouping strategy, and emits a single array of the collection.
  ///
  /// ```
  /// upstream:                                   -a-b--c-d-e-|
  /// collect(.byTime(scheduler, 4)):             ----'ab'---'cd'---[e|]
  /// ```
  ///
  /// A repeating clock started at the subscription emits what was collected at the end of each interval, when there is
  /// something and the downstream has demand. With `.byTime` the upstream is asked for one element with each request,
  /// whatever its demand, and one more for each element. With `.byTimeOrCount` a full buffer is emitted without waiting
  /// for the clock, and the upstream is asked for `count` elements per array requested. When the upstream finishes,
  /// what is left is emitted before `.finished`; a failure drops it. As in Combine (since iOS 13.3 and macOS 10.15.2),
  /// what the upstream brings is delivered on the scheduler: a full buffer and the completion too, never from inside
  /// the upstream's call. What was kept after the upstream finished, for want of demand, goes out with the request that
  /// brings the demand, on the requesting thread, followed by the completion.
  ///
  /// - Parameters:
  ///   - strategy: The timing group strategy used by the operator to collect and publish elements.
  ///   - options: Scheduler options to use for the strategy.
  /// - Returns: A publisher that collects elements by a given strategy, and emits a single array of the
  ///   collection.
  public func collect<S: Scheduler>(
    _ strategy: Publishers.TimeGroupingStrategy<S>,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.CollectByTime<Self, S> {
    Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
  }
}

extension Publishers {
  /// A strategy for collecting received elements.
  public enum TimeGroupingStrategy<Context: Scheduler> {
    /// A grouping that collects and periodically publishes items.
    case byTime(Context, Context.SchedulerTimeType.Stride)

    /// A grouping that collects and publishes items periodically or when a buffer reaches a maximum size.
    case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
  }

  /// A publisher that buffers and periodically publishes its items.
  public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// The strategy with which to collect and publish elements.
    public let strategy: Publishers.TimeGroupingStrategy<Context>

    /// `Scheduler` options to use for the strategy.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that buffers and periodically publishes its items.
    public init(
      upstream: Upstream,
      strategy: Publishers.TimeGroupingStrategy<Context>,
      options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.strategy = strategy
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == [Upstream.Output] {
      upstream.subscribe(Inner(downstream: subscriber, strategy: strategy, options: options))
    }
  }
}

extension Publishers.CollectByTime {
  // SAFETY: all mutable state is in `state`; downstream, upstream and the scheduler are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    typealias Machine = CollectByTimeStateMachine<Input, Failure>

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let interval: Context.SchedulerTimeType.Stride
    /// The count of `.byTimeOrCount`: the upstream is asked for this many values per array requested.
    @usableFromInline
    let count: Int?
    @usableFromInline
    let options: Context.SchedulerOptions?
    @usableFromInline
    let state: Locked<Machine>

    @inlinable
    init(downstream: Downstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?)
    {
      self.downstream = downstream
      switch strategy {
      case .byTime(let scheduler, let interval):
        (self.scheduler, self.interval, self.count) = (scheduler, interval, nil)
      case .byTimeOrCount(let scheduler, let interval, let count):
        precondition(count > 0, "collect(.byTimeOrCount): count must be greater than zero, not \(count)")
        (self.scheduler, self.interval, self.count) = (scheduler, interval, count)
      }
      self.options = options
      self.state = Locked(Machine(limit: count ?? .max))
    }

    @inlinable
    var description: String { "CollectByTime" }

    @inlinable
    var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

    @inlinable
    func receive(subscription: any Subscription) {
      guard state.withLock({ $0.upstreamSubscribed(subscription) }) else {
        subscription.cancel()
        return
      }
      let timer = scheduler.schedule(
        after: scheduler.now.advanced(by: interval),
        interval: interval,
        tolerance: scheduler.minimumTolerance,
        options: options
      ) { [weak self] in
        self?.timerFired()
      }
      state.withLock { $0.timerScheduled(timer) }?.cancel()
      downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      switch state.withLock({ $0.upstreamValue(input) }) {
      case .ignored:
        return .none
      case .collected:
        break
      case .scheduleDelivery:
        scheduler.schedule(options: options) { self.deliverNext() }
      }
      // `.byTime` asks for one element at a time; `.byTimeOrCount` asks for `count` per array requested.
      return count == nil ? .max(1) : .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      guard let action = state.withLock({ $0.upstreamCompleted(completion) }) else { return }
      _ = action.released
      action.timer?.cancel()
      for _ in 0..<action.actions {
        scheduler.schedule(options: options) { self.deliverNext() }
      }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "CollectByTime: a subscriber requested \(demand); demand must be greater than zero")
      // As in Combine, `.byTime` asks the upstream for one element per request, whatever its demand.
      state.withLock { $0.request(demand) }?.request(count.map { demand * $0 } ?? .max(1))
      flushHeld()
    }

    /// Delivers the last arrays and the completion held for want of demand, as far as demand allows.
    @inlinable
    func flushHeld() {
      drain(state.withLock { $0.flushHeld() })
    }

    @inlinable
    func cancel() {
      let (upstream, timer, released) = state.withLock { $0.cancel() }
      timer?.cancel()
      upstream?.cancel()
      _ = released
    }

    @inlinable
    func timerFired() {
      drain(state.withLock { $0.timerFired() })
    }

    /// One scheduled action: releases the oldest queued event, and delivers it unless a drain is in progress, so
    /// that events reach downstream in the order they were queued even when a concurrent scheduler runs the actions
    /// in another order.
    @inlinable
    func deliverNext() {
      drain(state.withLock { $0.release() })
    }

    /// Delivers `first` and whatever is queued meanwhile, one at a time and in order.
    @inlinable
    func drain(_ first: Machine.Event?) {
      state.drain(first, to: downstream) { demand in
        let (upstream, isHolding) = state.withLock { $0.delivered(demand) }
        if let count, let upstream {
          upstream.request(demand * count)
        }
        if isHolding { flushHeld() }
      }
    }
  }
}
