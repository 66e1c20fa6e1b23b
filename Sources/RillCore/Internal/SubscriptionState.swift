/// The lifecycle of an operator's link to its upstream, kept in one place so operators do not rewrite it.
@usableFromInline
enum SubscriptionState {
  case awaitingSubscription
  case subscribed(any Subscription)
  case terminal

  /// The upstream subscription while subscribed.
  @inlinable
  var upstream: (any Subscription)? {
    if case .subscribed(let upstream) = self { return upstream }
    return nil
  }

  @inlinable
  var isTerminal: Bool {
    if case .terminal = self { return true }
    return false
  }

  /// Records the upstream subscription.
  ///
  /// Returns `false` when one was already received or the link has ended: the caller then cancels the new
  /// subscription, as Combine does with a second subscription.
  @inlinable
  mutating func subscribe(_ subscription: any Subscription) -> Bool {
    guard case .awaitingSubscription = self else { return false }
    self = .subscribed(subscription)
    return true
  }

  /// Ends the link.
  ///
  /// Returns the upstream subscription if there was one, so the caller can cancel it or forward a completion after
  /// unlocking; returns `nil` when the link had already ended or was never subscribed.
  @inlinable
  mutating func terminate() -> (any Subscription)? {
    let upstream = self.upstream
    self = .terminal
    return upstream
  }
}
