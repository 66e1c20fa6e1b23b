import Foundation
import RillCore

/// An error for the foundation's tests.
enum CoreTestError: Error, Equatable {
  case boom
}

/// One event seen by a ``CoreRecorder``.
enum CoreEvent<Value: Equatable, Failure: Error & Equatable>: Equatable {
  case subscription
  case value(Value)
  case completion(Subscribers.Completion<Failure>)
}

/// A subscriber for the foundation's tests: records events, with demand set per test.
final class CoreRecorder<Value: Equatable, Failure: Error & Equatable>: Subscriber, @unchecked Sendable {
  typealias Input = Value

  private let lock = NSLock()
  private var _events: [CoreEvent<Value, Failure>] = []
  private var _subscription: (any Subscription)?
  private let initialDemand: Subscribers.Demand
  private let onValue: (CoreRecorder, Value) -> Subscribers.Demand

  init(
    initialDemand: Subscribers.Demand = .unlimited,
    onValue: @escaping (CoreRecorder, Value) -> Subscribers.Demand = { _, _ in .none }
  ) {
    self.initialDemand = initialDemand
    self.onValue = onValue
  }

  var events: [CoreEvent<Value, Failure>] { lock.withLock { _events } }

  var values: [Value] {
    events.compactMap {
      if case .value(let value) = $0 { return value }
      return nil
    }
  }

  var completions: [Subscribers.Completion<Failure>] {
    events.compactMap {
      if case .completion(let completion) = $0 { return completion }
      return nil
    }
  }

  var subscription: (any Subscription)? { lock.withLock { _subscription } }

  func receive(subscription: any Subscription) {
    lock.withLock {
      _events.append(.subscription)
      _subscription = subscription
    }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Value) -> Subscribers.Demand {
    lock.withLock { _events.append(.value(input)) }
    return onValue(self, input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      _events.append(.completion(completion))
      _subscription = nil
    }
  }

  func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }

  func cancel() {
    let subscription = lock.withLock {
      defer { _subscription = nil }
      return _subscription
    }
    subscription?.cancel()
  }
}

/// A publisher written only against the public protocols, as a user would write one: each subscriber gets its
/// own subscription that counts up from `start` on demand, then finishes after `count` values.
struct CoreCountingPublisher: Publisher {
  typealias Output = Int
  typealias Failure = Never

  let start: Int
  let count: Int

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscriber.receive(subscription: Inner(subscriber: subscriber, start: start, count: count))
  }

  private final class Inner<S: Subscriber>: Subscription, @unchecked Sendable where S.Input == Int, S.Failure == Never {
    private let lock = NSRecursiveLock()
    private var subscriber: S?
    private var next: Int
    private let end: Int
    private var demand = Subscribers.Demand.none
    private var delivering = false

    init(subscriber: S, start: Int, count: Int) {
      self.subscriber = subscriber
      next = start
      end = start + count
    }

    func request(_ demand: Subscribers.Demand) {
      lock.lock()
      self.demand += demand
      guard !delivering else {
        lock.unlock()
        return
      }
      delivering = true
      while let subscriber, self.demand > 0, next < end {
        self.demand -= 1
        let value = next
        next += 1
        lock.unlock()
        let more = subscriber.receive(value)
        lock.lock()
        self.demand += more
      }
      delivering = false
      let finished = next == end ? subscriber : nil
      if finished != nil { subscriber = nil }
      lock.unlock()
      finished?.receive(completion: .finished)
    }

    func cancel() {
      lock.withLock { subscriber = nil }
    }
  }
}

/// A subscriber written only against the public protocols: requests `batch` values at a time.
final class CoreBatchingSubscriber: Subscriber, @unchecked Sendable {
  typealias Input = Int
  typealias Failure = Never

  private let lock = NSLock()
  private var _received: [Int] = []
  private var _finished = false
  private let batch: Int

  init(batch: Int) { self.batch = batch }

  var received: [Int] { lock.withLock { _received } }
  var finished: Bool { lock.withLock { _finished } }

  func receive(subscription: any Subscription) {
    subscription.request(.max(batch))
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    let count = lock.withLock {
      _received.append(input)
      return _received.count
    }
    return count % batch == 0 ? .max(batch) : .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    lock.withLock { _finished = true }
  }
}
