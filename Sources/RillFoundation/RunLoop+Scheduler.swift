public import Foundation
public import RillCore

extension RunLoop: Scheduler {
  /// The scheduler time type used by the run loop.
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The date represented by this type.
    public var date: Date

    /// Initializes a run loop scheduler time with the given date.
    public init(_ date: Date) {
      self.date = date
    }

    /// Returns the distance to another run loop scheduler time.
    public func distance(to other: SchedulerTimeType) -> Stride {
      Stride(other.date.timeIntervalSince(date))
    }

    /// Returns a run loop scheduler time calculated by advancing this instance's time by the given interval.
    public func advanced(by n: Stride) -> SchedulerTimeType {
      SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
    }

    /// The interval by which run loop times advance, in seconds.
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

      /// Creates a run loop scheduler time interval from the given time interval.
      public init(_ timeInterval: TimeInterval) {
        magnitude = timeInterval
      }

      /// Creates a run loop scheduler time interval from an integer seconds value.
      public init(integerLiteral value: TimeInterval) {
        magnitude = value
      }

      /// Creates a run loop scheduler time interval from a floating-point seconds value.
      public init(floatLiteral value: TimeInterval) {
        magnitude = value
      }

      /// Creates a run loop scheduler time interval from a binary integer type, if it can be represented exactly.
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

  /// Options that affect the operation of the run loop scheduler.
  public struct SchedulerOptions: Sendable {}

  /// The minimum tolerance allowed by the scheduler.
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  /// This scheduler's definition of the current moment in time.
  public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

  /// Performs the action on the run loop at the next possible opportunity.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    enqueue(RillScheduledAction(action))
  }

  /// Performs the action on the run loop at some time after the specified date.
  public func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    let work = RillScheduledAction(action)
    let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in work.run() }
    timer.tolerance = tolerance.timeInterval
    add(timer, forMode: .default)
  }

  /// Performs the action on the run loop at some time after the specified date, at the specified frequency,
  /// with a timer that the returned cancellable invalidates.
  public func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let work = RillScheduledAction(action)
    let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in work.run() }
    timer.tolerance = tolerance.timeInterval
    add(timer, forMode: .default)
    return AnyCancellable { timer.invalidate() }
  }
}

extension RunLoop: RepeatedActionScheduler {
  /// Wraps the action for the run loop once; each call queues it and wakes the run loop, as `schedule(options:_:)`
  /// does, without wrapping the action again.
  package func prepareRepeatedAction(options: SchedulerOptions?, _ action: @escaping () -> Void) -> () -> Void {
    let work = RillScheduledAction(action)
    return { self.enqueue(work) }
  }
}

extension RunLoop {
  /// Queues `work` with `perform`, and wakes the run loop if it sleeps, which `perform` does not.
  ///
  /// A timer that is due now wakes it, and the run loop runs the queued blocks, in order, right after the timer. One
  /// such timer at a time is enough: a block queued while one is pending runs when that timer fires, as it was
  /// queued before. So a burst of actions costs one timer, not one each.
  func enqueue(_ work: RillScheduledAction) {
    perform { work.run() }
    let identity = ObjectIdentifier(self)
    let needsTimer = pendingRunLoopWakes.withLock { pending in
      // An entry of a run loop that has gone, whose address this one now has, does not count.
      if pending[identity]?.runLoop === self { return false }
      pending[identity] = PendingRunLoopWake(runLoop: self)
      return true
    }
    guard needsTimer else { return }
    let timer = Timer(fire: Date(), interval: 0, repeats: false) { _ in
      // Before the run loop runs its queued blocks: a block queued from now on needs a timer of its own.
      _ = pendingRunLoopWakes.withLock { $0.removeValue(forKey: identity) }
    }
    add(timer, forMode: .default)
  }
}

/// The run loops that a timer, due now and not yet fired, will wake (`RunLoop.enqueue(_:)`).
private let pendingRunLoopWakes = Locked<[ObjectIdentifier: PendingRunLoopWake]>([:])

/// A run loop that a timer will wake; held weakly, so that an entry outlives no run loop.
// SAFETY: read and written only under `pendingRunLoopWakes`' lock, and only to compare identities.
private struct PendingRunLoopWake: @unchecked Sendable {
  weak var runLoop: RunLoop?
}
