// Helpers shared by the test targets' stress and reliability tests: a lock around test state, a carrier for
// values that cross threads, a way to start many threads at once, and a subscriber that checks the contract.
// Not a product; only the test targets depend on it.
import Dispatch
import Foundation
public import RillCore

/// A lock around a value, for test helpers whose state is touched from many threads.
public final class StressLocked<State>: @unchecked Sendable {
  // SAFETY: `value` is only touched with `lock` held.
  private let lock = NSLock()
  private var value: State

  public init(_ value: State) { self.value = value }

  public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// Carries a value that is not `Sendable` to another thread, for stress tests of thread-safe Rill types.
public struct StressUnchecked<Value>: @unchecked Sendable {
  // SAFETY: only used with thread-safe Rill types and closures over them.
  public let value: Value

  public init(_ value: Value) { self.value = value }
}

/// Starting many threads at once, and scaling the stress tests' loops.
public enum StressThreads {
  /// Scales every loop; CI's ThreadSanitizer run sets `RILL_STRESS_SCALE=0.1`, as the sanitizer is slow.
  public static let scale = Double(ProcessInfo.processInfo.environment["RILL_STRESS_SCALE"] ?? "") ?? 1

  /// `count` scaled by ``scale``, and at least 10.
  public static func scaled(_ count: Int) -> Int { max(10, Int(Double(count) * scale)) }

  /// Runs `body(0..<count)` on `count` threads released at once; returns whether all of them finished within
  /// `timeout` seconds.
  public static func run(_ count: Int, timeout: Double = 30, _ body: @escaping (Int) -> Void) -> Bool {
    let body = StressUnchecked(body)
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
      group.enter()
      Thread.detachNewThread {
        start.wait()
        body.value(index)
        group.leave()
      }
    }
    for _ in 0..<count { start.signal() }
    return group.wait(timeout: .now() + timeout) == .success
  }
}

/// One event seen by a ``StressRecorder``.
public enum StressEvent<Value: Equatable>: Equatable {
  case value(Value)
  case finished
  case failure
}

/// A subscriber that checks the contract from the receiving side, from any thread.
///
/// It counts the demand it gave and records a violation for a value beyond it, any event after the completion,
/// a second completion, a second subscription (which it cancels) and a call that overlaps another, `onValue`
/// included. It notes what arrives after its own `cancel()` returned, and lets a test wait, with a time limit,
/// for the completion or for a condition.
public final class StressRecorder<Value: Equatable, Failure: Error>: Subscriber, @unchecked Sendable {
  public typealias Input = Value

  // SAFETY: all mutable state is in `state`; the subscription and `onValue` are called outside the lock.
  private struct State {
    var events: [StressEvent<Value>] = []
    var violations: [String] = []
    var subscription: (any Subscription)?
    var extraSubscriptions = 0
    var outstanding = Subscribers.Demand.none
    var completed = false
    var inFlight = 0
    var eventsWhenCancelled: Int?
  }

  private let state = StressLocked(State())
  private let completed = DispatchSemaphore(value: 0)
  private let initialDemand: Subscribers.Demand
  private let onValue: (StressRecorder, Value) -> Subscribers.Demand

  /// Creates a recorder that requests `initialDemand` when subscribed and returns what `onValue` returns for
  /// each value.
  public init(
    initialDemand: Subscribers.Demand = .unlimited,
    onValue: @escaping (StressRecorder, Value) -> Subscribers.Demand = { _, _ in .none }
  ) {
    self.initialDemand = initialDemand
    self.onValue = onValue
  }

  public var events: [StressEvent<Value>] { state.withLock { $0.events } }

  public var values: [Value] {
    events.compactMap {
      if case .value(let value) = $0 { return value }
      return nil
    }
  }

  /// The number of completions received.
  public var completions: Int { events.filter { $0 == .finished || $0 == .failure }.count }

  /// Contract violations seen so far; empty for a well-behaved upstream.
  public var violations: [String] { state.withLock { $0.violations } }

