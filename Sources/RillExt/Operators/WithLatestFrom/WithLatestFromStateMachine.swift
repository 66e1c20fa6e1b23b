/// The state of one `withLatestFrom` subscription, without locks or threads.
///
/// The other publisher is subscribed first and its values only update `latest`. Upstream is subscribed when the
/// other publisher sends its first value; until upstream's subscription arrives, downstream's requests add up in
/// the phase. `Sources` holds the publishers, which the machine keeps alive until the subscription ends, as
/// CombineExt does: a publisher that finishes when it is freed (a relay) does not end the stream while the
/// subscription lasts. Each method takes one event and returns what `Inner` must do once it has let go of the lock.
@usableFromInline
struct WithLatestFromStateMachine<Sources, OtherOutput> {
  @usableFromInline
  enum Phase {
    /// The other publisher has sent nothing yet; upstream is not subscribed.
    case awaitingOther(demand: Subscribers.Demand)
    /// Upstream is being subscribed; its subscription has not arrived.
    case subscribingUpstream(demand: Subscribers.Demand)
    case subscribed(any Subscription)
    /// Upstream completed or downstream cancelled.
    case terminal
  }

  @usableFromInline
  enum OtherLink {
    case awaitingSubscription
    case subscribed(any Subscription)
    /// The other publisher completed, or its subscription was cancelled.
    case ended
  }

  @usableFromInline
  var phase = Phase.awaitingOther(demand: .none)

  /// The publishers, until the subscription ends.
  @usableFromInline
  var sources: Sources?

  @usableFromInline
  var other = OtherLink.awaitingSubscription

  /// The other publisher's latest value.
  @usableFromInline
  var latest: OtherOutput?

  @inlinable
  init(sources: Sources) {
    self.sources = sources
  }

  /// Whether the subscription has ended, so the other publisher need not be subscribed.
  @inlinable
  var isTerminal: Bool {
    if case .terminal = phase { true } else { false }
  }

  // MARK: Downstream

  /// Downstream asks for more: returns upstream's subscription to pass the request on, or `nil` while the request
  /// waits for it (or after the end).
  @inlinable
  mutating func request(_ demand: Subscribers.Demand) -> (any Subscription)? {
    switch phase {
    case .awaitingOther(let pending):
      phase = .awaitingOther(demand: pending + demand)
      return nil
    case .subscribingUpstream(let pending):
      phase = .subscribingUpstream(demand: pending + demand)
      return nil
    case .subscribed(let upstream):
      return upstream
    case .terminal:
      return nil
    }
  }

  /// Downstream cancels: returns the subscriptions to cancel.
  @inlinable
  mutating func cancel() -> [any Subscription] {
    end()
  }

  // MARK: The other publisher

  /// The other publisher's subscription arrives: returns whether to keep it (and request everything) or cancel it.
  @inlinable
  mutating func otherSubscribed(_ subscription: any Subscription) -> Bool {
    guard case .awaitingSubscription = other, !isTerminal else { return false }
    other = .subscribed(subscription)
    return true
  }

  /// The other publisher sends a value: returns the publishers, to subscribe upstream, if this is its first value,
  /// and the value it replaces, to release after unlocking.
  @inlinable
  mutating func otherValue(_ value: OtherOutput) -> (subscribing: Sources?, replaced: OtherOutput?) {
    guard case .subscribed = other, !isTerminal else { return (nil, nil) }
    let replaced = latest.take()
    latest = value
    guard case .awaitingOther(let demand) = phase else { return (nil, replaced) }
    phase = .subscribingUpstream(demand: demand)
    return (sources, replaced)
  }

  /// The other publisher completes, or fails: its last value stays in use.
  ///
  /// Returns its subscription, which has completed, to release after unlocking.
  @inlinable
  mutating func otherCompleted() -> (any Subscription)? {
    guard case .subscribed(let subscription) = other else { return nil }
    other = .ended
    return subscription
  }

  // MARK: Upstream

  /// What to do with upstream's subscription.
  @usableFromInline
  enum UpstreamSubscribedAction {
    /// Keep it and request what downstream asked for meanwhile (if anything).
    case request(any Subscription, Subscribers.Demand)
    /// A second subscription, or one that arrives after the end.
    case cancel(any Subscription)
  }

  /// Upstream's subscription arrives.
  @inlinable
  mutating func upstreamSubscribed(_ subscription: any Subscription) -> UpstreamSubscribedAction {
    guard case .subscribingUpstream(let demand) = phase else { return .cancel(subscription) }
    phase = .subscribed(subscription)
    return .request(subscription, demand)
  }

  /// Upstream sends a value: returns the other publisher's latest value to combine it with, or `nil` to ignore it.
  @inlinable
  func upstreamValue() -> OtherOutput? {
    guard case .subscribed = phase else { return nil }
    return latest
  }

  /// Upstream completes: returns `nil` to ignore a completion after the end, or the subscriptions to cancel (the
  /// other publisher's) before completing downstream, with upstream's, which has completed, to release after
  /// unlocking.
  @inlinable
  mutating func upstreamCompleted() -> (cancelling: [any Subscription], released: any Subscription)? {
    guard case .subscribed(let upstream) = phase else { return nil }
    phase = .terminal
    return (end(), upstream)
  }

  /// Once the subscription has ended, hands over the publishers and the latest value, for the caller to let go of
  /// after the lock: freeing a publisher may run code (a relay finishes its subscribers when freed).
  @inlinable
  mutating func takeRetained() -> (sources: Sources?, latest: OtherOutput?) {
    guard isTerminal else { return (nil, nil) }
    defer {
      sources = nil
      latest = nil
    }
    return (sources, latest)
  }

  /// Ends the subscription; `takeRetained()` then hands over the publishers and the latest value.
  @inlinable
  mutating func end() -> [any Subscription] {
    var cancelling: [any Subscription] = []
    if case .subscribed(let upstream) = phase { cancelling.append(upstream) }
    if case .subscribed(let subscription) = other { cancelling.append(subscription) }
    phase = .terminal
    other = .ended
    return cancelling
  }
}
