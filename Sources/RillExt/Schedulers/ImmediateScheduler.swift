public import Dispatch
public import Foundation
public import Rill

/// A scheduler with any time type that runs every action at once, on the calling thread, and whose clock never
/// moves.
///
/// It is combine-schedulers' generic `ImmediateScheduler`: code hard-wired to a dispatch queue, run loop or operation
/// queue takes `DispatchQueue.immediate`, `RunLoop.immediate` or `OperationQueue.immediate` (each an
/// ``ImmediateSchedulerOf``) in a test or a preview, so that `receive(on:)` and `subscribe(on:)` deliver
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
/// Combine's own `ImmediateScheduler` has the same name without generic parameters, as it has next to
/// combine-schedulers' on Apple platforms. In an expression the two are told apart by the generic arguments:
/// `ImmediateScheduler.shared` is Combine's, `ImmediateScheduler<DispatchQueue.SchedulerTimeType, Never>(now:)` this
/// one. Where a type is expected, in a file that imports both `Rill` and `RillExt`, write ``ImmediateSchedulerOf``
/// or qualify the name: `Rill.ImmediateScheduler`, `RillExt.ImmediateScheduler<…>`.
///
/// Delays are ignored: `schedule(after:...)` runs its action at once. A repeating action runs once, at once, as in
/// combine-schedulers; for repeating timers or delays, use a ``TestScheduler``.
public struct ImmediateScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
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
  public func schedule(options: SchedulerOptions?, _ action: () -> Void) {
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
    _ action: () -> Void
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
    _ action: () -> Void
  ) -> any Cancellable {
    action()
    return AnyCancellable {}
  }
}

extension ImmediateScheduler: Sendable where SchedulerTimeType: Sendable, SchedulerTimeType.Stride: Sendable {}

/// The name this scheduler had in earlier versions of RillExt.
public typealias VirtualImmediateScheduler<SchedulerTimeType: Strideable, SchedulerOptions> =
  ImmediateScheduler<SchedulerTimeType, SchedulerOptions>
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

/// An immediate scheduler with the time and options types of `Scheduler`.
///
/// `ImmediateSchedulerOf<DispatchQueue>` is the type of `DispatchQueue.immediate`.
public typealias ImmediateSchedulerOf<Scheduler> = ImmediateScheduler<
  Scheduler.SchedulerTimeType, Scheduler.SchedulerOptions
> where Scheduler: _CombineScheduler

extension DispatchQueue {
  /// An immediate scheduler with a dispatch queue's time type, its clock at one nanosecond of uptime.
  public static var immediate: ImmediateSchedulerOf<DispatchQueue> {
    ImmediateScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

extension RunLoop {
  /// An immediate scheduler with a run loop's time type, its clock at the 1970 reference date.
  public static var immediate: ImmediateSchedulerOf<RunLoop> {
    ImmediateScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }
}

extension OperationQueue {
  /// An immediate scheduler with an operation queue's time type, its clock at the 1970 reference date.
  public static var immediate: ImmediateSchedulerOf<OperationQueue> {
    ImmediateScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
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

extension UIScheduler {
  /// An immediate scheduler with the UI scheduler's time type, its clock at one nanosecond of uptime.
  public static var immediate: ImmediateSchedulerOf<UIScheduler> {
    ImmediateScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

extension Scheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
  /// An immediate scheduler with a dispatch queue's time type; use `DispatchQueue.immediate`.
  @available(*, deprecated, renamed: "immediate")
  public static var immediateScheduler: ImmediateSchedulerOf<Self> {
    ImmediateScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

extension Scheduler
where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
  /// An immediate scheduler with a run loop's time type; use `RunLoop.immediate`.
  @available(*, deprecated, renamed: "immediate")
  public static var immediateScheduler: ImmediateSchedulerOf<Self> {
    ImmediateScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }
}

extension Scheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
  /// An immediate scheduler with an operation queue's time type; use `OperationQueue.immediate`.
  @available(*, deprecated, renamed: "immediate")
  public static var immediateScheduler: ImmediateSchedulerOf<Self> {
    ImmediateScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }
}
