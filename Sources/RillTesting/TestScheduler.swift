/// A scheduler whose clock moves only when a test tells it to.
///
/// Actions scheduled on a `TestScheduler` wait in a queue until ``advance(by:)-23af7``, ``advance(to:)-sy64`` or
/// ``run(maxActions:)-7840k`` reaches their date, then run on the calling thread, in date order. Actions due at the
/// same instant run in the order they were scheduled (first in, first out), so a test's outcome never
/// depends on timing. An action may schedule further actions; those due within the advanced range run in the
/// same call.
///
/// ```swift
/// let scheduler = TestScheduler()
/// var fired: [Int] = []
/// scheduler.schedule(after: scheduler.now.advanced(by: 3)) { fired.append(3) }
/// scheduler.schedule { fired.append(0) }
/// scheduler.advance(by: 2)   // fired == [0]
/// scheduler.advance(by: 1)   // fired == [0, 3]
/// ```
///
/// The scheduler is thread-safe: any thread may schedule, cancel or advance. It never runs an action while
/// holding its lock, so actions may freely schedule, cancel or read ``now``.
// SAFETY: all mutable state is in `state`; actions run after the lock is released.
public final class TestScheduler: Scheduler, @unchecked Sendable, CustomStringConvertible {
  /// A test scheduler accepts no options.
  public typealias SchedulerOptions = Never

  private struct Entry {
    let id: Int
    var date: Int
    let interval: Int?
    let action: () -> Void
  }

  private struct State {
    var now: SchedulerTimeType
    var nextID = 0
    /// Sorted by date; entries with the same date stay in scheduling order.
    var queue: [Entry] = []

    mutating func enqueue(date: Int, interval: Int?, id: Int? = nil, action: @escaping () -> Void) -> Int {
      let id =
        id
        ?? {
          nextID += 1
          return nextID
        }()
      let entry = Entry(id: id, date: Swift.max(date, now.ticks), interval: interval, action: action)
      var index = queue.endIndex
      while index > queue.startIndex, queue[index - 1].date > entry.date { index -= 1 }
      queue.insert(entry, at: index)
      return id
    }

    /// Takes the first action due by `limit` or now (any date if `nil`), moving the clock to its date.
    mutating func takeNext(until limit: Int?) -> (() -> Void)? {
      guard let first = queue.first, limit.map({ first.date <= Swift.max($0, now.ticks) }) ?? true else { return nil }
      queue.removeFirst()
      if first.date > now.ticks { now = SchedulerTimeType(first.date) }
      if let interval = first.interval {
        _ = enqueue(date: first.date + interval, interval: interval, id: first.id, action: first.action)
      }
      return first.action
    }
  }

  private let state: Locked<State>

  /// Creates a test scheduler whose clock starts at the given instant.
  ///
  /// - Parameter now: The starting instant; tick 0 by default.
  public init(now: SchedulerTimeType = 0) {
    state = Locked(State(now: now))
  }

  /// The scheduler's current virtual time.
  public var now: SchedulerTimeType {
    state.withLock { $0.now }
  }

  /// The minimum tolerance: zero, since virtual time is exact.
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  /// The number of actions waiting to run, counting each repeating action once.
  public var scheduledActionCount: Int {
    state.withLock { $0.queue.count }
  }

  /// A summary of the clock and the queue, for test failure messages.
  public var description: String {
    state.withLock { "TestScheduler(now: \($0.now), scheduled: \($0.queue.map(\.date)))" }
  }

