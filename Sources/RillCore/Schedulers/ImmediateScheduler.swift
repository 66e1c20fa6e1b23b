/// A scheduler for performing synchronous actions.
///
/// Every action runs right away on the calling thread, whatever date it is scheduled for: time does not pass
/// on an immediate scheduler.
public struct ImmediateScheduler: Scheduler, Sendable {
  /// The time type used by the immediate scheduler.
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The increment by which the immediate scheduler counts time.
    public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
      SchedulerTimeIntervalConvertible, Hashable, Sendable
    {
      public typealias FloatLiteralType = Double
      public typealias IntegerLiteralType = Int
      public typealias Magnitude = Int

      /// The value of this time interval in seconds.
      public var magnitude: Int

      /// Creates an immediate scheduler time interval from the given time interval.
      public init(_ value: Int) {
        magnitude = value
      }

      public init(integerLiteral value: Int) {
        self.init(value)
      }

      public init(floatLiteral value: Double) {
        self.init(Int(value))
      }

      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        self.init(value)
      }

      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

      public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }

      public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }

      public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }

      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

      public static func seconds(_ s: Int) -> Stride { Stride(0) }

      public static func seconds(_ s: Double) -> Stride { Stride(0) }

      public static func milliseconds(_ ms: Int) -> Stride { Stride(0) }

      public static func microseconds(_ us: Int) -> Stride { Stride(0) }

      public static func nanoseconds(_ ns: Int) -> Stride { Stride(0) }
    }

    init() {}

    /// Returns the distance to another immediate scheduler time; always zero.
    public func distance(to other: SchedulerTimeType) -> Stride { Stride(0) }

    /// Advances the time by the specified amount; time does not pass on an immediate scheduler.
    public func advanced(by n: Stride) -> SchedulerTimeType { self }
  }

  /// A type that defines options accepted by the immediate scheduler.
  public typealias SchedulerOptions = Never

  /// The shared instance of the immediate scheduler.
  public static let shared = ImmediateScheduler()

  /// The immediate scheduler's definition of the current moment in time.
  public var now: SchedulerTimeType { SchedulerTimeType() }

  /// The minimum tolerance allowed by the immediate scheduler.
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  /// Performs the action right away.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    action()
  }

  /// Performs the action right away: an immediate scheduler does not wait.
  public func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    action()
  }

  /// Performs the action once, right away, and returns a cancellable that does nothing: as in Combine, the empty
  /// subscription, which describes itself as `Empty`.
  public func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    action()
    return Subscriptions.empty
  }
}
