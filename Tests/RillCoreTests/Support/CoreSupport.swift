import Foundation
import RillCore

/// An error for the foundation's tests.
enum CoreTestError: Error, Equatable {
  case boom
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
