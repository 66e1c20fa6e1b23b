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
  private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private enum Event {
      case value(Input)
      case completion(Subscribers.Completion<Failure>)
    }

    private struct State {
      var link = SubscriptionState.awaitingSubscription
      var isFinished = false
      /// Whether the upstream's completion has arrived; it is on its way to the downstream.
      var hasUpstreamCompleted = false
      var hasRequested = false
      var clock: UInt64 = 0
      var timer: (any Cancellable)?
      var outbox = SchedulerOutbox<Event>()
    }

    private let downstream: Downstream
    private let interval: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let options: Context.SchedulerOptions?
    private let customError: (() -> Upstream.Failure)?
    private let state = Locked(State())

    init(downstream: Downstream, publisher: Publishers.Timeout<Upstream, Context>) {
      self.downstream = downstream
      self.interval = publisher.interval
      self.scheduler = publisher.scheduler
      self.options = publisher.options
      self.customError = publisher.customError
    }

    var description: String { "Timeout" }

    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
      guard state.withLock({ $0.link.subscribe(subscription) }) else {
        subscription.cancel()
        return
      }
      // The clock starts once the downstream holds the subscription: a timer that fired sooner (a zero interval,
      // a busy queue) would otherwise deliver the completion before, or during, `receive(subscription:)`.
      downstream.receive(subscription: self)
      restartClock()
    }

    func receive(_ input: Input) -> Subscribers.Demand {
      guard state.withLock({ !$0.isFinished && !$0.hasUpstreamCompleted && $0.link.isSubscribed }) else {
        return .none
      }
      restartClock()
      scheduler.schedule(options: options) { self.deliver(.value(input)) }
      return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      let timer = state.withLock { state -> (any Cancellable)?? in
        guard !state.isFinished, !state.hasUpstreamCompleted, state.link.isSubscribed else { return nil }
        state.hasUpstreamCompleted = true
        state.clock &+= 1
        defer { state.timer = nil }
        return .some(state.timer)
      }
      guard let timer else { return }
      timer?.cancel()
      scheduler.schedule(options: options) { self.deliver(.completion(completion)) }
    }

    func request(_ demand: Subscribers.Demand) {
      // Only a request that reaches the upstream counts as the first one, the one that restarts the clock.
      let (upstream, isFirst) = state.withLock { state -> ((any Subscription)?, Bool) in
        guard let upstream = state.link.upstream else { return (nil, false) }
        defer { state.hasRequested = true }
        return (upstream, !state.hasRequested)
      }
      guard let upstream else { return }
      if isFirst { restartClock() }
      upstream.request(demand)
    }

    func cancel() {
      let (upstream, timer) = state.withLock { state -> ((any Subscription)?, (any Cancellable)?) in
        guard !state.link.isAwaitingSubscription else { return (nil, nil) }
        state.isFinished = true
        state.outbox.removeAll()
        state.clock &+= 1
        defer { state.timer = nil }
        return (state.link.terminate(), state.timer)
      }
      timer?.cancel()
      upstream?.cancel()
    }

    /// Cancels the running clock and starts a new one.
    private func restartClock() {
      let (clock, previous) = state.withLock { state in
        state.clock &+= 1
        defer { state.timer = nil }
        return (state.clock, state.timer)
      }
      previous?.cancel()
      let timer = scheduler.schedule(
        after: scheduler.now.advanced(by: interval),
        interval: interval,
        tolerance: scheduler.minimumTolerance,
        options: options
      ) {
        self.timedOut(clock)
      }
      let stale = state.withLock { state -> (any Cancellable)? in
        guard state.clock == clock, !state.isFinished, !state.hasUpstreamCompleted, state.link.isSubscribed else {
          return timer
        }
        state.timer = timer
        return nil
      }
      stale?.cancel()
    }

    private func timedOut(_ clock: UInt64) {
      let action = state.withLock { state -> ((any Subscription)?, (any Cancellable)?)? in
        guard state.clock == clock, !state.isFinished, !state.hasUpstreamCompleted, state.link.isSubscribed else {
          return nil
        }
        state.isFinished = true
        state.outbox.removeAll()
        defer { state.timer = nil }
        return (state.link.terminate(), state.timer)
      }
      guard let (upstream, timer) = action else { return }
      timer?.cancel()
      upstream?.cancel()
      let completion = customError.map { Subscribers.Completion.failure($0()) } ?? .finished
      drain(state.withLock { $0.outbox.push(.completion(completion)) })
    }

    private func deliver(_ event: Event) {
      drain(state.withLock { $0.isFinished ? nil : $0.outbox.push(event) })
    }

    private func drain(_ first: Event?) {
      var next = first
      while let event = next {
        switch event {
        case .value(let value):
          let demand = downstream.receive(value)
          if demand > 0 {
            state.withLock { $0.link.upstream }?.request(demand)
          }
        case .completion(let completion):
          state.withLock { state in
            state.isFinished = true
            state.outbox.removeAll()
            _ = state.link.terminate()
          }
          downstream.receive(completion: completion)
        }
        next = state.withLock { $0.outbox.next() }
      }
    }
  }
}
