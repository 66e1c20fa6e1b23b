/// How a subject reaches one subscriber: a closure that holds the subscriber's delivery lock around each call.
///
/// It is made where the subscriber's type is known, so that delivery runs specialised code. It captures the subscriber
/// alone and is handed the subscription with each call: a closure that captures one object keeps no allocation of
/// its own.
///
/// The closure travels in this struct and is called where it is stored (a closure in a struct: WritingAnOperator.md, "Hot-path idioms").
@usableFromInline
struct SubjectReceiver<Output, Failure: Error> {
  /// Calls the subscriber; the conduit is optional so that it can be passed from where it is stored, in an entry,
  /// without a reference count (an entry with a receiver always has one).
  @usableFromInline let deliver:
    (SubjectConduit<Output, Failure>?, SubjectSignal<Output, Failure>) -> Subscribers.Demand

  @inlinable
  init(_ deliver: @escaping (SubjectConduit<Output, Failure>?, SubjectSignal<Output, Failure>) -> Subscribers.Demand) {
    self.deliver = deliver
  }

  /// Hands the subscriber of `conduit` a signal; returns the demand it adds.
  @inlinable
  func callAsFunction(
    _ conduit: SubjectConduit<Output, Failure>?,
    _ signal: SubjectSignal<Output, Failure>
  )
    -> Subscribers.Demand
  {
    deliver(conduit, signal)
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
