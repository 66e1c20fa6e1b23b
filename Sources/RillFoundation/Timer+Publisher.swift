public import Foundation
public import RillCore

extension Timer {
  /// Returns a publisher that repeatedly emits the current date on the given interval.
  ///
  /// ```
  /// publish(every: 1, on: .main, in: .default).autoconnect():   -d-d-d-
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time interval on which to publish events. For example, a value of `0.5` publishes an
  ///     event approximately every half-second.
  ///   - tolerance: The allowed timing variance when emitting events. As in Combine, this method does not pass it
  ///     on: the publisher's ``Timer/TimerPublisher/tolerance`` is `nil`. To set a tolerance, create a
  ///     ``Timer/TimerPublisher`` with its initializer.
  ///   - runLoop: The run loop on which the timer runs.
  ///   - mode: The run loop mode in which to run the timer.
  ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
  /// - Returns: A publisher that repeatedly emits the current date on the given interval.
  public static func publish(
    every interval: TimeInterval,
    tolerance: TimeInterval? = nil,
    on runLoop: RunLoop,
    in mode: RunLoop.Mode,
    options: RunLoop.SchedulerOptions? = nil
  ) -> Timer.TimerPublisher {
    TimerPublisher(interval: interval, tolerance: nil, runLoop: runLoop, mode: mode, options: options)
  }

  /// A publisher that repeatedly emits the current date on a given interval.
  ///
  /// ```
  /// connect():   -d-d-d-
  /// ```
  ///
  /// Nothing is emitted before ``connect()``; then a `Timer` on `runLoop` sends the date of each firing to
  /// every subscriber that has demand (a subscriber without demand misses that firing). The publisher never
  /// completes; cancelling the connection invalidates the timer.
  // SAFETY: all mutable state is in `state`; subscribers and the run loop are called outside the lock.
  public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
    public typealias Output = Date
    public typealias Failure = Never

    /// The time interval on which to publish events.
    public let interval: TimeInterval

    /// The allowed timing variance when emitting events, or `nil` to allow any variance.
    public let tolerance: TimeInterval?

    /// The run loop on which the timer runs.
    public let runLoop: RunLoop

    /// The run loop mode in which to run the timer.
    public let mode: RunLoop.Mode

    /// Scheduler options passed to the timer.
    public let options: RunLoop.SchedulerOptions?

    @usableFromInline
    struct State {
      /// Each subscription's tick, which delivers a date to it.
      @usableFromInline var subscriptions: [ObjectIdentifier: TimerPublisherTick] = [:]
      @usableFromInline var timer: Timer?

      @inlinable
      init() {}
    }

    @usableFromInline let state = Locked(State())

    /// Creates a publisher that repeatedly emits the current date on the given interval.
    public init(
      interval: TimeInterval,
      tolerance: TimeInterval? = nil,
      runLoop: RunLoop,
      mode: RunLoop.Mode,
      options: RunLoop.SchedulerOptions? = nil
    ) {
      self.interval = interval
      self.tolerance = tolerance
      self.runLoop = runLoop
      self.mode = mode
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Failure == Never, S.Input == Date {
      let subscription = TimerPublisherSubscription(downstream: subscriber) { [weak self] id in
        // Released after unlocking.
        let removed = self?.state.withLock { $0.subscriptions.removeValue(forKey: id) }
        _ = removed
      }
      // Made here, where the subscriber's type is known, so that each tick runs specialised code.
      let tick = TimerPublisherTick { subscription.fire($0) }
      state.withLock { $0.subscriptions[ObjectIdentifier(subscription)] = tick }
      subscriber.receive(subscription: subscription)
    }

    /// Starts the timer, if it is not running yet, and returns a cancellable that stops it.
    ///
    /// As in Combine, the timer runs until that cancellable is cancelled, even if it is not kept: releasing it does
    /// not stop the timer.
    public func connect() -> any Cancellable {
      let fire = RillTimerTarget(self)
      // Combine's first tick comes one interval after `connect()`; Linux Foundation's
      // `Timer(timeInterval:repeats:block:)` would fire at once, so the fire date is explicit.
      let timer = Timer(fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: true) { timer in
        if !fire.fire() { timer.invalidate() }
      }
      if let tolerance { timer.tolerance = tolerance }
      let started = state.withLock { state -> Bool in
        guard state.timer == nil else { return false }
        state.timer = timer
        return true
      }
      if started {
        runLoop.add(timer, forMode: mode)
      }
      return RillTimerConnection(self)
    }

    fileprivate func disconnect() {
      state.withLock { state -> Timer? in
        defer { state.timer = nil }
        return state.timer
      }?.invalidate()
    }

    fileprivate func fire() {
      let date = Date()
      let ticks = state.withLock { Array($0.subscriptions.values) }
      for tick in ticks {
        tick.fire(date)
      }
    }
  }
}

/// What `connect()` returns: it stops the timer when cancelled, and, unlike an `AnyCancellable`, not when released.
// SAFETY: immutable; `TimerPublisher` is thread-safe.
private final class RillTimerConnection: Cancellable, @unchecked Sendable {
  weak var publisher: Timer.TimerPublisher?

  init(_ publisher: Timer.TimerPublisher) {
    self.publisher = publisher
  }

  func cancel() {
    publisher?.disconnect()
  }
}

/// Lets the timer's block reach the publisher across Foundation's `@Sendable` boundary.
// SAFETY: immutable; `TimerPublisher` is thread-safe.
private final class RillTimerTarget: @unchecked Sendable {
  weak var publisher: Timer.TimerPublisher?

  init(_ publisher: Timer.TimerPublisher) {
    self.publisher = publisher
  }

  /// Fires the publisher; returns `false` once it is gone, so the timer can stop.
  func fire() -> Bool {
    guard let publisher else { return false }
    publisher.fire()
    return true
  }
}

/// Delivers a tick's date to one subscription.
@usableFromInline
struct TimerPublisherTick {
  @usableFromInline let fire: (Date) -> Void

  @inlinable
  init(_ fire: @escaping (Date) -> Void) {
    self.fire = fire
  }
}

// SAFETY: all mutable state is in `state`; the downstream is called outside the lock.
//
// As in Combine, the subscription has no description, mirror or playground description of its own.
@usableFromInline
final class TimerPublisherSubscription<Downstream: Subscriber>: Subscription, @unchecked Sendable
where Downstream.Input == Date, Downstream.Failure == Never {
  @usableFromInline
  struct State {
    @usableFromInline var downstream: Downstream?
    @usableFromInline var demand = Subscribers.Demand.none

    @inlinable
    init(downstream: Downstream) {
      self.downstream = downstream
    }
  }

  @usableFromInline let state: Locked<State>
  @usableFromInline let onCancel: (ObjectIdentifier) -> Void

  @inlinable
  init(downstream: Downstream, onCancel: @escaping (ObjectIdentifier) -> Void) {
    state = Locked(State(downstream: downstream))
    self.onCancel = onCancel
  }

  @inlinable
  func fire(_ date: Date) {
    let downstream = state.withLock { state -> Downstream? in
      guard state.demand > 0 else { return nil }
      state.demand -= 1
      return state.downstream
    }
    guard let downstream else { return }
    let more = downstream.receive(date)
    if more > 0 {
      state.withLock { $0.demand += more }
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
    let downstream = state.withLock { state -> Downstream? in
      defer { state.downstream = nil }
      return state.downstream
    }
    guard downstream != nil else { return }
    onCancel(ObjectIdentifier(self))
  }
}