  /// Schedules the action to run at the current virtual time, on the next advance.
  ///
  /// - Parameters:
  ///   - options: Unused; a test scheduler has no options.
  ///   - action: The action to run.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    state.withLock { _ = $0.enqueue(date: $0.now.ticks, interval: nil, action: action) }
  }

  /// Schedules the action to run when the clock reaches `date`; a past date means now.
  ///
  /// - Parameters:
  ///   - date: The instant to run the action at.
  ///   - tolerance: Unused; virtual time is exact.
  ///   - options: Unused; a test scheduler has no options.
  ///   - action: The action to run.
  public func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    state.withLock { _ = $0.enqueue(date: date.ticks, interval: nil, action: action) }
  }

  /// Schedules the action to run at `date` and then every `interval`, until the returned cancellable cancels.
  ///
  /// An interval below one tick counts as one tick, so a repeating action always lets the clock move.
  /// Like a dispatch queue's timer, the returned `AnyCancellable` also cancels when it is released.
  ///
  /// - Parameters:
  ///   - date: The instant of the first run; a past date means now.
  ///   - interval: The time between runs.
  ///   - tolerance: Unused; virtual time is exact.
  ///   - options: Unused; a test scheduler has no options.
  ///   - action: The action to run.
  /// - Returns: A cancellable that removes the action from the queue.
  public func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let id = state.withLock { $0.enqueue(date: date.ticks, interval: Swift.max(interval.ticks, 1), action: action) }
    return AnyCancellable { [weak self] in
      // The removed action, and what it captured, is released after unlocking: its deinit may call back.
      let removed = self?.state.withLock { state -> [Entry] in
        let removed = state.queue.filter { $0.id == id }
        state.queue.removeAll { $0.id == id }
        return removed
      }
      _ = removed
    }
  }

  /// Moves the clock forward by `stride`, running every action that falls due on the way, in order.
  ///
  /// `advance()` with no argument runs the actions due now, such as those scheduled with
  /// `schedule(_:)`.
  ///
  /// - Parameter stride: How far to move the clock; zero by default. A negative stride only runs what is due.
  public func advance(by stride: SchedulerTimeType.Stride = 0) {
    advance(to: now.advanced(by: stride))
  }

  /// Moves the clock forward to `instant`, running every action that falls due on the way, in order.
  ///
  /// Each action runs with ``now`` set to its own date. Actions scheduled by those actions run too if they
  /// fall due by `instant`. The clock never moves backwards: an earlier `instant` only runs what is due.
  ///
  /// - Parameter instant: The time to move the clock to.
  public func advance(to instant: SchedulerTimeType) {
    while let action = state.withLock({ $0.takeNext(until: instant.ticks) }) {
      action()
    }
    state.withLock { if $0.now < instant { $0.now = instant } }
  }

  /// Moves the clock forward by `stride`, letting other tasks run before each action and at the end.
  ///
  /// The `async` form of ``advance(by:)-23af7``, for code under test that awaits, such as a `for await` loop over a
  /// publisher's `values`: after each action, the task awaiting what it delivered gets a chance to take it before
  /// the clock moves on.
  ///
  /// - Parameter stride: How far to move the clock; zero by default.
  public func advance(by stride: SchedulerTimeType.Stride = 0) async {
    await advance(to: now.advanced(by: stride))
  }

  /// Moves the clock forward to `instant`, letting other tasks run before each action and at the end.
  ///
  /// The `async` form of ``advance(to:)-sy64``.
  ///
  /// - Parameter instant: The time to move the clock to.
  public func advance(to instant: SchedulerTimeType) async {
    await yieldToOtherTasks()
    while let action = state.withLock({ $0.takeNext(until: instant.ticks) }) {
      action()
      await yieldToOtherTasks()
    }
    state.withLock { if $0.now < instant { $0.now = instant } }
  }

  /// Runs scheduled actions in order, letting other tasks run before each one, until none remain.
  ///
  /// The `async` form of ``run(maxActions:)-7840k``.
  ///
  /// - Parameter maxActions: The most actions to run before returning.
  public func run(maxActions: Int = 1_000_000) async {
    await yieldToOtherTasks()
    var remaining = maxActions
    while remaining > 0, let action = state.withLock({ $0.takeNext(until: nil) }) {
      remaining -= 1
      action()
      await yieldToOtherTasks()
    }
  }

  /// Runs scheduled actions in order, moving the clock as needed, until none remain.
  ///
  /// Repeating actions never run out on their own: `run` stops after `maxActions` actions, leaving the clock
  /// at the date of the last one it ran.
  ///
  /// - Parameter maxActions: The most actions to run before returning.
  public func run(maxActions: Int = 1_000_000) {
    var remaining = maxActions
    while remaining > 0, let action = state.withLock({ $0.takeNext(until: nil) }) {
      remaining -= 1
      action()
    }
  }
}
