extension ReleaseProbe {
  /// A value that calls back into its run when it is freed: cancels, requests or sends, as the run's
  /// ``ReleaseProbe/Reentry`` says.
  ///
  /// Values compare and hash by their number, so that operators such as `min()`, `removeDuplicates()` or
  /// `contains(_:)` can be probed; a value made with ``init(_:)`` calls nothing when it is freed.
  // SAFETY: immutable; the target it calls is thread-safe.
  public final class Value: Hashable, Comparable, CustomStringConvertible, @unchecked Sendable {
    /// The value's number.
    public let number: Int

    private let target: ReleaseProbeTarget?

    /// A value that calls nothing when it is freed, for a pipeline's own constants (a `scan`'s initial value, a
    /// `replaceEmpty`'s output).
    ///
    /// - Parameter number: The value's number.
    public init(_ number: Int) {
      self.number = number
      target = nil
    }

    init(_ number: Int, target: ReleaseProbeTarget) {
      self.number = number
      self.target = target
    }

    deinit {
      target?.reenter()
    }

    public var description: String { "\(number)" }

    public static func == (lhs: Value, rhs: Value) -> Bool { lhs.number == rhs.number }

    public static func < (lhs: Value, rhs: Value) -> Bool { lhs.number < rhs.number }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(number)
    }
  }
}
