extension Timeline {
  /// Something that happened to a subscription a lane recorded.
  public struct Event: Hashable, Sendable, CustomStringConvertible {
    /// What happened to a subscription.
    public enum Kind: Hashable, Sendable {
      /// The subscription started: the lane received its subscription from upstream.
      case subscription
      /// Downstream requested more values: by calling `request(_:)`, or by returning a demand other than `.none`
      /// from receiving a value.
      case request(Subscribers.Demand)
      /// A value went through the lane, described by the lane's `transformValue`.
      case value(String)
      /// The upstream finished.
      case finished
      /// The upstream failed; the error, described with `String(describing:)`.
      case failure(String)
      /// Downstream cancelled the subscription.
      case cancel
    }

    /// What happened.
    public let kind: Kind

    /// The name of the lane that recorded it.
    public let lane: String

    /// The subscription it happened to: its number in the lane, from 1 for the lane's first subscription.
    public let subscription: Int

    /// When it happened, in nanoseconds on the timeline's ``Timeline/clock``: since 1 January 1970, UTC, for the
    /// wall clock.
    public let time: Int64

    /// The thread it happened on: `main`, or `thread 1`, `thread 2` and so on, numbered in the order the timeline
    /// first saw them.
    public let thread: String

    /// Where the lane is written: `File.swift:12 - function()`.
    public let source: String

    /// Creates an event, as a timeline records it.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - lane: The name of the lane.
    ///   - subscription: The subscription's number in its lane, from 1.
    ///   - time: When it happened, in nanoseconds.
    ///   - thread: The name of the thread it happened on.
    ///   - source: Where the lane is written.
    public init(kind: Kind, lane: String, subscription: Int, time: Int64, thread: String, source: String) {
      self.kind = kind
      self.lane = lane
      self.subscription = subscription
      self.time = time
      self.thread = thread
      self.source = source
    }

    /// `search #1 value(riv) at 1200000000 on main`.
    public var description: String {
      "\(lane) #\(subscription) \(kind) at \(time) on \(thread)"
    }
  }
}

extension Timeline.Event.Kind: CustomStringConvertible {
  /// `subscription`, `request(unlimited)`, `value(riv)`, `finished`, `failure(timedOut)` or `cancel`.
  public var description: String {
    switch self {
    case .subscription: "subscription"
    case .request(let demand): "request(\(demand))"
    case .value(let value): "value(\(value))"
    case .finished: "finished"
    case .failure(let error): "failure(\(error))"
    case .cancel: "cancel"
    }
  }
}
