/// The subject behind a `@Published` property: a current value subject that its subscriptions name
/// `PublishedSubject`, as in Combine.
///
/// ```
/// initial 0; send(1); send(2):   0-1-2-
/// ```
// SAFETY: all mutable state is in `core`.
@usableFromInline
final class PublishedSubject<Output>: Subject, @unchecked Sendable {
  @usableFromInline
  typealias Failure = Never

  @usableFromInline
  let core: SubjectCore<Output, Never>

  @inlinable
  init(_ value: Output) {
    core = SubjectCore(name: "PublishedSubject", current: value)
  }

  deinit {
    core.cancelUpstreams()
  }

  @inlinable
  func send(subscription: any Subscription) {
    core.send(subscription: subscription)
  }

  @inlinable
  func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
    core.receive(subscriber: subscriber, subject: self)
  }

  @inlinable
  func send(_ input: Output) {
    core.send(input)
  }

  @inlinable
  func send(completion: Subscribers.Completion<Never>) {
    core.send(completion: completion)
  }
}
