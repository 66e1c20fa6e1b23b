/// How a ``ContractChecker`` asks for values: what it requests first, what it returns per value, and whether
/// it cancels after some values.
public struct ContractDemand: Hashable, Sendable, CustomStringConvertible {
  /// The demand requested when the subscription arrives.
  public var initial: Subscribers.Demand

  /// The demand returned from each value.
  public var perValue: Subscribers.Demand

  /// Cancel from inside the delivery of this many values (`nil`: never cancel).
  public var cancelAfterValues: Int?

  /// Creates a demand plan.
  ///
  /// - Parameters:
  ///   - initial: The demand requested when the subscription arrives.
  ///   - perValue: The demand returned from each value.
  ///   - cancelAfterValues: Cancel from inside the delivery of this many values; `nil` never cancels.
  public init(initial: Subscribers.Demand, perValue: Subscribers.Demand = .none, cancelAfterValues: Int? = nil) {
    self.initial = initial
    self.perValue = perValue
    self.cancelAfterValues = cancelAfterValues
  }

  /// Requests `.unlimited` up front.
  public static let unlimited = ContractDemand(initial: .unlimited)

  /// Requests nothing at all: the publisher may subscribe and complete, but never send a value.
  public static let none = ContractDemand(initial: .none)

  /// Requests `.max(1)` up front and one more with each value.
  public static let oneAtATime = ContractDemand(initial: .max(1), perValue: .max(1))

  /// Requests `.max(count)` up front and nothing more.
  ///
  /// - Parameter count: The number of values to request.
  /// - Returns: The plan.
  public static func max(_ count: Int) -> ContractDemand {
    ContractDemand(initial: .max(count))
  }

  /// Requests `.unlimited` up front and cancels from inside the delivery of the `count`th value.
  ///
  /// - Parameter count: The number of values to receive before cancelling.
  /// - Returns: The plan.
  public static func cancel(afterValues count: Int) -> ContractDemand {
    ContractDemand(initial: .unlimited, cancelAfterValues: count)
  }

  /// The plans worth running on every publisher: unlimited, none, max(1), max(3), one at a time, and
  /// cancelling after the first value.
  public static let standard: [ContractDemand] = [
    .unlimited, .none, .max(1), .max(3), .oneAtATime, .cancel(afterValues: 1),
  ]

  /// `initial max(1), per value max(1)`, and the cancellation if any.
  public var description: String {
    var text = "initial \(initial), per value \(perValue)"
    if let cancelAfterValues { text += ", cancel after \(cancelAfterValues) value(s)" }
    return text
  }
}

/// Something that happened between a publisher and a ``ContractChecker``, in order.
public enum ContractEvent<Input, Failure: Error>: CustomStringConvertible {
  /// The publisher sent a subscription.
  case subscription
  /// The publisher sent a value.
  case value(Input)
  /// The publisher sent a completion.
  case completion(Subscribers.Completion<Failure>)
  /// The checker requested demand, through the subscription or by returning it from a value.
  case request(Subscribers.Demand)
  /// The checker cancelled the subscription.
  case cancel

  /// `subscription`, `value(1)`, `finished`, `failure(error)`, `request(max(1))` or `cancel`.
  public var description: String {
    switch self {
    case .subscription: return "subscription"
    case .value(let value): return "value(\(value))"
    case .completion(.finished): return "finished"
    case .completion(.failure(let error)): return "failure(\(error))"
    case .request(let demand): return "request(\(demand))"
    case .cancel: return "cancel"
    }
  }
}

/// A breach of the publisher contract, with the events that led to it.
public struct ContractViolation: Error, Hashable, Sendable, CustomStringConvertible {
  /// The rule a publisher broke.
  public enum Kind: String, Hashable, Sendable, CustomStringConvertible {
    /// A value or completion arrived before any subscription.
    case eventBeforeSubscription = "an event before the subscription"
    /// A second subscription arrived.
    case secondSubscription = "a second subscription"
    /// A value arrived with no outstanding demand.
    case valueBeyondDemand = "a value beyond the requested demand"
    /// A value or a subscription arrived after the completion.
    case eventAfterCompletion = "an event after the completion"
    /// A second completion arrived.
    case secondCompletion = "a second completion"
    /// A value arrived after the checker cancelled (the run is synchronous, so nothing was in flight).
    case valueAfterCancel = "a value after cancel"
    /// Two calls into the subscriber overlapped on different threads.
    case concurrentCalls = "two calls at once from different threads"
    /// The publisher never sent a subscription.
    case missingSubscription = "no subscription"
    /// A completion was expected and never came.
    case missingCompletion = "no completion"

    /// The rule, in words.
    public var description: String { rawValue }
  }

  /// The rule broken.
  public let kind: Kind

  /// The index in ``history`` of the offending event, or `history.count` for a missing one.
  public let eventIndex: Int

  /// The events up to and including the offending one, as text.
  public let history: [String]

  /// Creates a violation.
  ///
  /// - Parameters:
  ///   - kind: The rule broken.
  ///   - eventIndex: The index of the offending event in `history`.
  ///   - history: The events up to and including the offending one, as text.
  public init(kind: Kind, eventIndex: Int, history: [String]) {
    self.kind = kind
    self.eventIndex = eventIndex
    self.history = history
  }

  /// `a value beyond the requested demand at event 3: subscription, request(max(1)), value(1), >value(2)<`.
  public var description: String {
    let events = history.enumerated().map { $0.offset == eventIndex ? ">\($0.element)<" : $0.element }
    return "\(kind) at event \(eventIndex): " + events.joined(separator: ", ")
  }
}

/// What a ``ContractChecker`` saw: every event in order and every breach of the contract.
public struct ContractReport<Output, Failure: Error>: CustomStringConvertible {
  /// Every event, in order, including the checker's own requests and cancellation.
  public let events: [ContractEvent<Output, Failure>]

  /// Every breach found, in order.
  public let violations: [ContractViolation]

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - events: Every event, in order.
  ///   - violations: Every breach found, in order.
  public init(events: [ContractEvent<Output, Failure>], violations: [ContractViolation]) {
    self.events = events
    self.violations = violations
  }

  /// Whether the publisher kept the contract.
  public var isSatisfied: Bool { violations.isEmpty }

  /// The first breach, with the events that led to it.
  public var firstViolation: ContractViolation? { violations.first }

  /// The values received, in order.
  public var values: [Output] {
    events.compactMap { event in
      if case .value(let value) = event { return value }
      return nil
    }
  }

  /// The first completion received, if any.
  public var completion: Subscribers.Completion<Failure>? {
    for case .completion(let completion) in events { return completion }
    return nil
  }

  /// `satisfied: subscription, request(unlimited), value(1), finished`, or the first violation.
  public var description: String {
    if let firstViolation { return "violated: \(firstViolation)" }
    return "satisfied: " + events.map(\.description).joined(separator: ", ")
  }
}
