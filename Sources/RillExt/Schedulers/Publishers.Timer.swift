public import RillCore

extension Scheduler {
  /// Returns a connectable publisher that sends the scheduler's time every `interval`, once connected.
  ///
  /// ```
  /// connect():                        |   (at tick 0)
  /// timerPublisher(every: 2 ticks):   --t2--t4--t6-   (each value is the scheduler's now)
  /// ```
  ///
  /// Unlike Foundation's `Timer.publish(every:on:in:)`, it runs on any scheduler, so a test can drive it with
  /// a ``TestScheduler``:
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// var ticks = 0
  /// let cancellable = scheduler.timerPublisher(every: .seconds(1))
  ///   .autoconnect()
  ///   .sink { _ in ticks += 1 }
  /// scheduler.advance(by: .seconds(1000))   // ticks == 1000
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between values; it must be greater than zero.
  ///   - tolerance: How late each value may be; `nil`, the default, means zero.
  ///   - options: Options for the scheduler.
  /// - Returns: A timer publisher on this scheduler.
  @inlinable
  public func timerPublisher(
    every interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride? = nil,
    options: SchedulerOptions? = nil
  ) -> Publishers.Timer<Self> {
    Publishers.Timer(every: interval, tolerance: tolerance, scheduler: self, options: options)
  }
}

extension Publishers {
  /// A connectable publisher that sends a scheduler's time at a regular interval.
  ///
  /// It is combine-schedulers' `Publishers.Timer`: Foundation's `Timer.TimerPublisher` for any scheduler. Combine
  /// has no `Publishers.Timer`, so the name cannot clash with Combine's API (`Timer.publish(every:on:in:)` stays
  /// Foundation's `Timer`).
  ///
  /// As with Foundation's timer, ``connect()`` starts one repeating action on the scheduler, which sends its time
  /// one interval after the connection and every interval after that to every subscriber with demand; a subscriber
  /// without demand misses that value. Cancelling the connection stops the repeating action and keeps the
  /// subscribers, which a later ``connect()`` serves again. Cancelling a subscription removes its subscriber.
  ///
  /// The timer is `Sendable` when its scheduler is.
  public final class Timer<Scheduler: _CombineScheduler>: ConnectablePublisher {
    public typealias Output = Scheduler.SchedulerTimeType
    public typealias Failure = Never

    /// The time between values.
    public let interval: Scheduler.SchedulerTimeType.Stride

    /// How late each value may be; `nil` means zero.
    public let tolerance: Scheduler.SchedulerTimeType.Stride?

    /// The scheduler the timer runs on.
    public let scheduler: Scheduler

    /// Options for the scheduler.
    public let options: Scheduler.SchedulerOptions?

    @usableFromInline
    struct State {
      @usableFromInline var subscriptions: [ObjectIdentifier: TimerSubscription<Output>] = [:]
      /// Counts connections, so that a connection cancelled while it was starting is not kept.
      @usableFromInline var connection = 0
      @usableFromInline var isConnected = false
      @usableFromInline var repetition: (any Cancellable)?

      @inlinable
      init(
        subscriptions: [ObjectIdentifier: TimerSubscription<Output>] = [:],
        connection: Int = 0,
        isConnected: Bool = false,
        repetition: (any Cancellable)? = nil
      ) {
        self.subscriptions = subscriptions
        self.connection = connection
        self.isConnected = isConnected
        self.repetition = repetition
      }
    }

    @usableFromInline let state = Locked(State())

    /// Creates a timer publisher on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The time between values; it must be greater than zero.
    ///   - tolerance: How late each value may be; `nil`, the default, means zero.
    ///   - scheduler: The scheduler to run on.
    ///   - options: Options for the scheduler.
    public init(
      every interval: Scheduler.SchedulerTimeType.Stride,
      tolerance: Scheduler.SchedulerTimeType.Stride? = nil,
      scheduler: Scheduler,
      options: Scheduler.SchedulerOptions? = nil
    ) {
      self.interval = interval
      self.tolerance = tolerance
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
      let subscription = TimerSubscription<Output>(downstream: AnySubscriber(subscriber)) { [weak self] id in
        // Released after unlocking.
        let removed = self?.state.withLock { $0.subscriptions.removeValue(forKey: id) }
        _ = removed
      }
      state.withLock { $0.subscriptions[ObjectIdentifier(subscription)] = subscription }
      subscriber.receive(subscription: subscription)
    }

