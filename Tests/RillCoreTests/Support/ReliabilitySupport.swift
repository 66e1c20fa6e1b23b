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

/// The reliability tests' names for the shared contract-checking subscriber and its events.
typealias ReliabilityEvent<Value: Equatable> = StressEvent<Value>
typealias ReliabilityStrictRecorder<Value: Equatable, Failure: Error> = StressRecorder<Value, Failure>
