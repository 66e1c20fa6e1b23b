/// A publisher that outside callers feed with values, like a subject that can neither fail nor finish.
///
/// ```
/// accept:                 -1-2---3-
/// relay, subscribed at 2: ---2---3-   (finished only when the relay is deallocated)
/// ```
///
/// A relay's subscribers receive `.finished` only when the relay itself is deallocated.
public protocol Relay: Publisher where Failure == Never {
  associatedtype Output

  /// Sends a value to the relay's subscribers.
  ///
  /// - Parameter value: The value to send.
  func accept(_ value: Output)

  /// Feeds the values of `publisher` to this relay; its completion is ignored.
  ///
  /// - Parameter publisher: A publisher that cannot fail, of the relay's output type.
  /// - Returns: A cancellable that stops feeding the relay.
  func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Failure == Failure, P.Output == Output
}

extension Publisher where Failure == Never {
  /// Feeds the values of this publisher to `relay`; the completion is ignored.
  ///
  /// ```
  /// upstream:                     -1-2-|
  /// relay (after subscribe(relay)): -1-2--
  /// ```
  ///
  /// - Parameter relay: The relay to feed.
  /// - Returns: A cancellable that stops feeding the relay.
  @inlinable
  public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
    relay.subscribe(self)
  }
}

extension Relay where Output == Void {
  /// Sends `()` to the relay's subscribers.
  @inlinable
  public func accept() {
    accept(())
  }
}

extension Publisher where Failure == Never {
  /// Feeds the values of this publisher to `subject`, ignoring the completion, so that a relay's storage never
  /// finishes because a publisher it was fed from did.
  @inlinable
  func feedValues<S: Subject>(to subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Never {
    let feed = RelayFeed(subject)
    subscribe(feed)
    return AnyCancellable(feed)
  }
}

/// Feeds a publisher's values to a relay's subject, as `subscribe(_:)` to a subject does, without the completion.
///
/// It is the subscription the subject sees, so the subject's demand goes upstream: the subject asks for values once
/// one of its own subscribers asks for some, and a value that upstream sends as soon as it is asked (a current
/// value) reaches the relay's first subscriber instead of being sent to no one. It does not keep the subject alive.
// SAFETY: all mutable state is in `state`; upstream and the subject are called outside the lock.
@usableFromInline
final class RelayFeed<Storage: Subject>: Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Storage.Failure == Never {
  @usableFromInline typealias Input = Storage.Output

  @usableFromInline typealias Failure = Never

  @usableFromInline
  enum Link {
    case awaitingSubscription
    case subscribed(any Subscription)
    /// Upstream completed, or the feed was cancelled.
    case ended
  }

  @usableFromInline
  struct State {
    @usableFromInline weak var subject: Storage?
    @usableFromInline var link = Link.awaitingSubscription

    @inlinable
    init(subject: Storage? = nil, link: Link = Link.awaitingSubscription) {
      self.subject = subject
      self.link = link
    }
  }

  @usableFromInline let state: Locked<State>

  @inlinable
  init(_ subject: Storage) {
    state = Locked(State(subject: subject))
  }

  @usableFromInline var description: String { "Relay" }

  @inlinable
  func receive(subscription: any Subscription) {
    let subject = state.withLock { state -> Storage? in
      guard case .awaitingSubscription = state.link, let subject = state.subject else { return nil }
      state.link = .subscribed(subscription)
      return subject
    }
    guard let subject else {
      subscription.cancel()
      return
    }
    subject.send(subscription: self)
    // Ended on another thread while the subject was being handed this feed: the subject forgets it here.
    if state.withLock({ if case .ended = $0.link { true } else { false } }) {
      (subject as? any UpstreamKeepingSubject)?.forget(upstream: self)
    }
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    let subject = state.withLock { state -> Storage? in
      guard case .subscribed = state.link else { return nil }
      return state.subject
    }
    subject?.send(input)
    return .none
  }

  /// The relay carries on: only the link to this publisher ends, and its subject forgets it.
  @inlinable
  func receive(completion: Subscribers.Completion<Never>) {
    let (upstream, subject) = state.withLock { state -> (Link, Storage?) in
      defer { state.link = .ended }
      return (state.link, state.subject.take())
    }
    (subject as? any UpstreamKeepingSubject)?.forget(upstream: self)
    // Released here, outside the lock.
    _ = upstream
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    let upstream = state.withLock { state -> (any Subscription)? in
      guard case .subscribed(let upstream) = state.link else { return nil }
      return upstream
    }
    upstream?.request(demand)
  }

  @inlinable
  func cancel() {
    let (upstream, subject) = state.withLock { state -> ((any Subscription)?, Storage?) in
      defer { state.link = .ended }
      guard case .subscribed(let upstream) = state.link else { return (nil, state.subject.take()) }
      return (upstream, state.subject.take())
    }
    upstream?.cancel()
    (subject as? any UpstreamKeepingSubject)?.forget(upstream: self)
  }
}
