import Foundation
import RillCore
import RillTestSupport

/// An error for the reliability tests.
enum ReliabilityError: Error, Equatable {
  case boom
}

/// A subscription handed out by ``ReliabilityMisbehavingPublisher``: records demand and cancellation, does nothing.
final class ReliabilityProbeSubscription: Subscription, Sendable {
  private let state = StressLocked<(demand: Subscribers.Demand, cancels: Int)>((.none, 0))

  /// The demand requested so far.
  var demand: Subscribers.Demand { state.withLock { $0.demand } }

  /// How many times `cancel()` was called.
  var cancels: Int { state.withLock { $0.cancels } }

  func request(_ demand: Subscribers.Demand) {
    state.withLock { $0.demand += demand }
  }

  func cancel() {
    state.withLock { $0.cancels += 1 }
  }
}

/// A publisher that breaks the contract on command: it sends whatever the test tells it to, ignoring demand,
/// completion and cancellation.
final class ReliabilityMisbehavingPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // SAFETY: all mutable state is in `state`; subscribers are called outside the lock.
  private let state = StressLocked<[(AnySubscriber<Output, Failure>, ReliabilityProbeSubscription)]>([])

  /// The first subscription handed to each subscriber, in subscription order.
  var subscriptions: [ReliabilityProbeSubscription] { state.withLock { $0.map(\.1) } }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = ReliabilityProbeSubscription()
    state.withLock { $0.append((AnySubscriber(subscriber), subscription)) }
    subscriber.receive(subscription: subscription)
  }

  private var subscribers: [AnySubscriber<Output, Failure>] { state.withLock { $0.map(\.0) } }

  /// Sends a value to every subscriber, whatever their demand; returns the demand they returned.
  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    subscribers.reduce(.none) { $0 + $1.receive(value) }
  }

  /// Sends a completion to every subscriber, whether or not they were already completed.
  func send(completion: Subscribers.Completion<Failure>) {
    for subscriber in subscribers { subscriber.receive(completion: completion) }
  }

  /// Sends a second (third, ...) subscription to every subscriber; returns it.
  @discardableResult
  func sendSubscription() -> ReliabilityProbeSubscription {
    let extra = ReliabilityProbeSubscription()
    for subscriber in subscribers { subscriber.receive(subscription: extra) }
    return extra
  }
}

/// One event seen by a ``ReliabilityStrictRecorder``.
enum ReliabilityEvent<Value: Equatable>: Equatable {
  case value(Value)
  case finished
  case failure
}

/// A subscriber that checks the contract from the receiving side: it counts the demand it gave, and records a
/// violation for a value beyond that demand, any event after the completion, a second completion, and a call
/// that overlaps another.
final class ReliabilityStrictRecorder<Value: Equatable, Failure: Error>: Subscriber, @unchecked Sendable {
  typealias Input = Value

  // SAFETY: all mutable state is in `state`; the subscription and `onValue` are called outside the lock.
  private struct State {
    var events: [ReliabilityEvent<Value>] = []
    var violations: [String] = []
    var subscription: (any Subscription)?
    var extraSubscriptions = 0
    var outstanding = Subscribers.Demand.none
    var completed = false
    var inFlight = 0
  }

  private let state = StressLocked(State())
  private let initialDemand: Subscribers.Demand
  private let onValue: (ReliabilityStrictRecorder, Value) -> Subscribers.Demand

  init(
    initialDemand: Subscribers.Demand = .unlimited,
    onValue: @escaping (ReliabilityStrictRecorder, Value) -> Subscribers.Demand = { _, _ in .none }
  ) {
    self.initialDemand = initialDemand
    self.onValue = onValue
  }

  var events: [ReliabilityEvent<Value>] { state.withLock { $0.events } }

  var values: [Value] {
    events.compactMap {
      if case .value(let value) = $0 { return value }
      return nil
    }
  }

  /// The number of completions received.
  var completions: Int {
    events.filter {
      if case .value = $0 { return false }
      return true
    }.count
  }

  /// Contract violations seen so far; empty for a well-behaved upstream.
  var violations: [String] { state.withLock { $0.violations } }

  /// Second and later subscriptions received (each was cancelled).
  var extraSubscriptions: Int { state.withLock { $0.extraSubscriptions } }

  private func enter(_ what: String) {
    state.withLock {
      $0.inFlight += 1
      if $0.inFlight > 1 { $0.violations.append("overlapping call: \(what)") }
    }
  }

  private func leave() { state.withLock { $0.inFlight -= 1 } }

  func receive(subscription: any Subscription) {
    enter("subscription")
    let first = state.withLock { state -> Bool in
      guard state.subscription == nil, !state.completed else {
        state.extraSubscriptions += 1
        return false
      }
      state.subscription = subscription
      state.outstanding += initialDemand
      return true
    }
    leave()
    if !first {
      subscription.cancel()
    } else if initialDemand > 0 {
      subscription.request(initialDemand)
    }
  }

  func receive(_ input: Value) -> Subscribers.Demand {
    enter("value")
    state.withLock {
      if $0.completed { $0.violations.append("value \(input) after completion") }
      if $0.outstanding == .none { $0.violations.append("value \(input) beyond demand") }
      if $0.outstanding > 0 { $0.outstanding -= 1 }
      $0.events.append(.value(input))
    }
    leave()
    let more = onValue(self, input)
    state.withLock { $0.outstanding += more }
    return more
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    enter("completion")
    state.withLock {
      if $0.completed { $0.violations.append("second completion") }
      $0.completed = true
      switch completion {
      case .finished: $0.events.append(.finished)
      case .failure: $0.events.append(.failure)
      }
    }
    leave()
  }

  /// Requests more values through the first subscription.
  func request(_ demand: Subscribers.Demand) {
    let subscription = state.withLock { state -> (any Subscription)? in
      state.outstanding += demand
      return state.subscription
    }
    subscription?.request(demand)
  }

  /// Cancels the first subscription.
  func cancel() {
    state.withLock { $0.subscription }?.cancel()
  }
}
