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

    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      upstream.receive(subscriber: Inner(downstream: subscriber, publisher: self))
    }
  }
}

extension Publishers.Throttle {
  // SAFETY: all mutable state is in `state`; downstream, upstream and the scheduler are called outside the lock.
  // At most one emission is scheduled at a time, but on a concurrent scheduler the next one can run while the
  // previous one is still delivering: emissions go through a `SchedulerOutbox`, so the downstream is never called
  // concurrently and sees them in order.
  private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure
    typealias Time = Context.SchedulerTimeType

    private enum Event {
      case value(Input)
      case completion(Subscribers.Completion<Failure>)
    }

    private struct State {
      var link = SubscriptionState.awaitingSubscription
      var isFinished = false
      var hasUpstreamCompleted = false
      var demand = Subscribers.Demand.none
      var lastEmission: Time?
      var pendingValue: Input?
      var pendingCompletion: Subscribers.Completion<Failure>?
      var outbox = SchedulerOutbox<Event>()

      var hasScheduledEmission: Bool { pendingValue != nil || pendingCompletion != nil }
    }

    private let downstream: Downstream
    private let interval: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let latest: Bool
    private let state = Locked(State())

    init(downstream: Downstream, publisher: Publishers.Throttle<Upstream, Context>) {
      self.downstream = downstream
      self.interval = publisher.interval
      self.scheduler = publisher.scheduler
      self.latest = publisher.latest
    }

    var description: String { "Throttle" }

    var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
      guard state.withLock({ $0.link.subscribe(subscription) }) else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
      subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
      let now = scheduler.now
      let emissionTime = state.withLock { state -> Time? in
        guard !state.isFinished, !state.hasUpstreamCompleted, state.link.isSubscribed, state.demand > 0 else {
          return nil
        }
        if state.hasScheduledEmission {
          if latest, state.pendingCompletion == nil { state.pendingValue = input }
          return nil
        }
        state.demand -= 1
        state.pendingValue = input
        guard let earliest = state.lastEmission?.advanced(by: interval) else { return now }
        return Swift.max(now, earliest)
      }
      guard let emissionTime else { return .none }
      if emissionTime == now {
        scheduler.schedule { self.emit() }
      } else {
        scheduler.schedule(after: emissionTime) { self.emit() }
      }
      return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      let mustSchedule = state.withLock { state -> Bool in
        guard !state.isFinished, !state.hasUpstreamCompleted, state.link.isSubscribed else { return false }
        state.hasUpstreamCompleted = true
        let mustSchedule = !state.hasScheduledEmission
        state.pendingCompletion = completion
        return mustSchedule
      }
      if mustSchedule {
        scheduler.schedule { self.emit() }
      }
    }

    func request(_ demand: Subscribers.Demand) {
      state.withLock { $0.demand += demand }
    }

    func cancel() {
      let upstream = state.withLock { state -> (any Subscription)? in
        state.isFinished = true
        state.pendingValue = nil
        state.pendingCompletion = nil
        state.outbox.removeAll()
        return state.link.terminate()
      }
      upstream?.cancel()
    }

    private func emit() {
      let now = scheduler.now
      var next = state.withLock { state -> Event? in
        guard !state.isFinished else { return nil }
        var first: Event?
        if let value = state.pendingValue {
          state.lastEmission = now
          first = state.outbox.push(.value(value))
        }
        if let completion = state.pendingCompletion {
          state.isFinished = true
          _ = state.link.terminate()
          let pushed = state.outbox.push(.completion(completion))
          if first == nil { first = pushed }
        }
        state.pendingValue = nil
        state.pendingCompletion = nil
        return first
      }
      while let event = next {
        switch event {
        case .value(let value):
          let demand = downstream.receive(value)
          if demand > 0 {
            state.withLock { $0.demand += demand }
          }
        case .completion(let completion):
          downstream.receive(completion: completion)
        }
        next = state.withLock { $0.outbox.next() }
      }
    }
  }
}
