extension Subscribers {
  /// A requested number of items, sent to a publisher from a subscriber through the subscription.
  ///
  /// A demand is either a finite count (``max(_:)``, never negative) or ``unlimited``. Arithmetic saturates:
  /// adding to ``unlimited`` stays ``unlimited``, an overflow becomes ``unlimited``, and a subtraction that
  /// would go below zero gives ``none``.
  public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
    /// `0...Int.max` for a finite demand; `Int.max + 1` for unlimited.
    let rawValue: UInt

    init(rawValue: UInt) {
      self.rawValue = rawValue
    }

    /// A request for as many values as the publisher can produce.
    public static let unlimited = Demand(rawValue: UInt(Int.max) + 1)

    /// A request for no elements from the publisher.
    public static let none = Demand(rawValue: 0)

    /// Creates a demand for the given maximum number of elements.
    ///
    /// - Parameter value: The number of elements; it must not be negative.
    /// - Returns: A finite demand for `value` elements.
    public static func max(_ value: Int) -> Demand {
      precondition(value >= 0, "Subscribers.Demand.max(\(value)): a demand cannot be negative")
      return Demand(rawValue: UInt(value))
    }

    /// The number of requested values, or `nil` if unlimited.
    public var max: Int? {
      self == .unlimited ? nil : Int(rawValue)
    }

    public var description: String {
      self == .unlimited ? "unlimited" : "max(\(rawValue))"
    }

    /// Returns the result of adding two demands.
    ///
    /// Anything plus ``unlimited`` is ``unlimited``; so is an overflow.
    public static func + (lhs: Demand, rhs: Demand) -> Demand {
      guard let left = lhs.max, let right = rhs.max else { return .unlimited }
      let (sum, overflow) = left.addingReportingOverflow(right)
      return overflow ? .unlimited : Demand(rawValue: UInt(sum))
    }

    public static func += (lhs: inout Demand, rhs: Demand) {
      lhs = lhs + rhs
    }

    /// Returns the result of adding a number of elements to a demand.
    ///
    /// A negative number subtracts.
    public static func + (lhs: Demand, rhs: Int) -> Demand {
      rhs < 0 ? lhs - Demand.max(rhs == Int.min ? Int.max : -rhs) : lhs + Demand.max(rhs)
    }

    public static func += (lhs: inout Demand, rhs: Int) {
      lhs = lhs + rhs
    }

    /// Returns the result of multiplying a demand by a non-negative number.
    ///
    /// ``unlimited`` stays ``unlimited``; an overflow becomes ``unlimited``.
    public static func * (lhs: Demand, rhs: Int) -> Demand {
      precondition(rhs >= 0, "Subscribers.Demand * \(rhs): a demand cannot be multiplied by a negative number")
      guard let left = lhs.max else { return .unlimited }
      let (product, overflow) = left.multipliedReportingOverflow(by: rhs)
      return overflow ? .unlimited : Demand(rawValue: UInt(product))
    }

    public static func *= (lhs: inout Demand, rhs: Int) {
      lhs = lhs * rhs
    }

    /// Returns the result of subtracting one demand from another.
    ///
    /// Subtracting anything from ``unlimited`` gives ``unlimited``; subtracting ``unlimited`` from a finite demand,
    /// or more than it holds, gives ``none``.
    public static func - (lhs: Demand, rhs: Demand) -> Demand {
      guard let left = lhs.max else { return .unlimited }
      guard let right = rhs.max else { return .none }
      return left <= right ? .none : Demand(rawValue: UInt(left - right))
    }

    public static func -= (lhs: inout Demand, rhs: Demand) {
      lhs = lhs - rhs
    }

    /// Returns the result of subtracting a number of elements from a demand.
    ///
    /// A negative number adds.
    public static func - (lhs: Demand, rhs: Int) -> Demand {
      rhs < 0 ? lhs + Demand.max(rhs == Int.min ? Int.max : -rhs) : lhs - Demand.max(rhs)
    }

    public static func -= (lhs: inout Demand, rhs: Int) {
      lhs = lhs - rhs
    }

    public static func < (lhs: Demand, rhs: Demand) -> Bool {
      lhs.rawValue < rhs.rawValue
    }

    /// ``unlimited`` is greater than every integer.
    public static func > (lhs: Demand, rhs: Int) -> Bool {
      guard let left = lhs.max else { return true }
      return left > rhs
    }

    public static func >= (lhs: Demand, rhs: Int) -> Bool {
      guard let left = lhs.max else { return true }
      return left >= rhs
    }

    public static func > (lhs: Int, rhs: Demand) -> Bool {
      guard let right = rhs.max else { return false }
      return lhs > right
    }

    public static func >= (lhs: Int, rhs: Demand) -> Bool {
      guard let right = rhs.max else { return false }
      return lhs >= right
    }

    public static func < (lhs: Demand, rhs: Int) -> Bool {
      guard let left = lhs.max else { return false }
      return left < rhs
    }

    public static func < (lhs: Int, rhs: Demand) -> Bool {
      guard let right = rhs.max else { return true }
      return lhs < right
    }

    public static func <= (lhs: Demand, rhs: Int) -> Bool {
      guard let left = lhs.max else { return false }
      return left <= rhs
    }

    public static func <= (lhs: Int, rhs: Demand) -> Bool {
      guard let right = rhs.max else { return true }
      return lhs <= right
    }

    /// ``unlimited`` equals no integer.
    public static func == (lhs: Demand, rhs: Int) -> Bool {
      lhs.max == rhs
    }

    public static func != (lhs: Demand, rhs: Int) -> Bool {
      lhs.max != rhs
    }

    public static func == (lhs: Int, rhs: Demand) -> Bool {
      rhs.max == lhs
    }

    public static func != (lhs: Int, rhs: Demand) -> Bool {
      rhs.max != lhs
    }

    public static func == (lhs: Demand, rhs: Demand) -> Bool {
      lhs.rawValue == rhs.rawValue
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      let raw = try container.decode(UInt.self)
      guard raw <= Demand.unlimited.rawValue else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "Demand \(raw) is out of range")
      }
      rawValue = raw
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
  }
}
