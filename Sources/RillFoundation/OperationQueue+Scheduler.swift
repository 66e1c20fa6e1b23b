public import Foundation
public import RillCore

extension OperationQueue: Scheduler {
  /// The scheduler time type used by the operation queue.
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The date represented by this type.
    public var date: Date

    /// Initializes a operation queue scheduler time with the given date.
    public init(_ date: Date) {
      self.date = date
    }

    /// Returns the distance to another operation queue scheduler time.
    public func distance(to other: SchedulerTimeType) -> Stride {
      Stride(other.date.timeIntervalSince(date))
    }

    /// Returns a operation queue scheduler time calculated by advancing this instance's time by the given interval.
    public func advanced(by n: Stride) -> SchedulerTimeType {
      SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
    }

    /// The interval by which operation queue times advance, in seconds.
    public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable, Hashable, Sendable,
      SchedulerTimeIntervalConvertible
    {
      public typealias FloatLiteralType = TimeInterval
      public typealias IntegerLiteralType = TimeInterval
      public typealias Magnitude = TimeInterval

      /// The value of this time interval in seconds.
      public var magnitude: TimeInterval

      /// The value of this time interval in seconds.
      public var timeInterval: TimeInterval { magnitude }

      /// Creates a operation queue scheduler time interval from the given time interval.
      public init(_ timeInterval: TimeInterval) {
        magnitude = timeInterval
      }

      /// Creates a operation queue scheduler time interval from an integer seconds value.
      public init(integerLiteral value: TimeInterval) {
        magnitude = value
      }

      /// Creates a operation queue scheduler time interval from a floating-point seconds value.
      public init(floatLiteral value: TimeInterval) {
        magnitude = value
      }

      /// Creates a operation queue scheduler time interval from a binary integer type, if it can be represented exactly.
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = TimeInterval(exactly: source) else { return nil }
        magnitude = value
      }

      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

      public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }

      public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }

      public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }

      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

      /// Converts the specified number of seconds into a stride.
      public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }

      /// Converts the specified number of seconds, as a floating-point value, into a stride.
      public static func seconds(_ s: Double) -> Stride { Stride(s) }

      /// Converts the specified number of milliseconds into a stride.
      public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }

      /// Converts the specified number of microseconds into a stride.
      public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }

      /// Converts the specified number of nanoseconds into a stride.
      public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }
    }
  }

  /// Options that affect the operation of the operation queue scheduler.
  public struct SchedulerOptions: Sendable {}

  /// The minimum tolerance allowed by the scheduler.
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  /// This scheduler's definition of the current moment in time.
  public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

  /// Adds the action to the queue as a block operation.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    enqueue(RillScheduledAction(action))
  }

  /// Adds the action to the queue at once, as an operation that becomes ready at the specified date.
  public func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    let operation = RillDelayedOperation(action: RillScheduledAction(action), repetition: nil)
    addOperation(operation)
    operation.becomeReady(after: date.date.timeIntervalSinceNow)
  }

  /// Adds the action to the queue as an operation that becomes ready at the specified date; each time it runs, the
  /// next one is added, to become ready after `interval`, until the returned cancellable is cancelled.
  public func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let repetition = RillOperationRepetition(queue: self, interval: interval.timeInterval)
    let operation = RillDelayedOperation(action: RillScheduledAction(action), repetition: repetition)
    repetition.add(operation, after: date.date.timeIntervalSinceNow)
    return AnyCancellable(repetition)
  }
}

extension OperationQueue: RepeatedActionScheduler {
  /// Wraps the action for the operations once; each call adds a block operation that runs it, as
  /// `schedule(options:_:)` does, without wrapping the action again.
  package func prepareRepeatedAction(options: SchedulerOptions?, _ action: @escaping () -> Void) -> () -> Void {
    let work = RillScheduledAction(action)
    return { self.enqueue(work) }
  }
}

extension OperationQueue {
  /// Adds `work` to the queue as a block operation.
  func enqueue(_ work: RillScheduledAction) {
    addOperation(BlockOperation { work.run() })
  }
}

/// An operation that waits in its queue, not ready, until its date, then runs its action once, as the operations
/// of Combine's operation queue scheduler do: the queue holds it from the moment it is scheduled.
///
/// Cancelling it drops the action and makes it ready at once, so that the queue lets it go; running it again
/// (calling `main()`) does nothing.
// SAFETY: the mutable state is in `state`; the action and the repetition are called outside the lock.
final class RillDelayedOperation: Operation, Cancellable, @unchecked Sendable {
  private struct State {
    var action: RillScheduledAction?
    var isDue = false
  }

  private let state: Locked<State>

  /// The repetition this operation belongs to, if it repeats.
  private let repetition: RillOperationRepetition?

  init(action: RillScheduledAction, repetition: RillOperationRepetition?) {
    state = Locked(State(action: action))
    self.repetition = repetition
    super.init()
  }

  override var isReady: Bool {
    super.isReady && state.withLock { $0.isDue }
  }

  /// Makes the operation ready after `delay` seconds (at once for a date already passed).
  func becomeReady(after delay: TimeInterval) {
    DispatchQueue.global().asyncAfter(deadline: .now() + Swift.max(0, delay)) { [weak self] in
      self?.markDue()
    }
  }

  private func markDue() {
    guard !state.withLock({ $0.isDue }) else { return }
    willChangeValue(for: \.isReady)
    state.withLock { $0.isDue = true }
    didChangeValue(for: \.isReady)
  }

  override func main() {
    guard let action = state.withLock({ $0.action.take() }) else { return }
    // The next operation is in the queue before this one's action runs, so the interval is kept from start to
    // start, and a cancel from inside the action finds it.
    repetition?.add(RillDelayedOperation(action: action, repetition: repetition), after: nil)
    action.run()
  }

  override func cancel() {
    _ = state.withLock { $0.action.take() }
    super.cancel()
    markDue()
  }
}

/// A repeating schedule on an operation queue: the operation waiting for its turn, and the cancellation of the
/// whole schedule.
// SAFETY: the mutable state is in `state`; the queue and operations are called outside the lock.
final class RillOperationRepetition: Cancellable, @unchecked Sendable {
  private struct State {
    var pending: RillDelayedOperation?
    var isCancelled = false
  }

  private let queue: OperationQueue
  private let interval: TimeInterval
  private let state = Locked(State())

  init(queue: OperationQueue, interval: TimeInterval) {
    self.queue = queue
    self.interval = interval
  }

  /// Adds the schedule's next operation to the queue, to become ready after `delay` seconds, or after the
  /// interval when `delay` is `nil`; does nothing once the schedule is cancelled.
  func add(_ operation: RillDelayedOperation, after delay: TimeInterval?) {
    // The operation it replaces is released after unlocking.
    let (isAdded, replaced) = state.withLock { state -> (Bool, RillDelayedOperation?) in
      guard !state.isCancelled else { return (false, nil) }
      defer { state.pending = operation }
      return (true, state.pending)
    }
    _ = replaced
    guard isAdded else { return }
    queue.addOperation(operation)
    operation.becomeReady(after: delay ?? interval)
  }

  func cancel() {
    let pending = state.withLock { state -> RillDelayedOperation? in
      state.isCancelled = true
      return state.pending.take()
    }
    pending?.cancel()
  }
}
