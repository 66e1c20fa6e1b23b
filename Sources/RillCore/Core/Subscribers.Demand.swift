extension Subscribers {
  /// A requested number of items, sent to a publisher from a subscriber through the subscription.
  ///
  /// A demand is either a finite count (``max(_:)``, never negative) or ``unlimited``. Arithmetic saturates:
  /// adding to ``unlimited`` stays ``unlimited``, an overflow becomes ``unlimited``, and a subtraction that
  /// would go below zero gives ``none``.
  public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
    /// `0...Int.max` for a finite demand; `Int.max + 1` for unlimited.
    @usableFromInline
    let rawValue: UInt

    @inlinable
    init(rawValue: UInt) {
      self.rawValue = rawValue
    }

    /// `unlimited`'s raw value, as a constant: the hot paths use it instead of the lazily initialised `unlimited`.
    @inlinable
    static var unlimitedRawValue: UInt { UInt(Int.max) + 1 }

    /// A request for as many values as the publisher can produce.
    public static let unlimited = Demand(rawValue: UInt(Int.max) + 1)

    /// A request for no elements from the publisher.
    public static let none = Demand(rawValue: 0)

    /// Creates a demand for the given maximum number of elements.
    ///
    /// - Parameter value: The number of elements; it must not be negative.
    /// - Returns: A finite demand for `value` elements.
    @inlinable
    public static func max(_ value: Int) -> Demand {
      precondition(value >= 0, "Subscribers.Demand.max(\(value)): a demand cannot be negative")
      return Demand(rawValue: UInt(value))
    }

    /// The number of requested values, or `nil` if unlimited.
    @inlinable
    public var max: Int? {
      rawValue >= Demand.unlimitedRawValue ? nil : Int(rawValue)
    }

    public var description: String {
      self == .unlimited ? "unlimited" : "max(\(rawValue))"
    }

    /// Returns the result of adding two demands.
    ///
    /// Anything plus ``unlimited`` is ``unlimited``; so is an overflow.
    @inlinable
    public static func + (lhs: Demand, rhs: Demand) -> Demand {
      // Finite raw values are below 2^63, so their sum fits in a UInt; anything at or past 2^63 is unlimited.
      guard lhs.rawValue < unlimitedRawValue, rhs.rawValue < unlimitedRawValue else {
        return Demand(rawValue: unlimitedRawValue)
      }
      return Demand(rawValue: Swift.min(lhs.rawValue &+ rhs.rawValue, unlimitedRawValue))
    }

    @inlinable
    public static func += (lhs: inout Demand, rhs: Demand) {
      lhs = lhs + rhs
    }

    /// Returns the result of adding a number of elements to a demand.
    ///
    /// A negative number subtracts.
    @inlinable
    public static func + (lhs: Demand, rhs: Int) -> Demand {
      rhs < 0 ? lhs - Demand.max(rhs == Int.min ? Int.max : -rhs) : lhs + Demand.max(rhs)
    }

    @inlinable
    public static func += (lhs: inout Demand, rhs: Int) {
      lhs = lhs + rhs
    }

    /// Returns the result of multiplying a demand by a non-negative number.
    ///
    /// ``unlimited`` stays ``unlimited``; an overflow becomes ``unlimited``.
    @inlinable
    public static func * (lhs: Demand, rhs: Int) -> Demand {
      precondition(rhs >= 0, "Subscribers.Demand * \(rhs): a demand cannot be multiplied by a negative number")
      guard let left = lhs.max else { return lhs }
      let (product, overflow) = left.multipliedReportingOverflow(by: rhs)
      return overflow ? .unlimited : Demand(rawValue: UInt(product))
    }

    @inlinable
    public static func *= (lhs: inout Demand, rhs: Int) {
      lhs = lhs * rhs
    }

    /// Returns the result of subtracting one demand from another.
    ///
    /// Subtracting anything from ``unlimited`` gives ``unlimited``; subtracting ``unlimited`` from a finite demand,
    /// or more than it holds, gives ``none``.
    @inlinable
    public static func - (lhs: Demand, rhs: Demand) -> Demand {
      guard lhs.rawValue < unlimitedRawValue else { return lhs }
      guard rhs.rawValue < unlimitedRawValue, lhs.rawValue > rhs.rawValue else { return Demand(rawValue: 0) }
      return Demand(rawValue: lhs.rawValue - rhs.rawValue)
    }

    @inlinable
    public static func -= (lhs: inout Demand, rhs: Demand) {
      lhs = lhs - rhs
    }

    /// Returns the result of subtracting a number of elements from a demand.
    ///
    /// A negative number adds; as in Combine, a sum past `Int.max` gives `.none`.
    @inlinable
    public static func - (lhs: Demand, rhs: Int) -> Demand {
      guard lhs.rawValue < unlimitedRawValue else { return lhs }
      let (difference, overflow) = Int(lhs.rawValue).subtractingReportingOverflow(rhs)
      return overflow || difference < 0 ? Demand(rawValue: 0) : Demand(rawValue: UInt(difference))
    }

    @inlinable
    public static func -= (lhs: inout Demand, rhs: Int) {
      lhs = lhs - rhs
    }

    @inlinable
    public static func < (lhs: Demand, rhs: Demand) -> Bool {
      lhs.rawValue < rhs.rawValue
    }

    /// ``unlimited`` is greater than every integer.
    @inlinable
    public static func > (lhs: Demand, rhs: Int) -> Bool {
      guard let left = lhs.max else { return true }
      return left > rhs
    }

    @inlinable
    public static func >= (lhs: Demand, rhs: Int) -> Bool {
      guard let left = lhs.max else { return true }
      return left >= rhs
    }

    @inlinable
    public static func > (lhs: Int, rhs: Demand) -> Bool {
      guard let right = rhs.max else { return false }
      return lhs > right
    }

    @inlinable
    public static func >= (lhs: Int, rhs: Demand) -> Bool {
      guard let right = rhs.max else { return false }
      return lhs >= right
    }

    @inlinable
    public static func < (lhs: Demand, rhs: Int) -> Bool {
      guard let left = lhs.max else { return false }
      return left < rhs
    }

    @inlinable
    public static func < (lhs: Int, rhs: Demand) -> Bool {
      guard let right = rhs.max else { return true }
      return lhs < right
    }

    @inlinable
    public static func <= (lhs: Demand, rhs: Int) -> Bool {
      guard let left = lhs.max else { return false }
      return left <= rhs
    }

    @inlinable
    public static func <= (lhs: Int, rhs: Demand) -> Bool {
      guard let right = rhs.max else { return true }
      return lhs <= right
    }

    /// ``unlimited`` equals no integer.
    @inlinable
    public static func == (lhs: Demand, rhs: Int) -> Bool {
      lhs.max == rhs
    }

    @inlinable
    public static func != (lhs: Demand, rhs: Int) -> Bool {
      lhs.max != rhs
    }

    @inlinable
    public static func == (lhs: Int, rhs: Demand) -> Bool {
      rhs.max == lhs
    }

    @inlinable
    public static func != (lhs: Int, rhs: Demand) -> Bool {
      rhs.max != lhs
    }

    @inlinable
    public static func == (lhs: Demand, rhs: Demand) -> Bool {
      lhs.rawValue == rhs.rawValue
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      // As in Combine, any number past `Int.max` decodes as `unlimited`; a negative one does not decode.
      rawValue = min(try container.decode(UInt.self), Demand.unlimited.rawValue)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
  }
}
