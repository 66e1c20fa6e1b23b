/// A subscription or nothing: `(any Subscription)?` in an enum of its own (a tag beside optional fields:
/// WritingAnOperator.md, "Hot-path idioms").
@usableFromInline
enum MergingHeldSubscription {
  case nothing
  case held(any Subscription)

  /// The subscription, if there is one.
  @inlinable
  var subscription: (any Subscription)? {
    if case .held(let subscription) = self { return subscription }
    return nil
  }

  /// Whether there is a subscription.
  @inlinable
  var isHeld: Bool {
    if case .held = self { return true }
    return false
  }

  /// Moves the subscription out, leaving nothing.
  @inlinable
  mutating func take() -> MergingHeldSubscription {
    var taken = MergingHeldSubscription.nothing
    swap(&self, &taken)
    return taken
  }
}
