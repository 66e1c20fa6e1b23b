/// What the delivering call does next, outside the lock: hand a value to one subscriber, hand the completion to
/// every subscriber, or nothing (``isDone``).
///
/// A struct of optionals rather than an enum with a case per step: copies of a generic enum with several payloads
/// were made through its value witnesses, with metadata looked up at run time, even in code specialised for the
/// subject's types.
@usableFromInline
struct SubjectStep<Output, Failure: Error> {
  /// The subscriber to hand `value` to, then report back on with `SubjectState.delivered(slot:more:value:removed:)`.
  @usableFromInline var receiver: SubjectReceiver<Output, Failure>?
  @usableFromInline var slot = -1
  @usableFromInline var value: Output?
  /// The entries that have left the table, whose subscribers get `completion`.
  @usableFromInline var ending: ContiguousArray<SubjectEntry<Output, Failure>>?
  @usableFromInline var completion: Subscribers.Completion<Failure>?

  @inlinable
  init() {}

  @inlinable
  init(receiver: SubjectReceiver<Output, Failure>, slot: Int, value: Output) {
    self.receiver = receiver
    self.slot = slot
    self.value = value
  }

  @inlinable
  init(ending: ContiguousArray<SubjectEntry<Output, Failure>>, completion: Subscribers.Completion<Failure>) {
    self.ending = ending
    self.completion = completion
  }

  /// Nothing is left to deliver.
  @inlinable
  static var done: Self { Self() }

  @inlinable
  var isDone: Bool { receiver == nil && ending == nil }
}
