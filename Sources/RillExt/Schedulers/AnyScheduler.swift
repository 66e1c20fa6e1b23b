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
/// An `AnyScheduler` is `Sendable`, as combine-schedulers' is, and here that holds for every value: it wraps only a
/// `Sendable` scheduler (dispatch and operation queues and the virtual-time schedulers are) or a run loop (whose
/// scheduling calls are safe from any thread), and its closure-based initializer takes `@Sendable` closures. A
/// scheduler is called from whatever thread an operator runs on, so one that is not safe to share cannot be erased;
/// combine-schedulers erases any, and its closures may capture anything.
// SAFETY: immutable; every closure it stores is `@Sendable`, or forwards to a `Sendable` scheduler or a run loop,
// whose scheduling calls are safe from any thread.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  // Internal and `@usableFromInline`, so that the forwarding initializer is inlinable: the closures it makes are then
  // compiled where the wrapped scheduler's type is known, and call that scheduler in code specialised for it.
  @usableFromInline let minimumToleranceBody: () -> SchedulerTimeType.Stride
  @usableFromInline let nowBody: () -> SchedulerTimeType
  @usableFromInline let scheduleBody: (SchedulerOptions?, @escaping () -> Void) -> Void
  @usableFromInline let scheduleAfterBody:
    (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
  @usableFromInline let scheduleRepeatingBody:
    (
      SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
      @escaping () -> Void
    ) -> any Cancellable

  /// Creates a scheduler from closures, one for each requirement of `Scheduler`.
  ///
  /// Use it to build a scheduler in place, for example one that records what it is asked to do. The closures are
  /// `@Sendable`, as the scheduler may be called from any thread: what they capture must be safe to share.
  ///
  /// - Parameters:
  ///   - minimumTolerance: Returns the scheduler's minimum tolerance.
  ///   - now: Returns the scheduler's current time.
  ///   - scheduleImmediately: Runs an action as soon as possible.
  ///   - delayed: Runs an action after a date, within a tolerance.
  ///   - interval: Runs an action at a date and then repeatedly, returning a cancellable that stops it.
  public init(
    minimumTolerance: @escaping @Sendable () -> SchedulerTimeType.Stride,
    now: @escaping @Sendable () -> SchedulerTimeType,
    scheduleImmediately: @escaping @Sendable (SchedulerOptions?, @escaping () -> Void) -> Void,
    delayed:
      @escaping @Sendable (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) ->
      Void,
    interval:
      @escaping @Sendable (
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
  /// - Parameter scheduler: The scheduler to wrap, which must be `Sendable`: it is called from any thread.
  @inlinable
  public init<S: Scheduler & Sendable>(_ scheduler: S)
  where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
    self.init(forwardingTo: scheduler)
  }

  /// Creates a scheduler that forwards every call to the run loop `scheduler`.
  ///
  /// A run loop is not `Sendable`, but its scheduling calls are safe from any thread: they hand the action to the
  /// run loop, which runs it on its own thread.
  ///
  /// - Parameter scheduler: The run loop to wrap.
  @inlinable
  public init(_ scheduler: RunLoop)
  where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
    self.init(forwardingTo: scheduler)
  }

  @inlinable
  init<S: Scheduler>(forwardingTo scheduler: S)
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

extension Scheduler where Self: Sendable {
  /// Wraps this scheduler in an ``AnyScheduler``, hiding its concrete type.
  ///
  /// - Returns: A scheduler that forwards every call to this one.
  @inlinable
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

extension RunLoop {
  /// Wraps this run loop in an ``AnyScheduler``, hiding its concrete type.
  ///
  /// - Returns: A scheduler that forwards every call to this run loop.
  @inlinable
  public func eraseToAnyScheduler() -> AnySchedulerOf<RunLoop> {
    AnyScheduler(self)
  }
}

extension AnyScheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
  /// The main operation queue, erased.
  public static var main: Self { OperationQueue.main.eraseToAnyScheduler() }
}
