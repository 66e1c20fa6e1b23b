public import Dispatch
public import Foundation
public import Rill

/// A scheduler that forwards to another scheduler with the same time and options types, hiding its concrete type.
///
/// Code that schedules work can take an `AnyScheduler` instead of a concrete scheduler, so that the app passes a
/// real queue and a test passes a scheduler whose clock it controls:
///
/// ```swift
/// final class SearchModel {
///   let scheduler: AnySchedulerOf<DispatchQueue>
///   init(scheduler: AnySchedulerOf<DispatchQueue> = .main) { self.scheduler = scheduler }
/// }
///
/// let live = SearchModel()                                                  // DispatchQueue.main
/// let test = DispatchQueue.test
/// let model = SearchModel(scheduler: test.eraseToAnyScheduler())           // virtual time
/// ```
///
/// The spelling follows pointfreeco's combine-schedulers (`AnyScheduler`, ``AnySchedulerOf``,
/// `eraseToAnyScheduler()`, and the closure-based initializer), so code written against it builds unchanged.
///
/// Like combine-schedulers' type, an `AnyScheduler` is `Sendable` whatever it wraps: it holds no mutable state, and
/// the schedulers it is made for (queues, run loops, virtual-time schedulers) are safe to call from any thread.
// SAFETY: immutable; the stored closures forward to a scheduler, which schedulers make safe to call from any thread.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  private let minimumToleranceBody: () -> SchedulerTimeType.Stride
  private let nowBody: () -> SchedulerTimeType
  private let scheduleBody: (SchedulerOptions?, @escaping () -> Void) -> Void
  private let scheduleAfterBody:
    (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
  private let scheduleRepeatingBody:
    (
      SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
      @escaping () -> Void
    ) -> any Cancellable

  /// Creates a scheduler from closures, one for each requirement of `Scheduler`.
  ///
  /// Use it to build a scheduler in place, for example one that records what it is asked to do.
  ///
  /// - Parameters:
  ///   - minimumTolerance: Returns the scheduler's minimum tolerance.
  ///   - now: Returns the scheduler's current time.
  ///   - scheduleImmediately: Runs an action as soon as possible.
  ///   - delayed: Runs an action after a date, within a tolerance.
  ///   - interval: Runs an action at a date and then repeatedly, returning a cancellable that stops it.
  public init(
    minimumTolerance: @escaping () -> SchedulerTimeType.Stride,
    now: @escaping () -> SchedulerTimeType,
    scheduleImmediately: @escaping (SchedulerOptions?, @escaping () -> Void) -> Void,
    delayed: @escaping (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void,
    interval:
      @escaping (
        SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
        @escaping () -> Void
      ) -> any Cancellable
  ) {
    minimumToleranceBody = minimumTolerance
    nowBody = now
    scheduleBody = scheduleImmediately
    scheduleAfterBody = delayed
    scheduleRepeatingBody = interval
  }

  /// Creates a scheduler that forwards every call to `scheduler`.
  ///
  /// - Parameter scheduler: The scheduler to wrap.
  public init<S: Scheduler>(_ scheduler: S)
  where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
    minimumToleranceBody = { scheduler.minimumTolerance }
    nowBody = { scheduler.now }
    scheduleBody = { options, action in scheduler.schedule(options: options, action) }
    scheduleAfterBody = { date, tolerance, options, action in
      scheduler.schedule(after: date, tolerance: tolerance, options: options, action)
    }
    scheduleRepeatingBody = { date, interval, tolerance, options, action in
      scheduler.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
  }

  /// The wrapped scheduler's minimum tolerance.
  public var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceBody() }

  /// The wrapped scheduler's current time.
  public var now: SchedulerTimeType { nowBody() }

  /// Asks the wrapped scheduler to run `action` as soon as possible.
  ///
  /// - Parameters:
  ///   - options: Options for the wrapped scheduler.
  ///   - action: The action to run.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    scheduleBody(options, action)
  }

  /// Asks the wrapped scheduler to run `action` after `date`.
  ///
  /// - Parameters:
  ///   - date: The earliest time to run the action.
  ///   - tolerance: How late the action may run.
  ///   - options: Options for the wrapped scheduler.
  ///   - action: The action to run.
  public func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    scheduleAfterBody(date, tolerance, options, action)
  }

  /// Asks the wrapped scheduler to run `action` at `date` and then every `interval`.
  ///
  /// - Parameters:
  ///   - date: The time of the first run.
  ///   - interval: The time between runs.
  ///   - tolerance: How late each run may be.
  ///   - options: Options for the wrapped scheduler.
  ///   - action: The action to run.
  /// - Returns: The wrapped scheduler's cancellable, which stops the repetition.
  public func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    scheduleRepeatingBody(date, interval, tolerance, options, action)
  }
}

/// A type-erased scheduler with the time and options types of `Scheduler`.
///
/// `AnySchedulerOf<DispatchQueue>` accepts `DispatchQueue.main`, a `DispatchQueue.test` virtual-time scheduler, or
/// `DispatchQueue.immediate`, each erased with `eraseToAnyScheduler()`.
public typealias AnySchedulerOf<Scheduler> = AnyScheduler<
  Scheduler.SchedulerTimeType, Scheduler.SchedulerOptions
> where Scheduler: _CombineScheduler

extension Scheduler {
  /// Wraps this scheduler in an ``AnyScheduler``, hiding its concrete type.
  ///
  /// - Returns: A scheduler that forwards every call to this one.
  public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
    AnyScheduler(self)
  }
}

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
  /// The main dispatch queue, erased.
  public static var main: Self { DispatchQueue.main.eraseToAnyScheduler() }

  /// A global dispatch queue, erased.
  ///
  /// - Parameter qos: The quality of service of the queue.
  /// - Returns: The global queue of that quality of service, erased.
  public static func global(qos: DispatchQoS.QoSClass = .default) -> Self {
    DispatchQueue.global(qos: qos).eraseToAnyScheduler()
  }
}

extension AnyScheduler
where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
  /// The main run loop, erased.
  public static var main: Self { RunLoop.main.eraseToAnyScheduler() }
}

extension AnyScheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
  /// The main operation queue, erased.
  public static var main: Self { OperationQueue.main.eraseToAnyScheduler() }
}
