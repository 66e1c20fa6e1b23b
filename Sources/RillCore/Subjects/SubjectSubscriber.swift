/// Feeds an upstream publisher's events into a subject.
///
/// It is the subscription the subject sees, so the subject's demand goes straight upstream. As in Combine, it does
/// not keep the subject alive: a subject that goes away cancels its upstream subscriptions, this one included.
///
/// Inlinable, so that client code specialises it: a value then reaches the subject's specialised `send(_:)`, where
/// an unspecialised call would look up generic metadata at run time on every value.
// SAFETY: all mutable state is in `state`; upstream and subject are called, and released, outside the lock.
@usableFromInline
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
  @unchecked Sendable
{
  @usableFromInline typealias Input = Downstream.Output
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline
  struct State {
    @usableFromInline weak var subject: Downstream?
    @usableFromInline var link = SubscriptionState.awaitingSubscription

    @inlinable
    init(subject: Downstream) {
      self.subject = subject
    }
  }

  @usableFromInline let state: Locked<State>

  @inlinable
  init(_ subject: Downstream) {
    state = Locked(State(subject: subject))
  }

  @usableFromInline var description: String { "Subject" }

  @inlinable
  func receive(subscription: any Subscription) {
    let subject = state.withLock { state -> Downstream? in
      guard let subject = state.subject, state.link.subscribe(subscription) else { return nil }
      return subject
    }
    guard let subject else {
      subscription.cancel()
      return
    }
    subject.send(subscription: self)
    // Cancelled on another thread while the subject was being handed this subscription: it ends here.
    if state.withLock({ !$0.link.isSubscribed }) { forget(by: subject) }
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    guard let subject = state.withLock({ $0.link.isSubscribed ? $0.subject : nil }) else { return .none }
    subject.send(input)
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    // The upstream's subscription, which has completed, is released after unlocking.
    let (subject, upstream) = state.withLock { state -> (Downstream?, (any Subscription)?) in
      guard let upstream = state.link.endForCompletion() else { return (nil, nil) }
      return (state.subject.take(), upstream)
    }
    _ = upstream
    guard let subject else { return }
    forget(by: subject)
    subject.send(completion: completion)
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    state.withLock { $0.link.upstream }?.request(demand)
  }

  @inlinable
  func cancel() {
    let (upstream, subject) = state.withLock { state -> ((any Subscription)?, Downstream?) in
      (state.link.terminate(), state.subject.take())
    }
    upstream?.cancel()
    if let subject { forget(by: subject) }
  }

  /// Tells the subject, if it keeps its upstream subscriptions, to forget this one, which has ended.
  @inlinable
  func forget(by subject: Downstream) {
    (subject as? any UpstreamKeepingSubject)?.forget(upstream: self)
  }
}