  /// Second and later subscriptions received (each was cancelled).
  public var extraSubscriptions: Int { state.withLock { $0.extraSubscriptions } }

  /// Whether the subscription has arrived.
  public var isSubscribed: Bool { state.withLock { $0.subscription != nil } }

  /// Events received after `cancel()` returned; at most the one delivery already under way may land there.
  public var eventsAfterCancel: Int {
    state.withLock { state in state.eventsWhenCancelled.map { state.events.count - $0 } ?? 0 }
  }

  private func enter(_ what: String) {
    state.withLock {
      $0.inFlight += 1
      if $0.inFlight > 1 { $0.violations.append("overlapping call: \(what)") }
    }
  }

  private func leave() { state.withLock { $0.inFlight -= 1 } }

  public func receive(subscription: any Subscription) {
    enter("subscription")
    let first = state.withLock { state -> Bool in
      guard state.subscription == nil, !state.completed else {
        state.extraSubscriptions += 1
        state.violations.append("second subscription")
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

  public func receive(_ input: Value) -> Subscribers.Demand {
    enter("value")
    state.withLock {
      if $0.completed { $0.violations.append("value \(input) after completion") }
      if $0.outstanding == .none { $0.violations.append("value \(input) beyond demand") }
      if $0.outstanding > 0 { $0.outstanding -= 1 }
      $0.events.append(.value(input))
    }
    let more = onValue(self, input)
    state.withLock { $0.outstanding += more }
    leave()
    return more
  }

  public func receive(completion: Subscribers.Completion<Failure>) {
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
    completed.signal()
  }

  /// Requests more values through the first subscription.
  public func request(_ demand: Subscribers.Demand) {
    let subscription = state.withLock { state -> (any Subscription)? in
      state.outstanding += demand
      return state.subscription
    }
    subscription?.request(demand)
  }

  /// Cancels the first subscription, and notes how many events had arrived when the cancel returned.
  public func cancel() {
    state.withLock { $0.subscription }?.cancel()
    state.withLock { $0.eventsWhenCancelled = $0.events.count }
  }

  /// Waits for the completion, up to `seconds`; `false` when it did not come.
  public func waitForCompletion(seconds: Double = 20) -> Bool {
    guard completed.wait(timeout: .now() + seconds) == .success else { return false }
    completed.signal()
    return true
  }

  /// Waits until `condition` holds, checking every millisecond, up to `seconds`; `false` when it never did.
  public func wait(seconds: Double = 20, until condition: (StressRecorder) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition(self) {
      if Date() > deadline { return false }
      usleep(1_000)
    }
    return true
  }
}

/// The values of the stress tests' producers, which tag each value with who sent it and in what order.
public enum StressValues {
  /// Producer `producer`'s `sequence`-th value: `producer * 1_000_000 + sequence`.
  public static func value(producer: Int, sequence: Int) -> Int { producer * 1_000_000 + sequence }

  /// Checks values sent by `producers` producers of `perProducer` values each: returns how many arrived per
  /// producer, and a problem for each value never sent, each duplicate and, when `ordered`, each value that
  /// arrived after a later one of the same producer.
  public static func check(
    _ values: [Int],
    producers: Int,
    perProducer: Int,
    ordered: Bool
  ) -> (counts: [Int], problems: [String]) {
    var last = [Int](repeating: -1, count: producers)
    var counts = [Int](repeating: 0, count: producers)
    var problems: [String] = []
    if Set(values).count != values.count { problems.append("duplicated values") }
    for value in values {
      let (producer, sequence) = value.quotientAndRemainder(dividingBy: 1_000_000)
      guard (0..<producers).contains(producer), (0..<perProducer).contains(sequence) else {
        problems.append("value \(value) was never sent")
        continue
      }
      if ordered, sequence <= last[producer] {
        problems.append("producer \(producer): \(sequence) after \(last[producer])")
      }
      last[producer] = sequence
      counts[producer] += 1
    }
    return (counts, problems)
  }
}
