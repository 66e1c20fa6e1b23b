/// A publisher that publishes changes from observable objects.
///
/// ```
/// send(); send():   -()-()-
/// ```
///
/// It never fails or finishes. As in Combine, it signals every subscriber that has made a request on each `send()`,
/// whatever demand it asked for, on the thread that calls `send()` and before `send()` returns; a `send()` from another
/// thread waits while a subscriber is busy, and one from inside a subscriber reaches it at once. A subscription does
/// not keep the publisher alive.
// SAFETY: all mutable state is in `core`, whose subscribers are called outside its lock.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
  public typealias Output = Void
  public typealias Failure = Never

  @usableFromInline
  let core: SubjectCore<Void, Never>

  /// Creates an observable object publisher instance.
  public init() {
    core = SubjectCore(name: "ObservableObjectPublisher", current: nil, signalsFromFirstRequest: true)
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Failure == Never, S.Input == Void {
    core.receive(subscriber: subscriber, subject: nil)
  }

  /// Sends the changed value to the downstream subscriber.
  @inlinable
  public func send() {
    core.send(())
  }
}
