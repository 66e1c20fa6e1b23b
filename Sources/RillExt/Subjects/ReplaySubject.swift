/// A subject that replays its latest values, and its completion, to each new subscriber, then forwards live events.
///
/// ```
/// subject:                    -1-2-3-----4-|
/// ReplaySubject(bufferSize: 2), subscribed at the fifth tick:
///                             -----[23]--4-|
/// ```
///
/// The subject keeps the latest `bufferSize` values, oldest first. A new subscriber gets them, then every value sent
/// after it subscribed; a subscriber that comes after the completion gets the kept values, then the completion. Each
/// subscriber receives values only as far as its demand: the rest wait, in order, in a queue of its own, so a slow
/// subscriber never holds up a fast one. The completion needs no demand and does not wait for the values beyond it:
/// it reaches each subscriber once the values its demand covers (the demand it returns along the way included) have
/// gone, and the values still waiting are dropped. A subscriber that has not made its first request yet while values
/// wait for it gets the completion after that request, and the values it covers, as CombineExt's does. As a subscriber to an upstream publisher, the subject requests
/// unlimited values.
///
/// It delivers as Combine's subjects do: on the thread that sends, before `send` returns, one call at a time per
/// subscriber; a send from another thread waits while a subscriber is busy, and a send from inside a subscriber is
/// delivered at once, nested. Values a subscriber had no demand for are delivered by the thread that brings the
/// demand. A subscription keeps the subject alive until it is cancelled or completes.
///
/// The subject is `Sendable` when its `Output` is: the values it keeps go to subscribers on any thread.
public final class ReplaySubject<Output, Failure: Error>: Subject {
  @usableFromInline
  let core: SubjectCore<Output, Failure>

  /// Creates a subject that replays up to `bufferSize` of its latest values to each new subscriber.
  ///
  /// - Parameter bufferSize: The number of values to keep and replay; `0` keeps none.
  @inlinable
  public init(bufferSize: Int) {
    core = SubjectCore(name: "ReplaySubject", current: nil, replay: bufferSize)
  }

  /// Sends a value to the subscribers, and keeps it for the ones to come; ignored after a completion.
  ///
  /// - Parameter value: The value to send.
  @inlinable
  public func send(_ value: Output) {
    core.send(value)
  }

  /// Sends a completion to the subscribers, after the values each of them has demand for (the others are dropped),
  /// and keeps it for the ones to come; only the first completion counts.
  ///
  /// - Parameter completion: The completion to send.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    core.send(completion: completion)
  }

  /// Requests unlimited values from an upstream subscription.
  ///
  /// - Parameter subscription: The upstream subscription.
  public func send(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    core.receive(subscriber: subscriber, subject: self)
  }
}

// SAFETY: all mutable state is in `core`; the values it keeps and hands to subscribers on other threads are
// `Sendable`.
extension ReplaySubject: @unchecked Sendable where Output: Sendable {}
