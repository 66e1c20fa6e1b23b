/// A subscription or nothing.
///
/// An enum of its own rather than `(any Subscription)?`: the optional existential is copied and destroyed through
/// the standard library's generic value witnesses, which are slow on the per-value path; this enum's are compiled
/// for its concrete layout.
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
}
