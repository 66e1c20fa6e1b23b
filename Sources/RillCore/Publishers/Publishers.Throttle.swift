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
      upstream.subscribe(Inner(downstream: subscriber, publisher: self))
    }
  }
}

extension Publishers.Throttle {
  // SAFETY: all mutable state is in `state`; downstream, upstream and the scheduler are called outside the lock.
  // At most one emission is scheduled at a time, but on a concurrent scheduler the next one can run while the
  // previous one is still delivering: emissions go through a `SchedulerOutbox`, so the downstream is never called
  // concurrently and sees them in order.
  //
  // Scheduled emissions hold the subscription weakly, as Combine's do: a pending emission does not keep a
  // cancelled or abandoned pipeline alive. The downstream is released once the subscription ends.
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
      /// The subscriber, until the subscription ends (completion delivered or cancel).
      var downstream: Downstream?
      /// Whether the upstream has completed: its completion is pending, to be emitted after any pending value.
      var hasUpstreamCompleted = false
      var demand = Subscribers.Demand.none
      var lastEmission: Time?
      var pendingValue: Input?
      var pendingCompletion: Subscribers.Completion<Failure>?
      var outbox = SchedulerOutbox<Event>()

      var hasScheduledEmission: Bool { pendingValue != nil || pendingCompletion != nil }

      /// Whether values and the completion from upstream are still taken in.
      var isAcceptingEvents: Bool { link.isSubscribed && !hasUpstreamCompleted && downstream != nil }
    }

    private let interval: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let latest: Bool
    private let state: Locked<State>

    init(downstream: Downstream, publisher: Publishers.Throttle<Upstream, Context>) {
      self.interval = publisher.interval
      self.scheduler = publisher.scheduler
      self.latest = publisher.latest
      self.state = Locked(State(downstream: downstream))
      // Combine reads the clock when the subscription is created and when it is subscribed; a scheduler that
      // records its calls sees the same ones.
      _ = publisher.scheduler.now
    }

    var description: String { "Throttle" }

    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
      let downstream = state.withLock { state -> Downstream? in
        guard let downstream = state.downstream, state.link.subscribe(subscription) else { return nil }
        return downstream
      }
      guard let downstream else {
        subscription.cancel()
        return
      }
      _ = scheduler.now
      downstream.receive(subscription: self)
      subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
      guard state.withLock({ $0.isAcceptingEvents }) else { return .none }
      let now = scheduler.now
      let emissionTime = state.withLock { state -> Time? in
        guard state.isAcceptingEvents, state.demand > 0 else { return nil }
        if state.hasScheduledEmission {
          if latest { state.pendingValue = input }
          return nil
        }
        state.demand -= 1
        state.pendingValue = input
        guard let earliest = state.lastEmission?.advanced(by: interval) else { return now }
        return Swift.max(now, earliest)
      }
      guard let emissionTime else { return .none }
      if emissionTime == now {
        scheduler.schedule { [weak self] in self?.emit() }
      } else {
        scheduler.schedule(after: emissionTime) { [weak self] in self?.emit() }
      }
      return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      guard state.withLock({ $0.isAcceptingEvents }) else { return }
      _ = scheduler.now
      let mustSchedule = state.withLock { state -> Bool in
        guard state.isAcceptingEvents else { return false }
        state.hasUpstreamCompleted = true
        let mustSchedule = !state.hasScheduledEmission
        state.pendingCompletion = completion
        return mustSchedule
      }
      if mustSchedule {
        scheduler.schedule { [weak self] in self?.emit() }
      }
    }

    func request(_ demand: Subscribers.Demand) {
      state.withLock { state in
        guard state.isAcceptingEvents else { return }
        state.demand += demand
      }
    }

    func cancel() {
      let (upstream, downstream) = state.withLock { state -> ((any Subscription)?, Downstream?) in
        state.pendingValue = nil
        state.pendingCompletion = nil
        state.outbox.removeAll()
        return (state.link.terminate(), state.downstream.take())
      }
      upstream?.cancel()
      // Released after unlocking: the subscriber's deinit may call back into this subscription.
      _ = downstream
    }

    /// One scheduled emission: the pending value, then the pending completion.
    private func emit() {
      // The time of a value's emission starts the next interval; Combine reads it only for a value that no
      // completion follows.
      let needsTime = state.withLock { state -> Bool? in
        guard state.downstream != nil, state.hasScheduledEmission else { return nil }
        return state.pendingCompletion == nil
      }
      guard let needsTime else { return }
      let now = needsTime ? scheduler.now : nil
      let started = state.withLock { state -> (Downstream, Event)? in
        guard let downstream = state.downstream else { return nil }
        var first: Event?
        if let value = state.pendingValue.take() {
          if state.pendingCompletion == nil, let now { state.lastEmission = now }
          first = state.outbox.push(.value(value))
        }
        if let completion = state.pendingCompletion.take() {
          _ = state.link.terminate()
          state.downstream = nil
          let pushed = state.outbox.push(.completion(completion))
          if first == nil { first = pushed }
        }
        return first.map { (downstream, $0) }
      }
      guard let (downstream, first) = started else { return }
      var next: Event? = first
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
