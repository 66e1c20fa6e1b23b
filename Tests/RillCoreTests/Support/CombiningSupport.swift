import Foundation
import RillCore

/// The error the combining-operator tests fail with.
enum CombiningError: Error, Equatable {
  case boom
  case other
}

/// A subscription that records the demand requested from it and whether it was cancelled.
final class CombiningTestSubscription: Subscription, @unchecked Sendable {
  // SAFETY: mutable state is guarded by `lock`; `onRequest` is called outside it.
  private let lock = NSLock()
  private var recordedRequests: [Subscribers.Demand] = []
  private var recordedCancels = 0
  let combineIdentifier = CombineIdentifier()

  /// Called after each request is recorded, outside the lock.
  var onRequest: ((Subscribers.Demand) -> Void)?

  var requests: [Subscribers.Demand] { lock.withLock { recordedRequests } }

  var cancelCount: Int { lock.withLock { recordedCancels } }

  var isCancelled: Bool { cancelCount > 0 }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { recordedRequests.append(demand) }
    onRequest?(demand)
  }

  func cancel() {
    lock.withLock { recordedCancels += 1 }
  }
}

/// A hand-driven publisher: it hands each subscriber a recording subscription and forwards what the test sends
/// to the last subscriber, whatever the demand (so tests can also misbehave on purpose).
final class CombiningTestPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // SAFETY: mutable state is guarded by `lock`; the subscriber is called outside it.
  private let lock = NSLock()
  private var subscriber: AnySubscriber<Output, Failure>?
  private var subscriptions: [CombiningTestSubscription] = []

  init() {}

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = CombiningTestSubscription()
    lock.withLock {
      self.subscriber = AnySubscriber(subscriber)
      subscriptions.append(subscription)
    }
    subscriber.receive(subscription: subscription)
  }

  /// The subscription handed to the last subscriber.
  var subscription: CombiningTestSubscription { lock.withLock { subscriptions.last! } }

  var subscriptionCount: Int { lock.withLock { subscriptions.count } }

  var requests: [Subscribers.Demand] { subscription.requests }

  var isCancelled: Bool { subscription.isCancelled }

  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    lock.withLock { subscriber }?.receive(value) ?? .none
  }

  func send(completion: Subscribers.Completion<Failure>) {
    lock.withLock { subscriber }?.receive(completion: completion)
  }

  /// Drops the reference to the subscriber, as a publisher does after completion.
  func release() {
    lock.withLock { subscriber = nil }
  }
}

/// A subscriber that records everything it receives, requests `initialDemand` on subscription, asks
/// `onValue` for more demand per value, and notes any overlapping calls.
final class CombiningRecorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  // SAFETY: mutable state is guarded by `lock`; callbacks are called outside it.
  private let lock = NSLock()
  private var recordedValues: [Input] = []
  private var recordedCompletions: [Subscribers.Completion<Failure>] = []
  private var storedSubscription: (any Subscription)?
  private var callsInFlight = 0
  private var overlaps = 0
  let combineIdentifier = CombineIdentifier()

  private let initialDemand: Subscribers.Demand
  /// Returns the demand to add after each value; called outside the lock.
  var onValue: ((Input) -> Subscribers.Demand)?
  /// Called on completion, outside the lock.
  var onCompletion: ((Subscribers.Completion<Failure>) -> Void)?

  init(demand: Subscribers.Demand = .unlimited, onValue: ((Input) -> Subscribers.Demand)? = nil) {
    initialDemand = demand
    self.onValue = onValue
  }

  var values: [Input] { lock.withLock { recordedValues } }

  var completions: [Subscribers.Completion<Failure>] { lock.withLock { recordedCompletions } }

  var subscription: (any Subscription)? { lock.withLock { storedSubscription } }

  /// How many times a call arrived while another was still running.
  var overlappingCalls: Int { lock.withLock { overlaps } }

  func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }

  func cancel() {
    let subscription = lock.withLock { storedSubscription.take() }
    subscription?.cancel()
  }

  private func enter() {
    lock.withLock {
      callsInFlight += 1
      if callsInFlight > 1 { overlaps += 1 }
    }
  }

  private func leave() {
    lock.withLock { callsInFlight -= 1 }
  }

  func receive(subscription: any Subscription) {
    lock.withLock { storedSubscription = subscription }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    enter()
    lock.withLock { recordedValues.append(input) }
    let more = onValue?(input) ?? .none
    leave()
    return more
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    enter()
    lock.withLock {
      recordedCompletions.append(completion)
      storedSubscription = nil
    }
    onCompletion?(completion)
    leave()
  }
}

extension CombiningRecorder where Failure: Equatable {
  /// The single completion, or `nil`; `finished` or `failure(...)` compare by value.
  var completion: Subscribers.Completion<Failure>? { completions.last }
}

/// Runs `body` on `count` threads at once and waits for them all.
func combiningConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  DispatchQueue.concurrentPerform(iterations: count, execute: body)
}
