// `public` because `subscribe(_:)`, which is `@inlinable`, reads the count of enabled introspections.
public import Atomics

/// An object that observes every subscription made with `subscribe(_:)` while it is enabled: Combine's debugging
/// hook, underscored as in Combine.
///
/// ```
/// introspection.enable(); publisher.subscribe(subscriber)
/// hooks:   willReceive(publisher:subscriber:), willReceive(subscriber:subscription:),
///          didReceive(subscriber:subscription:), didReceive(publisher:subscriber:), ...
/// ```
///
/// While at least one introspection is enabled, `subscribe(_:)` hands the publisher a subscriber that reports each
/// event to the enabled introspections before and after forwarding it, and that subscriber hands its downstream a
/// subscription that reports each request and cancellation. Calling `receive(subscriber:)` directly is not
/// observed. While none is enabled, `subscribe(_:)` costs one atomic load more than `receive(subscriber:)`, and
/// subscriptions made then are never observed.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
public protocol _Introspection: AnyObject {
  /// Called before a publisher receives a subscriber.
  func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
  where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

  /// Called after a publisher received a subscriber.
  func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
  where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

  /// Called before a subscriber receives a subscription.
  func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)

  /// Called after a subscriber received a subscription.
  func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)

  /// Called before a subscriber receives a value.
  func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input)

  /// Called after a subscriber received a value, with the demand it returned.
  func didReceive<Downstream: Subscriber>(
    subscriber: Downstream,
    input: Downstream.Input,
    resultingDemand: Subscribers.Demand
  )

  /// Called before a subscriber receives a completion.
  func willReceive<Downstream: Subscriber>(
    subscriber: Downstream,
    completion: Subscribers.Completion<Downstream.Failure>
  )

  /// Called after a subscriber received a completion.
  func didReceive<Downstream: Subscriber>(
    subscriber: Downstream,
    completion: Subscribers.Completion<Downstream.Failure>
  )

  /// Called before a subscription receives a request.
  func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand)

  /// Called after a subscription received a request.
  func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand)

  /// Called before a subscription is cancelled.
  func willCancel(subscription: any Subscription)

  /// Called after a subscription was cancelled.
  func didCancel(subscription: any Subscription)
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension _Introspection {
  public func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
  where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

  public func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
  where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

  public func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {}

  public func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {}

  public func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {}

  public func didReceive<Downstream: Subscriber>(
    subscriber: Downstream,
    input: Downstream.Input,
    resultingDemand: Subscribers.Demand
  ) {}

  public func willReceive<Downstream: Subscriber>(
    subscriber: Downstream,
    completion: Subscribers.Completion<Downstream.Failure>
  ) {}

  public func didReceive<Downstream: Subscriber>(
    subscriber: Downstream,
    completion: Subscribers.Completion<Downstream.Failure>
  ) {}

  public func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}

  public func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}

  public func willCancel(subscription: any Subscription) {}

  public func didCancel(subscription: any Subscription) {}

  /// Starts observing subscriptions made with `subscribe(_:)` and the events of those already observed.
  public func enable() {
    IntrospectionRegistry.enable(self)
  }

  /// Stops observing.
  public func disable() {
    IntrospectionRegistry.disable(self)
  }

  /// Whether this introspection observes subscriptions now.
  public var isEnabled: Bool {
    IntrospectionRegistry.isEnabled(self)
  }
}

/// How many introspections are enabled: the one thing `subscribe(_:)` reads when none is.
@usableFromInline
let enabledIntrospectionCount = ManagedAtomic<Int>(0)

/// The enabled introspections, in the order they were enabled.
// SAFETY: all mutable state is in `state`; the introspections are called outside the lock, from any thread, which
// is what enabling one asks for.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
final class IntrospectionRegistry: @unchecked Sendable {
  private struct Entry {
    let introspection: any _Introspection
  }

  private let state = Locked<[Entry]>([])

  private static let shared = IntrospectionRegistry()

  private static var entries: Locked<[Entry]> {
    _read { yield shared.state }
  }

  static func enable(_ introspection: any _Introspection) {
    entries.withLock { entries in
      guard !entries.contains(where: { $0.introspection === introspection }) else { return }
      entries.append(Entry(introspection: introspection))
      enabledIntrospectionCount.store(entries.count, ordering: .releasing)
    }
  }

  static func disable(_ introspection: any _Introspection) {
    // The entry is released after unlocking: an introspection's deinit is its owner's code.
    let removed = entries.withLock { entries -> [Entry] in
      let removed = entries.filter { $0.introspection === introspection }
      entries.removeAll { $0.introspection === introspection }
      enabledIntrospectionCount.store(entries.count, ordering: .releasing)
      return removed
    }
    _ = removed
  }

  static func isEnabled(_ introspection: any _Introspection) -> Bool {
    entries.withLock { entries in entries.contains { $0.introspection === introspection } }
  }

