public import Dispatch
public import Foundation
public import Rill

// combine-schedulers' names from before `UnimplementedScheduler`, deprecated on Apple platforms (as there) and
// kept so that older code builds.

/// The earlier name of ``UnimplementedScheduler``.
@available(iOS, deprecated: 9999.0, renamed: "UnimplementedScheduler")
@available(macOS, deprecated: 9999.0, renamed: "UnimplementedScheduler")
@available(tvOS, deprecated: 9999.0, renamed: "UnimplementedScheduler")
@available(watchOS, deprecated: 9999.0, renamed: "UnimplementedScheduler")
public typealias FailingScheduler = UnimplementedScheduler

/// The earlier name of ``UnimplementedSchedulerOf``.
@available(iOS, deprecated: 9999.0, renamed: "UnimplementedSchedulerOf")
@available(macOS, deprecated: 9999.0, renamed: "UnimplementedSchedulerOf")
@available(tvOS, deprecated: 9999.0, renamed: "UnimplementedSchedulerOf")
@available(watchOS, deprecated: 9999.0, renamed: "UnimplementedSchedulerOf")
public typealias FailingSchedulerOf = UnimplementedSchedulerOf

extension DispatchQueue {
  /// An unimplemented scheduler that stands in for a dispatch queue; the earlier name of `unimplemented`.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static var failing: UnimplementedSchedulerOf<DispatchQueue> { unimplemented }

  /// An unimplemented scheduler that stands in for a dispatch queue; the earlier name of `unimplemented(_:)`.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static func failing(_ prefix: String) -> UnimplementedSchedulerOf<DispatchQueue> { unimplemented(prefix) }
}

extension OperationQueue {
  /// An unimplemented scheduler that stands in for an operation queue; the earlier name of `unimplemented`.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static var failing: UnimplementedSchedulerOf<OperationQueue> { unimplemented }

  /// An unimplemented scheduler that stands in for an operation queue; the earlier name of `unimplemented(_:)`.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static func failing(_ prefix: String) -> UnimplementedSchedulerOf<OperationQueue> { unimplemented(prefix) }
}

extension RunLoop {
  /// An unimplemented scheduler that stands in for a run loop; the earlier name of `unimplemented`.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static var failing: UnimplementedSchedulerOf<RunLoop> { unimplemented }

  /// An unimplemented scheduler that stands in for a run loop; the earlier name of `unimplemented(_:)`.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static func failing(_ prefix: String) -> UnimplementedSchedulerOf<RunLoop> { unimplemented(prefix) }
}

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
  /// An unimplemented scheduler that stands in for a dispatch queue, erased; the earlier name of `unimplemented`.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static var failing: Self { unimplemented }

  /// An unimplemented scheduler that stands in for a dispatch queue, erased; the earlier name of `unimplemented(_:)`.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler, erased.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static func failing(_ prefix: String) -> Self { unimplemented(prefix) }
}

extension AnyScheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
  /// An unimplemented scheduler that stands in for an operation queue, erased; the earlier name of `unimplemented`.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static var failing: Self { unimplemented }

  /// An unimplemented scheduler that stands in for an operation queue, erased; the earlier name of `unimplemented(_:)`.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler, erased.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static func failing(_ prefix: String) -> Self { unimplemented(prefix) }
}

extension AnyScheduler
where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
  /// An unimplemented scheduler that stands in for a run loop, erased; the earlier name of `unimplemented`.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static var failing: Self { unimplemented }

  /// An unimplemented scheduler that stands in for a run loop, erased; the earlier name of `unimplemented(_:)`.
  ///
  /// - Parameter prefix: The text in front of every message of the scheduler.
  /// - Returns: An unimplemented scheduler, erased.
  @available(iOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(macOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(tvOS, deprecated: 9999.0, renamed: "unimplemented")
  @available(watchOS, deprecated: 9999.0, renamed: "unimplemented")
  public static func failing(_ prefix: String) -> Self { unimplemented(prefix) }
}
