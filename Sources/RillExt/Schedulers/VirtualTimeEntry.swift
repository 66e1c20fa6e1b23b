/// One action a ``VirtualTimeScheduler`` holds: when it is due, in which order it was scheduled, and how often it
/// repeats.
///
/// It is not nested in the scheduler, and its types are generic parameters of its own rather than the scheduler's
/// time type and that type's `Stride`: specialised code still copies it through its value witnesses, which then
/// find the types in its metadata instead of looking up an associated type at run time for every action (a state
/// generic over what it holds: WritingAnOperator.md, "Hot-path idioms").
@usableFromInline
struct VirtualTimeEntry<Time, Interval> {
  @usableFromInline let sequence: Int
  @usableFromInline let date: Time
  @usableFromInline let interval: Interval?
  @usableFromInline let action: () -> Void

  @inlinable
  init(sequence: Int, date: Time, interval: Interval? = nil, action: @escaping () -> Void) {
    self.sequence = sequence
    self.date = date
    self.interval = interval
    self.action = action
  }
}
