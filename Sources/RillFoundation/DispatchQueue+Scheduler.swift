public import Dispatch
public import RillCore

extension DispatchQueue: Scheduler {
  /// The scheduler time type used by the dispatch queue.
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The dispatch time represented by this type.
    public var dispatchTime: DispatchTime

    /// Creates a dispatch queue time type instance.
    public init(_ time: DispatchTime) {
      dispatchTime = time
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(dispatchTime.uptimeNanoseconds)
    }

    /// Returns the distance to another dispatch queue time.
    ///
    /// As in Combine, a distance too long for a stride, in either direction, is `.max`: the stride of
    /// `DispatchTimeInterval.never`.
    public func distance(to other: SchedulerTimeType) -> Stride {
      let start = dispatchTime.uptimeNanoseconds
      let end = other.dispatchTime.uptimeNanoseconds
      let length = end >= start ? end - start : start - end
      guard length <= UInt64(Int.max) else { return .nanoseconds(.max) }
      return .nanoseconds(end >= start ? Int(length) : -Int(length))
    }

    /// Returns a dispatch queue scheduler time calculated by advancing this instance's time by the given
    /// interval.
    ///
    /// As with Dispatch's own time arithmetic, the result saturates: past the latest time it is the distant
    /// future, which advancing never leaves, and before the earliest it is one nanosecond after boot.
    public func advanced(by n: Stride) -> SchedulerTimeType {
      guard dispatchTime != .distantFuture, n.magnitude != .max else { return SchedulerTimeType(.distantFuture) }
      let (moved, overflow) = Int(clamping: dispatchTime.uptimeNanoseconds).addingReportingOverflow(n.magnitude)
      guard !overflow else { return SchedulerTimeType(.distantFuture) }
      return SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(Swift.max(moved, 1))))
    }

    public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(dispatchTime.uptimeNanoseconds)
    }

    /// A type that represents the distance between two dispatch queue times, in nanoseconds.
    ///
    /// As in Combine, conversions and arithmetic clamp to the range of `Int` rather than trap on overflow, and
    /// the encoded form keys the nanoseconds as `_nanoseconds`.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
      Hashable, Codable, Sendable
    {
      public typealias FloatLiteralType = Double
      public typealias IntegerLiteralType = Int
      public typealias Magnitude = Int

      /// The value of this time interval in nanoseconds.
      public var magnitude: Int

      private enum CodingKeys: String, CodingKey {
        case magnitude = "_nanoseconds"
      }

      /// A `DispatchTimeInterval` created with the value of this type in nanoseconds.
      public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

      /// Creates a dispatch queue time interval from a dispatch time interval.
      public init(_ timeInterval: DispatchTimeInterval) {
        switch timeInterval {
        case .seconds(let s): magnitude = Self.clampedProduct(s, 1_000_000_000)
        case .milliseconds(let ms): magnitude = Self.clampedProduct(ms, 1_000_000)
        case .microseconds(let us): magnitude = Self.clampedProduct(us, 1_000)
        case .nanoseconds(let ns): magnitude = ns
        case .never: magnitude = .max
        @unknown default: magnitude = .max
        }
      }

      private init(nanoseconds: Int) {
        magnitude = nanoseconds
      }

      /// Creates a dispatch queue time interval from a floating-point seconds value.
      public init(floatLiteral value: Double) {
        magnitude = Self.clamped((value * 1_000_000_000).rounded())
      }

      /// Creates a dispatch queue time interval from an integer seconds value.
      public init(integerLiteral value: Int) {
        magnitude = Self.clampedProduct(value, 1_000_000_000)
      }

      /// Creates a dispatch queue time interval from a binary integer seconds value, if it fits in an `Int`.
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let seconds = Int(exactly: source) else { return nil }
        magnitude = Self.clampedProduct(seconds, 1_000_000_000)
      }

      /// `value * unit`, or the nearest end of `Int`'s range when the product overflows; `unit` is positive.
      private static func clampedProduct(_ value: Int, _ unit: Int) -> Int {
        let (product, overflow) = value.multipliedReportingOverflow(by: unit)
        guard overflow else { return product }
        return value > 0 ? .max : .min
      }

      /// `nanoseconds` truncated to an `Int`, or the nearest end of `Int`'s range when it lies outside.
      private static func clamped(_ nanoseconds: Double) -> Int {
        if nanoseconds >= Double(Int.max) { return .max }
        if nanoseconds <= Double(Int.min) { return .min }
        return Int(nanoseconds)
      }

      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(nanoseconds: clamped(Double(lhs.magnitude) * Double(rhs.magnitude) / 1_000_000_000))
      }

      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        let (sum, overflow) = lhs.magnitude.addingReportingOverflow(rhs.magnitude)
        return Stride(nanoseconds: overflow ? (rhs.magnitude > 0 ? .max : .min) : sum)
      }

      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        let (difference, overflow) = lhs.magnitude.subtractingReportingOverflow(rhs.magnitude)
        return Stride(nanoseconds: overflow ? (rhs.magnitude < 0 ? .max : .min) : difference)
      }

      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

      /// Converts the specified number of seconds into a stride.
      public static func seconds(_ s: Int) -> Stride { Stride(.seconds(s)) }

      /// Converts the specified number of seconds, as a floating-point value, into a stride.
      public static func seconds(_ s: Double) -> Stride { Stride(floatLiteral: s) }

      /// Converts the specified number of milliseconds into a stride.
      public static func milliseconds(_ ms: Int) -> Stride { Stride(.milliseconds(ms)) }

      /// Converts the specified number of microseconds into a stride.
      public static func microseconds(_ us: Int) -> Stride { Stride(.microseconds(us)) }

      /// Converts the specified number of nanoseconds into a stride.
      public static func nanoseconds(_ ns: Int) -> Stride { Stride(.nanoseconds(ns)) }
    }
  }

  /// Options that affect the operation of the dispatch queue scheduler.
  public struct SchedulerOptions {
    /// The dispatch queue quality of service.
    public var qos: DispatchQoS

    /// The dispatch queue work item flags.
    public var flags: DispatchWorkItemFlags

    /// The dispatch group, if any, that should be used for performing actions.
    public var group: DispatchGroup?

    /// Creates scheduler options for a dispatch queue.
    public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
      self.qos = qos
      self.flags = flags
      self.group = group
    }
  }

  /// The minimum tolerance allowed by the scheduler.
  public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

  /// This scheduler's definition of the current moment in time.
  public var now: SchedulerTimeType { SchedulerTimeType(DispatchTime.now()) }

  /// Performs the action on the queue at the next possible opportunity.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    let work = Self.block(action)
    guard let options else {
      async(execute: work)
      return
    }
    async(group: options.group, qos: options.qos, flags: options.flags, execute: work)
  }

  /// Performs the action on the queue at some time after the specified date.
  public func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    let options = options ?? SchedulerOptions()
    asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags, execute: Self.block(action))
  }

  /// Performs the action on the queue at some time after the specified date, at the specified frequency, with
  /// a timer source that the returned cancellable cancels.
  public func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let work = RillScheduledAction(action)
    let options = options ?? SchedulerOptions()
    let timer = DispatchSource.makeTimerSource(queue: self)
    timer.setEventHandler(qos: options.qos, flags: options.flags) { work.run() }
    timer.schedule(
      deadline: date.dispatchTime,
      repeating: .nanoseconds(Swift.max(interval.magnitude, 1)),
      leeway: .nanoseconds(Swift.max(tolerance.magnitude, 0))
    )
    timer.activate()
    return AnyCancellable { timer.cancel() }
  }
}

