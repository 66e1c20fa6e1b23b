/// How a subject reaches one subscriber: a closure that holds the subscriber's delivery lock around each call.
///
/// It is made where the subscriber's type is known, so that delivery runs specialised code.
///
/// The closure travels in this struct and is called where it is stored (a closure in a struct: WritingAnOperator.md, "Hot-path idioms").
@usableFromInline
struct SubjectReceiver<Output, Failure: Error> {
  @usableFromInline let deliver: (SubjectSignal<Output, Failure>) -> Subscribers.Demand

  @inlinable
  init(_ deliver: @escaping (SubjectSignal<Output, Failure>) -> Subscribers.Demand) {
    self.deliver = deliver
  }

  /// Hands the subscriber a signal; returns the demand it adds.
  @inlinable
  func callAsFunction(_ signal: SubjectSignal<Output, Failure>) -> Subscribers.Demand {
    deliver(signal)
  }
}

/// What a subject hands one of its subscribers.
@usableFromInline
enum SubjectSignal<Output, Failure: Error> {
  case value(Output)
  case completion(Subscribers.Completion<Failure>)
  /// Not a call to the subscriber: puts it in the probe, for the subscription's mirror.
  case describe(SubjectProbe)
}

/// Receives a subject's subscriber for its subscription's mirror.
@usableFromInline
final class SubjectProbe {
  @usableFromInline var downstream: Any?

  @inlinable
  init() {}
}
