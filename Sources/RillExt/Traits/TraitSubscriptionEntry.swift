/// A way into a ``TraitSubscriptions/Single`` or ``TraitSubscriptions/Maybe`` subscription's code specialised for
/// its generic arguments, made in its `@inlinable` initialiser where they are known.
///
/// `request(_:)` and `cancel()` arrive through `any Subscription`, and `receive(_:)` from a subclass's override,
/// which runs unspecialised; each would otherwise land in the unspecialised generic implementation, where every
/// generic call looks type metadata up at run time. The closures capture nothing: they only call the owner they are
/// handed. They live in a struct so that reading one out never wraps it in a reabstraction thunk. (See "A specialised
/// entry" in WritingAnOperator.md's hot-path idioms.)
@usableFromInline
struct TraitSubscriptionEntry<Owner: AnyObject, Outcome> {
  @usableFromInline let request: (Owner, Subscribers.Demand) -> Void
  @usableFromInline let receive: (Owner, Outcome) -> Void
  @usableFromInline let cancel: (Owner) -> Void

  @inlinable
  init(
    request: @escaping (Owner, Subscribers.Demand) -> Void,
    receive: @escaping (Owner, Outcome) -> Void,
    cancel: @escaping (Owner) -> Void
  ) {
    self.request = request
    self.receive = receive
    self.cancel = cancel
  }
}
