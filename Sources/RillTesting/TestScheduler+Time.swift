extension TestScheduler {
  /// An instant on a test scheduler's virtual clock, counted in ticks.
  ///
  /// One tick is one nanosecond of virtual time, so `.seconds(1)` is 1,000,000,000 ticks, and one tick is one
  /// `-` in a marble diagram. An integer literal is a number of ticks: `scheduler.advance(to: 5)`.
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
  {
    /// The number of ticks since the virtual clock's origin.
    public var ticks: Int

    /// Creates an instant the given number of ticks after the virtual clock's origin.
    ///
    /// - Parameter ticks: The number of ticks since the origin.
    public init(_ ticks: Int) {
      self.ticks = ticks
    }

    /// Creates an instant from an integer literal number of ticks.
    ///
    /// - Parameter value: The number of ticks since the origin.
    public init(integerLiteral value: Int) {
      self.init(value)
    }

    /// Returns the distance from this instant to another one.
    ///
    /// - Parameter other: The other instant.
    /// - Returns: `other` minus `self`, in ticks.
    public func distance(to other: SchedulerTimeType) -> Stride {
      Stride(other.ticks - ticks)
    }

    /// Returns the instant the given distance after this one.
    ///
    /// - Parameter n: The distance to move by; it may be negative.
    /// - Returns: The moved instant.
    public func advanced(by n: Stride) -> SchedulerTimeType {
      SchedulerTimeType(ticks + n.ticks)
    }

    /// The number of ticks, for messages.
    public var description: String { "\(ticks)" }
  }
}

extension TestScheduler.SchedulerTimeType {
  /// A signed distance between two instants of a test scheduler, counted in ticks (virtual nanoseconds).
  ///
  /// An integer literal is a number of ticks; a floating-point literal is a number of seconds, like
  /// Combine's dispatch-queue strides: `1.5` is 1,500,000,000 ticks.
  public struct Stride: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, Comparable, SignedNumeric,
    Codable, Hashable, Sendable, SchedulerTimeIntervalConvertible, CustomStringConvertible
  {
    /// An integer literal is a number of ticks.
    public typealias IntegerLiteralType = Int

    /// A floating-point literal is a number of seconds.
    public typealias FloatLiteralType = Double

    /// The absolute number of ticks.
    public typealias Magnitude = UInt

    /// The signed number of ticks in this distance.
    public var ticks: Int

    /// Creates a distance of the given number of ticks.
    ///
    /// - Parameter ticks: The signed number of ticks.
    public init(_ ticks: Int) {
      self.ticks = ticks
    }

    /// Creates a distance from an integer literal number of ticks.
    ///
    /// - Parameter value: The number of ticks.
    public init(integerLiteral value: Int) {
      self.init(value)
    }

    /// Creates a distance from a floating-point literal number of seconds.
    ///
    /// - Parameter value: The number of seconds.
    public init(floatLiteral value: Double) {
      self = .seconds(value)
    }

    /// Creates a distance from an integer, if it fits in an `Int`.
    ///
    /// - Parameter source: The number of ticks.
    public init?<T: BinaryInteger>(exactly source: T) {
      guard let value = Int(exactly: source) else { return nil }
      self.init(value)
    }

    /// The absolute number of ticks.
    public var magnitude: UInt { ticks.magnitude }

    /// The number of ticks, for messages.
    public var description: String { "\(ticks)" }

    /// Returns whether `lhs` is shorter than `rhs`.
    public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.ticks < rhs.ticks }

    /// Returns the sum of two distances.
    public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.ticks + rhs.ticks) }

    /// Returns the difference of two distances.
    public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.ticks - rhs.ticks) }

    /// Returns the product of two distances, in ticks.
    public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.ticks * rhs.ticks) }

    /// Adds a distance to another one.
    public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

    /// Subtracts a distance from another one.
    public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

    /// Multiplies a distance by another one.
    public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

    /// Returns a distance of the given number of seconds.
    ///
    /// - Parameter s: The number of seconds.
    /// - Returns: `s` times 1,000,000,000 ticks.
    public static func seconds(_ s: Int) -> Stride { Stride(s * 1_000_000_000) }

    /// Returns a distance of the given number of seconds, rounded to the nearest tick.
    ///
    /// - Parameter s: The number of seconds.
    /// - Returns: `s` times 1,000,000,000 ticks, rounded.
    public static func seconds(_ s: Double) -> Stride { Stride(Int((s * 1_000_000_000).rounded())) }

    /// Returns a distance of the given number of milliseconds.
    ///
    /// - Parameter ms: The number of milliseconds.
    /// - Returns: `ms` times 1,000,000 ticks.
    public static func milliseconds(_ ms: Int) -> Stride { Stride(ms * 1_000_000) }

    /// Returns a distance of the given number of microseconds.
    ///
    /// - Parameter us: The number of microseconds.
    /// - Returns: `us` times 1,000 ticks.
    public static func microseconds(_ us: Int) -> Stride { Stride(us * 1_000) }

    /// Returns a distance of the given number of nanoseconds.
    ///
    /// - Parameter ns: The number of nanoseconds.
    /// - Returns: `ns` ticks.
    public static func nanoseconds(_ ns: Int) -> Stride { Stride(ns) }
  }
}
