public import Dispatch
public import Foundation
public import Rill

/// A scheduler that fails the test that uses it.
///
/// Give code under test an unimplemented scheduler where the behaviour you test should need no scheduling: the
/// test then states that it does not, and fails as soon as the code starts to schedule work, instead of passing
/// while another scheduler quietly takes the new work.
///
/// ```swift
/// final class EpisodeModel {
///   var isFavorite = false
///   let mainQueue: AnySchedulerOf<DispatchQueue>
///   init(mainQueue: AnySchedulerOf<DispatchQueue>) { self.mainQueue = mainQueue }
///   func favoriteButtonTapped() { isFavorite.toggle() }
/// }
///
/// @Test func favoriting() {
///   let model = EpisodeModel(mainQueue: .unimplemented)
///   model.favoriteButtonTapped()
///   #expect(model.isFavorite)
/// }
/// ```
///
/// Scheduling an action, reading ``now`` or reading ``minimumTolerance`` reports the use, with ``prefix`` in front
/// of the message, such as `"DispatchQueue - An unimplemented scheduler scheduled an action to run later."`.
/// In a test process the report stops the process with that message; combine-schedulers records an XCTest or
/// Swift Testing failure instead, which RillExt cannot do without linking those libraries. Outside a test the
/// message goes to standard error, and the action runs at once, as it does in combine-schedulers.
public struct UnimplementedScheduler<SchedulerTimeType, SchedulerOptions>: Scheduler
where SchedulerTimeType: Strideable, SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  /// The text in front of every message of this scheduler, naming the scheduler it stands in for.
  public let prefix: String

  private let unreportedNow: SchedulerTimeType

  /// Creates an unimplemented scheduler.
  ///
  /// - Parameters:
  ///   - prefix: The text in front of every message of this scheduler, naming the scheduler it stands in for.
  ///   - now: The time that ``now`` returns, after reporting.
  public init(_ prefix: String = "", now: SchedulerTimeType) {
    self.prefix = prefix
    self.unreportedNow = now
  }

  /// Reports the use, then returns zero.
  public var minimumTolerance: SchedulerTimeType.Stride {
    report("An unimplemented scheduler was asked its minimum tolerance.")
    return .zero
  }

  /// Reports the use, then returns the time given to the initializer.
  public var now: SchedulerTimeType {
    report("An unimplemented scheduler was asked the current time.")
    return unreportedNow
  }

  /// Reports the use, then runs `action` at once.
  ///
  /// - Parameters:
  ///   - options: Ignored.
  ///   - action: The action, run after the report.
  public func schedule(options: SchedulerOptions?, _ action: () -> Void) {
    report("An unimplemented scheduler scheduled an action to run immediately.")
    action()
  }

  /// Reports the use, then runs `action` at once.
  ///
  /// - Parameters:
  ///   - date: Ignored.
  ///   - tolerance: Ignored.
  ///   - options: Ignored.
  ///   - action: The action, run after the report.
  public func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: () -> Void
  ) {
    report("An unimplemented scheduler scheduled an action to run later.")
    action()
  }

  /// Reports the use, then runs `action` once, at once.
  ///
  /// - Parameters:
  ///   - date: Ignored.
  ///   - interval: Ignored.
  ///   - tolerance: Ignored.
  ///   - options: Ignored.
  ///   - action: The action, run after the report.
  /// - Returns: A cancellable with nothing left to cancel.
  public func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: () -> Void
  ) -> any Cancellable {
    report("An unimplemented scheduler scheduled an action to run on a timer.")
    action()
    return AnyCancellable {}
  }

  private func report(_ message: String) {
    UnimplementedFailure.report(prefix.isEmpty ? message : "\(prefix) - \(message)")
  }
}

extension UnimplementedScheduler: Sendable where SchedulerTimeType: Sendable, SchedulerTimeType.Stride: Sendable {}

/// An unimplemented scheduler with the time and options types of `Scheduler`.
///
/// `UnimplementedSchedulerOf<DispatchQueue>` is the type of `DispatchQueue.unimplemented`.
public typealias UnimplementedSchedulerOf<Scheduler> = UnimplementedScheduler<
  Scheduler.SchedulerTimeType, Scheduler.SchedulerOptions
> where Scheduler: _CombineScheduler

extension DispatchQueue {
  /// An unimplemented scheduler that stands in for a dispatch queue, its messages prefixed with `DispatchQueue`.
  public static var unimplemented: UnimplementedSchedulerOf<DispatchQueue> {
    unimplemented("DispatchQueue")
  }

  /// An unimplemented scheduler that stands in for a dispatch queue, its clock at one nanosecond of uptime.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler.
  public static func unimplemented(_ prefix: String) -> UnimplementedSchedulerOf<DispatchQueue> {
    UnimplementedScheduler(prefix, now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

extension OperationQueue {
  /// An unimplemented scheduler that stands in for an operation queue, its messages prefixed with
  /// `OperationQueue`.
  public static var unimplemented: UnimplementedSchedulerOf<OperationQueue> {
    unimplemented("OperationQueue")
  }

  /// An unimplemented scheduler that stands in for an operation queue, its clock at the 1970 reference date.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler.
  public static func unimplemented(_ prefix: String) -> UnimplementedSchedulerOf<OperationQueue> {
    UnimplementedScheduler(prefix, now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }
}

extension RunLoop {
  /// An unimplemented scheduler that stands in for a run loop, its messages prefixed with `RunLoop`.
  public static var unimplemented: UnimplementedSchedulerOf<RunLoop> {
    unimplemented("RunLoop")
  }

  /// An unimplemented scheduler that stands in for a run loop, its clock at the 1970 reference date.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler.
  public static func unimplemented(_ prefix: String) -> UnimplementedSchedulerOf<RunLoop> {
    UnimplementedScheduler(prefix, now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }
}

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
  /// An unimplemented scheduler that stands in for a dispatch queue, erased.
  public static var unimplemented: Self { DispatchQueue.unimplemented.eraseToAnyScheduler() }

  /// An unimplemented scheduler that stands in for a dispatch queue, erased.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler, erased.
  public static func unimplemented(_ prefix: String) -> Self {
    DispatchQueue.unimplemented(prefix).eraseToAnyScheduler()
  }
}

extension AnyScheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
  /// An unimplemented scheduler that stands in for an operation queue, erased.
  public static var unimplemented: Self { OperationQueue.unimplemented.eraseToAnyScheduler() }

  /// An unimplemented scheduler that stands in for an operation queue, erased.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler, erased.
  public static func unimplemented(_ prefix: String) -> Self {
    OperationQueue.unimplemented(prefix).eraseToAnyScheduler()
  }
}

extension AnyScheduler
where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
  /// An unimplemented scheduler that stands in for a run loop, erased.
  public static var unimplemented: Self { RunLoop.unimplemented.eraseToAnyScheduler() }

  /// An unimplemented scheduler that stands in for a run loop, erased.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler, erased.
  public static func unimplemented(_ prefix: String) -> Self {
    RunLoop.unimplemented(prefix).eraseToAnyScheduler()
  }
}
