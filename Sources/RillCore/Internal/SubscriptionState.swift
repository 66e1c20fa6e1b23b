/// The lifecycle of an operator's link to its upstream, kept in one place so operators do not rewrite it.
///
/// The phase is a tag beside the upstream rather than an enum with the upstream as payload (a tag beside optional
/// fields: WritingAnOperator.md, "Hot-path idioms").
@usableFromInline
package struct SubscriptionState: CustomStringConvertible {
  @usableFromInline
  package enum Phase: UInt8 {
    case awaitingSubscription
    case subscribed
    case terminal
  }

  /// Where the link is.
  @usableFromInline package var phase: Phase

  /// The upstream subscription while subscribed.
  @usableFromInline package var upstream: (any Subscription)?

  @inlinable
  package init(phase: Phase, upstream: (any Subscription)?) {
    self.phase = phase
    self.upstream = upstream
  }

  /// No subscription received yet.
  @inlinable
  package static var awaitingSubscription: SubscriptionState {
    SubscriptionState(phase: .awaitingSubscription, upstream: nil)
  }

  /// The link has ended: completed, failed or cancelled.
  @inlinable
  package static var terminal: SubscriptionState { SubscriptionState(phase: .terminal, upstream: nil) }

  /// Whether no subscription has been received yet.
  @inlinable
  package var isAwaitingSubscription: Bool { phase == .awaitingSubscription }

  /// Whether an upstream subscription is held.
  @inlinable
  package var isSubscribed: Bool { phase == .subscribed }

  /// Whether the link has ended.
  @inlinable
  package var isTerminal: Bool { phase == .terminal }

  @usableFromInline
  package var description: String {
    switch phase {
    case .awaitingSubscription: "awaitingSubscription"
    case .subscribed: "subscribed(\(upstream.map { String(describing: $0) } ?? ""))"
    case .terminal: "terminal"
    }
  }

  /// Records the upstream subscription.
  ///
  /// Returns `false` when one was already received or the link has ended: the caller then cancels the new
  /// subscription, as Combine does with a second subscription.
  @inlinable
  package mutating func subscribe(_ subscription: any Subscription) -> Bool {
    guard phase == .awaitingSubscription else { return false }
    phase = .subscribed
    upstream = subscription
    return true
  }

  /// Lets go of the upstream subscription and waits for another, for an operator whose link Combine lets a publisher
  /// take up again after a completion or a cancel (`dropFirst`).
  ///
  /// Returns the upstream subscription if there was one, for the caller to cancel or drop after unlocking.
  @inlinable
  package mutating func detach() -> (any Subscription)? {
    phase = .awaitingSubscription
    return upstream.take()
  }

  /// Ends the link.
  ///
  /// Returns the upstream subscription if there was one, so the caller can cancel it or forward a completion after
  /// unlocking; returns `nil` when the link had already ended or was never subscribed.
  @inlinable
  package mutating func terminate() -> (any Subscription)? {
    phase = .terminal
    return upstream.take()
  }

  /// Ends the link for upstream's completion, if it is subscribed.
  ///
  /// Returns the upstream subscription, or `nil`, changing nothing, when the link has ended or has no subscription
  /// yet: a completion that comes before the subscription is ignored, and the subscription that follows is taken.
  @inlinable
  package mutating func endForCompletion() -> (any Subscription)? {
    guard phase == .subscribed else { return nil }
    return terminate()
  }
}