extension DispatchQueue: RepeatedActionScheduler {
  /// Makes the action a heap block once; each call schedules that block, which Dispatch then only retains,
  /// where `schedule(options:_:)` copies a new block to the heap for every action.
  package func prepareRepeatedAction(options: SchedulerOptions?, _ action: @escaping () -> Void) -> () -> Void {
    let work = Self.block(action)
    guard let options else {
      return { self.async(execute: work) }
    }
    return { self.async(group: options.group, qos: options.qos, flags: options.flags, execute: work) }
  }
}

extension DispatchQueue {
  /// The action as the `@Sendable` block that Dispatch runs, made without a wrapper object.
  ///
  /// The closure literal becomes a block directly, with the action stored in it: one allocation, where converting
  /// the Swift closure itself would wrap it in two reabstraction thunks, an allocation each, per action.
  static func block(_ action: @escaping () -> Void) -> @convention(block) @Sendable () -> Void {
    // SAFETY: running the action on another thread is what scheduling it means (see `RillScheduledAction`).
    nonisolated(unsafe) let action = action
    return { action() }
  }
}

/// Carries a scheduler action across the `@Sendable` boundary of Dispatch and Foundation.
///
/// A scheduler runs each action it is given exactly where the `Scheduler` contract says: handing it to
/// another thread is the point of scheduling it.
// SAFETY: immutable; the wrapped closure is only called, never mutated.
final class RillScheduledAction: @unchecked Sendable {
  private let action: () -> Void

  init(_ action: @escaping () -> Void) {
    self.action = action
  }

  func run() {
    action()
  }
}