    /// Starts the timer, unless it is already running.
    ///
    /// - Returns: A cancellable that stops the timer.
    @inlinable
    public func connect() -> any Cancellable {
      let connection = state.withLock { state -> Int? in
        guard !state.isConnected else { return nil }
        state.isConnected = true
        state.connection += 1
        return state.connection
      }
      if let connection {
        let repetition = scheduler.schedule(
          after: scheduler.now.advanced(by: interval),
          interval: interval,
          tolerance: tolerance ?? .zero,
          options: options
        ) { [weak self] in
          self?.fire()
        }
        let kept = state.withLock { state -> Bool in
          guard state.isConnected, state.connection == connection else { return false }
          state.repetition = repetition
          return true
        }
        if !kept { repetition.cancel() }
      }
      return AnyCancellable { [weak self] in
        self?.disconnect()
      }
    }

    @inlinable
    func disconnect() {
      let repetition = state.withLock { state -> (any Cancellable)? in
        defer {
          state.isConnected = false
          state.repetition = nil
        }
        return state.repetition
      }
      repetition?.cancel()
    }

    @inlinable
    func fire() {
      let time = scheduler.now
      let subscriptions = state.withLock { Array($0.subscriptions.values) }
      for subscription in subscriptions {
        subscription.fire(time)
      }
    }
  }
}

// SAFETY: all mutable state is in `state`; the scheduler and the subscribers are called outside the lock, and the
// scheduler, the one part that is called from every thread that connects or cancels, is `Sendable`.
extension Publishers.Timer: @unchecked Sendable where Scheduler: Sendable {}

extension Publishers.Timer: CustomStringConvertible {
  /// `"Timer"`, as Foundation's timer publisher describes itself.
  public var description: String { "Timer" }
}

// SAFETY: all mutable state is in `state`; the downstream is called outside the lock.
@usableFromInline
final class TimerSubscription<Output>: Subscription, CustomStringConvertible, @unchecked Sendable {
  @usableFromInline
  struct State {
    @usableFromInline var downstream: AnySubscriber<Output, Never>?
    @usableFromInline var demand = Subscribers.Demand.none

    @inlinable
    init(downstream: AnySubscriber<Output, Never>? = nil, demand: Subscribers.Demand = Subscribers.Demand.none) {
      self.downstream = downstream
      self.demand = demand
    }
  }

  @usableFromInline let state: Locked<State>
  @usableFromInline let onCancel: (ObjectIdentifier) -> Void

  @inlinable
  init(downstream: AnySubscriber<Output, Never>, onCancel: @escaping (ObjectIdentifier) -> Void) {
    state = Locked(State(downstream: downstream))
    self.onCancel = onCancel
  }

  @usableFromInline var description: String { "Timer" }

  @inlinable
  func fire(_ time: Output) {
    let downstream = state.withLock { state -> AnySubscriber<Output, Never>? in
      guard state.demand > 0 else { return nil }
      state.demand -= 1
      return state.downstream
    }
    guard let downstream else { return }
    let more = downstream.receive(time)
    if more > 0 {
      state.withLock { state in
        if state.downstream != nil { state.demand += more }
      }
    }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "Timer: a subscriber requested \(demand); demand must be greater than zero")
    state.withLock { state in
      if state.downstream != nil { state.demand += demand }
    }
  }

  @inlinable
  func cancel() {
    let downstream = state.withLock { state -> AnySubscriber<Output, Never>? in
      defer {
        state.downstream = nil
        state.demand = .none
      }
      return state.downstream
    }
    guard downstream != nil else { return }
    onCancel(ObjectIdentifier(self))
  }
}
