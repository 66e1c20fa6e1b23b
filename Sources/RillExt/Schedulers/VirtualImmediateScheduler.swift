public import Dispatch
public import Foundation
public import Rill

/// A scheduler with any time type that runs every action at once, on the calling thread, and whose clock never
/// moves.
///
/// It is what combine-schedulers calls its generic `ImmediateScheduler`: code hard-wired to a dispatch queue, run
/// loop or operation queue takes `DispatchQueue.immediate`, `RunLoop.immediate` or `OperationQueue.immediate` (each
/// an ``ImmediateSchedulerOf``) in a test or a preview, so that `receive(on:)` and `subscribe(on:)` deliver
/// synchronously:
///
/// ```swift
/// var values: [Int] = []
/// let cancellable = [1, 2, 3].publisher
///   .receive(on: DispatchQueue.immediate)
///   .sink { values.append($0) }
/// // values == [1, 2, 3]
/// ```
///
/// Its name is not combine-schedulers' `ImmediateScheduler` because Combine's own non-generic
/// `ImmediateScheduler` has that name; ``ImmediateSchedulerOf`` keeps combine-schedulers' spelling.
///
/// Delays are ignored: `schedule(after:...)` runs its action at once. A repeating action runs once, at once, as in
/// combine-schedulers; for repeating timers or delays, use a ``VirtualTimeScheduler``.
public struct VirtualImmediateScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  /// The scheduler's time, which never changes.
  public let now: SchedulerTimeType

  /// Zero: the scheduler has no timing of its own.
  public var minimumTolerance: SchedulerTimeType.Stride { .zero }

  /// Creates an immediate scheduler whose clock stays at `now`.
  ///
  /// - Parameter now: The scheduler's time.
  public init(now: SchedulerTimeType) {
    self.now = now
  }

  /// Runs `action` at once.
  ///
  /// - Parameters:
  ///   - options: Ignored.
  ///   - action: The action to run.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    action()
  }

  /// Runs `action` at once, whatever `date` is.
  ///
  /// - Parameters:
  ///   - date: Ignored.
  ///   - tolerance: Ignored.
  ///   - options: Ignored.
  ///   - action: The action to run.
  public func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    action()
  }

  /// Runs `action` once, at once.
  ///
  /// - Parameters:
  ///   - date: Ignored.
  ///   - interval: Ignored.
  ///   - tolerance: Ignored.
  ///   - options: Ignored.
  ///   - action: The action to run.
  /// - Returns: A cancellable with nothing left to cancel.
  public func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    action()
    return AnyCancellable {}
  }
}

extension VirtualImmediateScheduler: Sendable where SchedulerTimeType: Sendable {}

/// An immediate scheduler with the time and options types of scheduler `S`.
///
/// combine-schedulers' spelling for its generic `ImmediateScheduler`; here it names a ``VirtualImmediateScheduler``.
public typealias ImmediateSchedulerOf<S: Scheduler> = VirtualImmediateScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension DispatchQueue {
  /// An immediate scheduler with a dispatch queue's time type, its clock at one nanosecond of uptime.
  public static var immediate: ImmediateSchedulerOf<DispatchQueue> {
    VirtualImmediateScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

extension RunLoop {
  /// An immediate scheduler with a run loop's time type, its clock at the 1970 reference date.
  public static var immediate: ImmediateSchedulerOf<RunLoop> {
    VirtualImmediateScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }
}

extension OperationQueue {
  /// An immediate scheduler with an operation queue's time type, its clock at the 1970 reference date.
  public static var immediate: ImmediateSchedulerOf<OperationQueue> {
    VirtualImmediateScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }
}

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
  /// An immediate scheduler with a dispatch queue's time type, erased.
  public static var immediate: Self { DispatchQueue.immediate.eraseToAnyScheduler() }
}

extension AnyScheduler
where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
  /// An immediate scheduler with a run loop's time type, erased.
  public static var immediate: Self { RunLoop.immediate.eraseToAnyScheduler() }
}

extension AnyScheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
  /// An immediate scheduler with an operation queue's time type, erased.
  public static var immediate: Self { OperationQueue.immediate.eraseToAnyScheduler() }
}
