/// A way into code specialised for `Owner`'s generic arguments, made where they are known: a call that arrives
/// through `any Subscription` or `AnyCancellable` goes through it instead of the unspecialised generic code it
/// lands in.
///
/// `request(_:)` passes its demand. An owner that routes `cancel()` here too passes `.none`, which its `request(_:)`
/// never passes on: it traps on a request of `.none` first. See "A specialised entry" in WritingAnOperator.md's
/// hot-path idioms for why, and which types may use it.
// SAFETY: immutable, and `body` captures nothing: it only calls the owner it is handed. (A `@Sendable` body would
// not do: it may not capture the generic metadata that the specialised code it reaches needs.)
@usableFromInline
struct SpecializedEntry<Owner: AnyObject>: @unchecked Sendable {
  @usableFromInline let body: (Owner, Subscribers.Demand) -> Void

  /// Makes the entry; `body` captures nothing and is written where `Owner`'s generic arguments are known.
  @inlinable
  init(_ body: @escaping (Owner, Subscribers.Demand) -> Void) {
    self.body = body
  }

  /// Runs `body` for `owner`: with the demand of a request, or with `.none` for a cancel.
  ///
  /// Always inlined: its callers are the unspecialised implementations, where an inlinable generic function is
  /// otherwise called, not inlined.
  @inlinable @inline(__always)
  func callAsFunction(_ owner: Owner, _ demand: Subscribers.Demand) {
    body(owner, demand)
  }
}
