/// How a subscription holds its downstream: strongly while the subscription lasts, weakly once it has ended.
///
/// Combine's `handleEvents`, `print` and `catch` pass on whatever reaches them after their subscription completed or
/// was cancelled: values, further completions. Rill passes it on too, without keeping the subscriber alive for it:
/// once the subscription ends, a subscriber that is a class is reached only while something else keeps it, and any
/// other subscriber is let go. A subscriber that keeps its subscription is then freed instead of living on in a cycle
/// with it.
@usableFromInline
struct DownstreamHold<Downstream> {
  @usableFromInline var held: Downstream?

  @usableFromInline weak var ended: AnyObject?

  @inlinable
  init(_ downstream: Downstream) {
    held = downstream
  }

  /// The subscriber: while the subscription lasts, or after it ended while something else keeps the subscriber.
  @inlinable
  var subscriber: Downstream? {
    if let held {
      return held
    }
    return ended.flatMap { $0 as? Downstream }
  }

  /// Stops keeping the subscriber alive, once the subscription ended.
  ///
  /// Returns the subscriber that was held, for the caller to drop after unlocking: a subscriber's deinit is the
  /// subscriber's code.
  @inlinable
  mutating func release() -> Downstream? {
    guard let downstream = held.take() else { return nil }
    if Downstream.self is AnyObject.Type {
      ended = downstream as AnyObject
    }
    return downstream
  }
}
