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
/// subscriber receives values only as far as its demand: the rest wait, in order, in a queue of its own (so a slow
/// subscriber never holds up a fast one, and never loses a value), and a completion reaches it once its queue is
/// empty. As a subscriber to an upstream publisher, the subject requests unlimited values.
///
/// `send(_:)`, `send(completion:)`, subscribing, `request(_:)` and `cancel()` may be called from any thread; one
/// lock guards the subject's state, and no subscriber is called while it is held. A subscriber is called by one
/// thread at a time, and may send to the subject from inside a delivery.
// SAFETY: all mutable state is in `state`; subscribers and subscriptions are called outside the lock.
public final class ReplaySubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  private let state: Locked<ReplaySubjectState<Output, Failure>>

  /// Creates a subject that replays up to `bufferSize` of its latest values to each new subscriber.
  ///
  /// - Parameter bufferSize: The number of values to keep and replay; `0` keeps none.
  public init(bufferSize: Int) {
    state = Locked(ReplaySubjectState(bufferSize: bufferSize))
  }

  /// Sends a value to the subscribers, and keeps it for the ones to come; ignored after a completion.
  ///
  /// - Parameter value: The value to send.
  public func send(_ value: Output) {
    let deliveries = state.withLock { $0.send(value) }
    for delivery in deliveries {
      let demand = delivery.downstream.receive(value)
      drain(delivery.id, adding: demand)
    }
  }

  /// Sends a completion to the subscribers, after the values each of them still has to take, and keeps it for the
  /// ones to come; only the first completion counts.
  ///
  /// - Parameter completion: The completion to send.
  public func send(completion: Subscribers.Completion<Failure>) {
    let drains = state.withLock { $0.send(completion: completion) }
    for id in drains { drain(id, adding: .none) }
  }

  /// Requests unlimited values from an upstream subscription.
  ///
  /// - Parameter subscription: The upstream subscription.
  public func send(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let id = state.withLock { $0.subscribe(AnySubscriber(subscriber)) }
    subscriber.receive(subscription: Conduit(subject: self, id: id))
    drain(id, adding: .none)
  }

  /// Delivers a subscriber's queued values, as far as its demand goes, then its completion if it has one.
  ///
  /// Only the thread that set the subscriber's `isDelivering` runs this.
  fileprivate func drain(_ id: Int, adding demand: Subscribers.Demand) {
    var demand = demand
    while true {
      switch state.withLock({ $0.next(for: id, adding: demand) }) {
      case .deliver(let downstream, let value):
        demand = downstream.receive(value)
      case .complete(let downstream, let completion):
        downstream.receive(completion: completion)
        return
      case .idle:
        return
      }
    }
  }

  fileprivate func request(_ demand: Subscribers.Demand, for id: Int) {
    if state.withLock({ $0.request(demand, for: id) }) { drain(id, adding: .none) }
  }

  fileprivate func cancel(_ id: Int) {
    let removed = state.withLock { $0.cancel(id) }
    withExtendedLifetime(removed) {}
  }
}

extension ReplaySubject {
  /// The subscription of one subscriber; it keeps the subject alive until cancelled.
  // SAFETY: immutable.
  private final class Conduit: Subscription, CustomStringConvertible, @unchecked Sendable {
    private let subject: ReplaySubject

    private let id: Int

    init(subject: ReplaySubject, id: Int) {
      self.subject = subject
      self.id = id
    }

    var description: String { "ReplaySubject" }

    func request(_ demand: Subscribers.Demand) {
      subject.request(demand, for: id)
    }

    func cancel() {
      subject.cancel(id)
    }
  }
}
