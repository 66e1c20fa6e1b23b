/// The subscribers a send calls next, outside the subject's lock: those of `entries[base..<base + 64]` whose bit
/// is set in `claimed`, each of which had demand for the value, and the replay subscribers whose bit is set in
/// `draining`, whose backlog the value joined while they had demand for it.
///
/// A struct of optionals rather than an enum (WritingAnOperator.md, "Hot-path idioms").
@usableFromInline
struct SubjectStep<Output, Failure: Error> {
  /// The subject's entries when the value was sent; `nil` when no subscriber is left to call.
  @usableFromInline var entries: ContiguousArray<SubjectEntry<Output, Failure>>?
  @usableFromInline var base = 0
  @usableFromInline var claimed: UInt64 = 0
  @usableFromInline var draining: UInt64 = 0
  /// The value's ``SubjectState/generation`` when the send made it the current value; `0` when it did not.
  @usableFromInline var generation: UInt64 = 0

  @inlinable
  init() {}

  @inlinable
  init(
    entries: ContiguousArray<SubjectEntry<Output, Failure>>,
    base: Int,
    claimed: UInt64,
    draining: UInt64,
    generation: UInt64
  ) {
    self.entries = entries
    self.base = base
    self.claimed = claimed
    self.draining = draining
    self.generation = generation
  }

  /// How many entries one step covers: one bit of `claimed` each.
  @inlinable
  static var width: Int { 64 }
}
