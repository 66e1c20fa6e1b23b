public import Dispatch
public import Foundation
public import Rill

/// A scheduler with any time type whose clock moves only when a test tells it to.
///
/// It is combine-schedulers' `TestScheduler`: code hard-wired to a dispatch queue, run loop or operation queue takes
/// `DispatchQueue.test`, `RunLoop.test` or `OperationQueue.test` (each a ``TestSchedulerOf``) in a test, and the
/// test moves time with ``advance(by:)-9jw2p``, ``advance(to:)-1ts70`` or ``run()-7zc7w``:
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// var fired: [String] = []
/// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { fired.append("two") }
/// scheduler.schedule { fired.append("now") }
/// scheduler.advance()                      // fired == ["now"]
/// scheduler.advance(by: .seconds(2))       // fired == ["now", "two"]
/// ```
///
/// RillTesting has a `TestScheduler` of its own, without generic parameters, whose time is counted in ticks for
/// marble diagrams. In an expression the two are told apart by the generic arguments: `TestScheduler()` is
/// RillTesting's, `TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>(now:)` this one.
/// Where a type is expected, in a file that imports both modules, write ``TestSchedulerOf`` or qualify the name:
/// `RillTesting.TestScheduler`, `RillExt.TestScheduler<…>`.
///
/// Actions run on the thread that advances the clock, in date order; actions due at the same date run in the order
/// they were first scheduled. An action may schedule, cancel or advance further. A date in the past means now: the
/// clock never moves backwards. The scheduler is thread-safe and never runs an action while holding its lock.
// SAFETY: all mutable state is in `state`; actions run after the lock is released.
public final class TestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler,
  @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  /// A queued action; see ``VirtualTimeEntry`` for why its types are its own generic parameters.
  @usableFromInline
  typealias Entry = VirtualTimeEntry<SchedulerTimeType, SchedulerTimeType.Stride>

  @usableFromInline
  struct State {
    @usableFromInline
    var now: SchedulerTimeType
    @usableFromInline
    var lastSequence = 0
    /// Sorted by date, then by sequence.
    @usableFromInline
    var queue: [Entry] = []

    @inlinable
    mutating func nextSequence() -> Int {
      lastSequence += 1
      return lastSequence
    }

    @inlinable
    mutating func insert(_ entry: Entry) {
      var index = queue.endIndex
      while index > queue.startIndex,
        queue[index - 1].date > entry.date
          || (queue[index - 1].date == entry.date && queue[index - 1].sequence > entry.sequence)
      {
        index -= 1
      }
      queue.insert(entry, at: index)
    }

    @inlinable
    mutating func enqueue(
      date: SchedulerTimeType,
      interval: SchedulerTimeType.Stride?,
      action: @escaping () -> Void
    ) -> Int {
      let sequence = nextSequence()
      insert(Entry(sequence: sequence, date: Swift.max(date, now), interval: interval, action: action))
      return sequence
    }

    /// Takes the first action due by `instant`, moving the clock to its date and queueing its next repetition.
    @inlinable
    mutating func takeNext(until instant: SchedulerTimeType) -> (() -> Void)? {
      guard let first = queue.first, first.date <= Swift.max(instant, now) else { return nil }
      queue.removeFirst()
      if first.date > now { now = first.date }
      if let interval = first.interval {
        insert(
          Entry(
            sequence: first.sequence,
            date: first.date.advanced(by: interval),
            interval: interval,
            action: first.action
          )
        )
      }
      return first.action
    }

    @inlinable
    init(now: SchedulerTimeType, lastSequence: Int = 0, queue: [Entry] = []) {
      self.now = now
      self.lastSequence = lastSequence
      self.queue = queue
    }
  }

  @usableFromInline
  let state: Locked<State>

  /// Creates a virtual-time scheduler whose clock starts at `now`.
  ///
  /// - Parameter now: The starting time.
  @inlinable
  public init(now: SchedulerTimeType) {
    state = Locked(State(now: now))
  }

  /// The scheduler's current virtual time.
  @inlinable
  public var now: SchedulerTimeType { state.withLock { $0.now } }

  /// Zero: virtual time is exact.
  @inlinable
  public var minimumTolerance: SchedulerTimeType.Stride { .zero }

  /// The number of actions waiting to run, counting each repeating action once.
  @inlinable
  public var scheduledActionCount: Int { state.withLock { $0.queue.count } }

  /// Schedules `action` to run at the current time, on the next advance.
  ///
  /// - Parameters:
  ///   - options: Ignored.
  ///   - action: The action to run.
  @inlinable
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    state.withLock { _ = $0.enqueue(date: $0.now, interval: nil, action: action) }
  }

  /// Schedules `action` to run when the clock reaches `date`.
  ///
  /// - Parameters:
  ///   - date: The time to run the action at; a past date means now.
  ///   - tolerance: Ignored: virtual time is exact.
  ///   - options: Ignored.
  ///   - action: The action to run.
  @inlinable
  public func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    state.withLock { _ = $0.enqueue(date: date, interval: nil, action: action) }
  }

  /// Schedules `action` to run at `date` and then every `interval`, until the returned cancellable cancels.
  ///
  /// The cancellable removes the action, and with it everything the action captured; releasing the cancellable
  /// cancels too, as a dispatch queue's timer does.
  ///
  /// - Parameters:
  ///   - date: The time of the first run; a past date means now.
  ///   - interval: The time between runs; a zero or negative interval is taken as one nanosecond.
  ///   - tolerance: Ignored: virtual time is exact.
  ///   - options: Ignored.
  ///   - action: The action to run.
  /// - Returns: A cancellable that stops the repetition.
  @inlinable
  public func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    // A zero interval (`debounce(for: 0)`, say) repeats one nanosecond later, as the real schedulers clamp it.
    let interval = interval > .zero ? interval : .nanoseconds(1)
    let sequence = state.withLock { $0.enqueue(date: date, interval: interval, action: action) }
    return AnyCancellable { [weak self] in
      // The removed entry is released after the lock, in case releasing its action runs code that calls back.
      let removed = self?.state.withLock { state -> [Entry] in
        let removed = state.queue.filter { $0.sequence == sequence }
        state.queue.removeAll { $0.sequence == sequence }
        return removed
      }
      _ = removed
    }
  }

  /// Moves the clock forward by `duration`, running every action that falls due on the way, in order.
  ///
  /// - Parameter duration: How far to move the clock. The default, zero, runs the actions due now.
  @inlinable
  public func advance(by duration: SchedulerTimeType.Stride = .zero) {
    advance(to: now.advanced(by: duration))
  }

  /// Moves the clock forward to `instant`, running every action that falls due on the way, in order.
  ///
  /// An instant in the past runs the actions due now and leaves the clock where it is.
  ///
  /// - Parameter instant: The time to move the clock to.
  @inlinable
  public func advance(to instant: SchedulerTimeType) {
    while let action = state.withLock({ $0.takeNext(until: instant) }) {
      action()
    }
    state.withLock { state in
      if instant > state.now { state.now = instant }
    }
  }

  /// Runs actions, moving the clock to each one's date, until none is left.
  ///
  /// A repeating action that nobody cancels keeps the queue from ever emptying, so `run()` does not return; end
  /// such a pipeline first (with `prefix(_:)`, for example), or use ``advance(by:)-9jw2p``.
  @inlinable
  public func run() {
    while let next = state.withLock({ $0.queue.first?.date }) {
      advance(to: next)
    }
  }

  /// Runs actions, moving the clock to each one's date, until none is left or `maxActions` have run.
  ///
  /// RillTesting's marble helpers run the scheduler with it, so that a repeating action cannot keep a test from
  /// ending.
  package func run(maxActions: Int) {
    var count = 0
    while count < maxActions,
      let action = state.withLock({ state in
        state.queue.first.flatMap { state.takeNext(until: $0.date) }
      })
    {
      action()
      count += 1
    }
  }
}