  /// The introspections enabled now; empty, without taking the lock, when none is.
  static var current: [any _Introspection] {
    guard enabledIntrospectionCount.load(ordering: .acquiring) > 0 else { return [] }
    return entries.withLock { entries in entries.map(\.introspection) }
  }
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension Publisher {
  /// Subscribes `subscriber` as `subscribe(_:)` does while an introspection is enabled: reports the subscription
  /// to the enabled introspections, and gives the publisher a subscriber that reports its events.
  @usableFromInline
  func subscribeIntrospected<S: Subscriber>(_ subscriber: S) where Failure == S.Failure, Output == S.Input {
    let introspections = IntrospectionRegistry.current
    guard !introspections.isEmpty else {
      receive(subscriber: subscriber)
      return
    }
    if isObserved(subscriber) {
      // Already observed further downstream: report it again under its erased form, and do not wrap it twice.
      let erased = AnySubscriber(subscriber)
      for introspection in introspections { introspection.willReceive(publisher: self, subscriber: erased) }
      receive(subscriber: subscriber)
      for introspection in introspections { introspection.didReceive(publisher: self, subscriber: erased) }
      return
    }
    for introspection in introspections { introspection.willReceive(publisher: self, subscriber: subscriber) }
    receive(subscriber: IntrospectionSubscriber(subscriber))
    for introspection in introspections { introspection.didReceive(publisher: self, subscriber: subscriber) }
  }
}

/// Whether `subscriber` already reports its events: an observed subscriber, or an `AnyPublisher`'s wrapper of one.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
private func isObserved<S: Subscriber>(_ subscriber: S) -> Bool {
  if subscriber is IntrospectionSubscriber<S.Input, S.Failure> { return true }
  if let erased = subscriber as? AnyPublisherSubscriber<S.Input, S.Failure> {
    return erased.base is IntrospectionSubscriber<S.Input, S.Failure>
  }
  return false
}

/// The subscriber that `subscribe(_:)` hands a publisher while an introspection is enabled.
///
/// It forwards every event to the real subscriber unchanged and reports it, before and after, to the
/// introspections enabled at the time. It shows the real subscriber's description and identity.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
final class IntrospectionSubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
  private let downstream: AnySubscriber<Input, Failure>
  private let report: IntrospectionReport<Input, Failure>

  init<Downstream: Subscriber>(_ downstream: Downstream)
  where Downstream.Input == Input, Downstream.Failure == Failure {
    self.downstream = AnySubscriber(downstream)
    report = IntrospectionReport(downstream)
  }

  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  var description: String { downstream.description }

  func receive(subscription: any Subscription) {
    let introspections = IntrospectionRegistry.current
    for introspection in introspections { report.willReceive(introspection, subscription) }
    let observed = subscription is IntrospectionSubscription ? subscription : IntrospectionSubscription(subscription)
    downstream.receive(subscription: observed)
    for introspection in introspections { report.didReceive(introspection, subscription) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let introspections = IntrospectionRegistry.current
    for introspection in introspections { report.willReceiveInput(introspection, input) }
    let demand = downstream.receive(input)
    for introspection in introspections { report.didReceiveInput(introspection, input, demand) }
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let introspections = IntrospectionRegistry.current
    for introspection in introspections { report.willReceiveCompletion(introspection, completion) }
    downstream.receive(completion: completion)
    for introspection in introspections { report.didReceiveCompletion(introspection, completion) }
  }
}

/// Calls an introspection's subscriber hooks with the real subscriber, whose type is known only where it was made.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
private struct IntrospectionReport<Input, Failure: Error> {
  let willReceive: (any _Introspection, any Subscription) -> Void
  let didReceive: (any _Introspection, any Subscription) -> Void
  let willReceiveInput: (any _Introspection, Input) -> Void
  let didReceiveInput: (any _Introspection, Input, Subscribers.Demand) -> Void
  let willReceiveCompletion: (any _Introspection, Subscribers.Completion<Failure>) -> Void
  let didReceiveCompletion: (any _Introspection, Subscribers.Completion<Failure>) -> Void

  init<Downstream: Subscriber>(_ downstream: Downstream)
  where Downstream.Input == Input, Downstream.Failure == Failure {
    willReceive = { $0.willReceive(subscriber: downstream, subscription: $1) }
    didReceive = { $0.didReceive(subscriber: downstream, subscription: $1) }
    willReceiveInput = { $0.willReceive(subscriber: downstream, input: $1) }
    didReceiveInput = { $0.didReceive(subscriber: downstream, input: $1, resultingDemand: $2) }
    willReceiveCompletion = { $0.willReceive(subscriber: downstream, completion: $1) }
    didReceiveCompletion = { $0.didReceive(subscriber: downstream, completion: $1) }
  }
}

/// The subscription an observed subscriber receives.
///
/// It forwards every request and cancellation to the real subscription and reports it, before and after, to the
/// introspections enabled at the time. It shows the real subscription's description and identity.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
final class IntrospectionSubscription: Subscription, CustomStringConvertible {
  private let upstream: any Subscription

  init(_ upstream: any Subscription) {
    self.upstream = upstream
  }

  var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

  var description: String { String(describing: upstream) }

  func request(_ demand: Subscribers.Demand) {
    let introspections = IntrospectionRegistry.current
    for introspection in introspections { introspection.willRequest(subscription: upstream, demand) }
    upstream.request(demand)
    for introspection in introspections { introspection.didRequest(subscription: upstream, demand) }
  }

  func cancel() {
    let introspections = IntrospectionRegistry.current
    for introspection in introspections { introspection.willCancel(subscription: upstream) }
    upstream.cancel()
    for introspection in introspections { introspection.didCancel(subscription: upstream) }
  }
}
