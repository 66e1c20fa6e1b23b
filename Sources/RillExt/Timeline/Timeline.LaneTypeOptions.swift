extension Timeline {
  /// Which events a lane records: those of the subscription's life, those of its values, or both.
  ///
  /// The names are TimelaneCombine's, so `lane("name", filter: .event)` reads the same in both.
  public struct LaneTypeOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    /// Creates a set of options from its raw value.
    ///
    /// - Parameter rawValue: The bits of the options.
    public init(rawValue: Int) {
      self.rawValue = rawValue
    }

    /// The subscription's life: its start, the demand requested, and its finish, failure or cancel.
    ///
    /// Renderings draw it as a span.
    public static let subscription = LaneTypeOptions(rawValue: 1 << 0)

    /// The values, and the subscription's finish, failure or cancel.
    ///
    /// Renderings draw them as marks.
    ///
    /// Use it alone for a subscription that lives as long as the app, such as one on a subject, when only its
    /// values matter.
    public static let event = LaneTypeOptions(rawValue: 1 << 1)

    /// Everything: ``subscription`` and ``event``.
    public static let all: LaneTypeOptions = [.subscription, .event]
  }
}