extension TestScheduler {
  /// Moves the clock forward by `duration`, letting other tasks run before each action and at the end.
  ///
  /// The `async` form of ``advance(by:)-9jw2p``, for code under test that awaits, such as a `for await` loop over a
  /// publisher's `values`: after each action, the task awaiting what it delivered gets a chance to take it before
  /// the clock moves on. As in combine-schedulers, it runs on the main actor.
  ///
  /// - Parameter duration: How far to move the clock. The default, zero, runs the actions due now.
  @MainActor
  public func advance(by duration: SchedulerTimeType.Stride = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves the clock forward to `instant`, letting other tasks run before each action and at the end.
  ///
  /// The `async` form of ``advance(to:)-1ts70``.
  ///
  /// - Parameter instant: The time to move the clock to.
  @MainActor
  public func advance(to instant: SchedulerTimeType) async {
    await yieldToOtherTasks()
    while let action = state.withLock({ $0.takeNext(until: instant) }) {
      action()
      await yieldToOtherTasks()
    }
    state.withLock { state in
      if instant > state.now { state.now = instant }
    }
  }

  /// Runs actions, letting other tasks run before each one, until none is left.
  ///
  /// The `async` form of ``run()-7zc7w``.
  @MainActor
  public func run() async {
    await yieldToOtherTasks()
    while let next = state.withLock({ $0.queue.first?.date }) {
      await advance(to: next)
    }
  }
}

/// The name this scheduler had in earlier versions of RillExt.
public typealias VirtualTimeScheduler<SchedulerTimeType: Strideable, SchedulerOptions> =
  TestScheduler<SchedulerTimeType, SchedulerOptions>
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

/// A virtual-time scheduler with the time and options types of `Scheduler`.
///
/// `TestSchedulerOf<DispatchQueue>` is the type of `DispatchQueue.test`.
public typealias TestSchedulerOf<Scheduler> = TestScheduler<
  Scheduler.SchedulerTimeType, Scheduler.SchedulerOptions
> where Scheduler: _CombineScheduler

extension DispatchQueue {
  /// A new virtual-time scheduler with a dispatch queue's time type, its clock at one nanosecond of uptime.
  public static var test: TestSchedulerOf<DispatchQueue> {
    // DispatchTime(uptimeNanoseconds: 0) means "now" to Dispatch, so the clock starts at 1.
    TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

extension RunLoop {
  /// A new virtual-time scheduler with a run loop's time type, its clock at the 1970 reference date.
  public static var test: TestSchedulerOf<RunLoop> {
    TestScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }
}

extension OperationQueue {
  /// A new virtual-time scheduler with an operation queue's time type, its clock at the 1970 reference date.
  public static var test: TestSchedulerOf<OperationQueue> {
    TestScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }
}

extension UIScheduler {
  /// A new virtual-time scheduler with the UI scheduler's time type, its clock at one nanosecond of uptime.
  public static var test: TestSchedulerOf<UIScheduler> {
    TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

extension Scheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
  /// A new virtual-time scheduler with a dispatch queue's time type; use `DispatchQueue.test`.
  @available(*, deprecated, renamed: "test")
  public static var testScheduler: TestSchedulerOf<Self> {
    TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

extension Scheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
  /// A new virtual-time scheduler with an operation queue's time type; use `OperationQueue.test`.
  @available(*, deprecated, renamed: "test")
  public static var testScheduler: TestSchedulerOf<Self> {
    TestScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }
}

extension Scheduler
where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
  /// A new virtual-time scheduler with a run loop's time type; use `RunLoop.test`.
  @available(*, deprecated, renamed: "test")
  public static var testScheduler: TestSchedulerOf<Self> {
    TestScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }
}
