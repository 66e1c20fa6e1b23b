@preconcurrency public import Dispatch
public import Rill

/// A scheduler that runs its work on the main queue, at once when it is already there.
///
/// `DispatchQueue.main.schedule` always hops: the action runs on a later turn of the main queue, even when the
/// caller is on it. `UIScheduler.shared` runs the action right away in that case, and hands it to the main queue
/// otherwise. That suits work that must happen on the main thread as soon as possible, such as a UI update that
/// should land in the same frame:
///
/// ```swift
/// model.$title
///   .receive(on: UIScheduler.shared)
///   .sink { label.text = $0 }
/// ```
///
/// Delayed and repeating actions always go through the main queue. The time type is the dispatch queue's, and
/// the scheduler takes no options.
///
/// On Linux the main queue runs where the program lets it: under `dispatchMain()`, the main thread's `RunLoop`,
/// or the main actor's executor. Code running on the main queue (in one of its blocks, on the main actor, or on
/// the main thread of a program that runs a `RunLoop` there) gets its action at once. Under `dispatchMain()`,
/// Linux runs the main queue's blocks on a worker thread, so there the action runs on the main queue but not on
/// the main thread.
public struct UIScheduler: Scheduler, Sendable {
  public typealias SchedulerOptions = Never
  public typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType

  /// The one UI scheduler; there is no other way to make one.
  public static let shared = Self()

  /// The main queue's time.
  public var now: SchedulerTimeType { DispatchQueue.main.now }

  /// The main queue's minimum tolerance.
  public var minimumTolerance: SchedulerTimeType.Stride { DispatchQueue.main.minimumTolerance }

  private init() {
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: mainQueueMark)
  }

  /// Runs `action` at once when called on the main queue, and schedules it on the main queue otherwise.
  ///
  /// - Parameters:
  ///   - options: Unused: the scheduler takes no options.
  ///   - action: The action to run.
  public func schedule(options: SchedulerOptions? = nil, _ action: @escaping () -> Void) {
    if DispatchQueue.getSpecific(key: mainQueueKey) == mainQueueMark {
      action()
    } else {
      DispatchQueue.main.schedule(action)
    }
  }

  /// Schedules `action` on the main queue after `date`.
  ///
  /// - Parameters:
  ///   - date: The earliest time to run the action.
  ///   - tolerance: How late the action may run.
  ///   - options: Unused: the scheduler takes no options.
  ///   - action: The action to run.
  public func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions? = nil,
    _ action: @escaping () -> Void
  ) {
    DispatchQueue.main.schedule(after: date, tolerance: tolerance, options: nil, action)
  }

  /// Schedules `action` on the main queue at `date` and then every `interval`.
  ///
  /// - Parameters:
  ///   - date: The time of the first run.
  ///   - interval: The time between runs.
  ///   - tolerance: How late each run may be.
  ///   - options: Unused: the scheduler takes no options.
  ///   - action: The action to run.
  /// - Returns: A cancellable that stops the repetition.
  public func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions? = nil,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    DispatchQueue.main.schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
  }
}

extension AnyScheduler where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == Never {
  /// The UI scheduler, erased.
  public static var shared: Self { UIScheduler.shared.eraseToAnyScheduler() }
}

/// Marks the main queue, so that ``UIScheduler`` can tell that it runs on it.
private let mainQueueKey = DispatchSpecificKey<UInt8>()
private let mainQueueMark: UInt8 = 0
