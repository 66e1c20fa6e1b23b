import Dispatch
import Foundation
import Rill
import RillTestSupport
import Testing

extension Tag {
  /// Tests that hammer an operator from several threads; also run them under `--sanitize=thread`.
  @Tag static var stress: Self
}

/// An error for the time-operator stress tests.
enum TimeStressError: Error, Equatable {
  case timedOut
}

/// One event seen by a ``TimeStressRecorder``.
enum TimeStressEvent<Value: Equatable>: Equatable {
  case value(Value)
  case finished
  case failure
}

/// A subscriber that checks the contract from the receiving side, from any thread: it counts the demand it
/// gave and records a violation for a value beyond it, any event after the completion, a second completion and
/// a call that overlaps another; it notes what arrives after its own `cancel()` returned, and lets a test wait,
/// with a time limit, for the completion or for a condition.
final class TimeStressRecorder<Value: Equatable, Failure: Error>: Subscriber, @unchecked Sendable {
  typealias Input = Value

  // SAFETY: all mutable state is in `state`; the subscription and `onValue` are called outside the lock.
  private struct State {
    var events: [TimeStressEvent<Value>] = []
    var violations: [String] = []
    var subscription: (any Subscription)?
    var outstanding = Subscribers.Demand.none
    var completed = false
    var inFlight = 0
    var eventsWhenCancelled: Int?
  }

  private let state = StressLocked(State())
  private let completed = DispatchSemaphore(value: 0)
  private let initialDemand: Subscribers.Demand
  private let onValue: (Value) -> Subscribers.Demand

  init(
    initialDemand: Subscribers.Demand = .unlimited,
    onValue: @escaping (Value) -> Subscribers.Demand = { _ in .none }
  ) {
    self.initialDemand = initialDemand
    self.onValue = onValue
  }

  var events: [TimeStressEvent<Value>] { state.withLock { $0.events } }

  var values: [Value] {
    events.compactMap {
      if case .value(let value) = $0 { return value }
      return nil
    }
  }

  /// The number of completions received.
  var completions: Int { events.filter { $0 == .finished || $0 == .failure }.count }

  /// Contract violations seen so far.
  var violations: [String] { state.withLock { $0.violations } }

  /// Whether the subscription has arrived.
  var isSubscribed: Bool { state.withLock { $0.subscription != nil } }

  /// Events received after `cancel()` returned; at most the one delivery already under way may land there.
  var eventsAfterCancel: Int {
    state.withLock { state in state.eventsWhenCancelled.map { state.events.count - $0 } ?? 0 }
  }

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
      guard state.subscription == nil else {
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

  func receive(_ input: Value) -> Subscribers.Demand {
    enter("value")
    state.withLock {
      if $0.completed { $0.violations.append("value \(input) after completion") }
      if $0.outstanding == .none { $0.violations.append("value \(input) beyond demand") }
      if $0.outstanding > 0 { $0.outstanding -= 1 }
      $0.events.append(.value(input))
    }
    let more = onValue(input)
    state.withLock { $0.outstanding += more }
    leave()
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
    completed.signal()
  }

  /// Requests more values through the subscription.
  func request(_ demand: Subscribers.Demand) {
    let subscription = state.withLock { state -> (any Subscription)? in
      state.outstanding += demand
      return state.subscription
    }
    subscription?.request(demand)
  }

  /// Cancels the subscription, and notes how many events had arrived when the cancel returned.
  func cancel() {
    state.withLock { $0.subscription }?.cancel()
    state.withLock { $0.eventsWhenCancelled = $0.events.count }
  }

  /// Waits for the completion, up to `seconds`; `false` when it did not come.
  func waitForCompletion(seconds: Double = 20) -> Bool {
    guard completed.wait(timeout: .now() + seconds) == .success else { return false }
    completed.signal()
    return true
  }

  /// Waits until `condition` holds, checking every millisecond, up to `seconds`; `false` when it never did.
  func wait(seconds: Double = 20, until condition: (TimeStressRecorder) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition(self) {
      if Date() > deadline { return false }
      usleep(1_000)
    }
    return true
  }
}

/// The queues the time operators are stressed on: a serial queue keeps the order of scheduled actions, a
/// concurrent one runs them at once.
enum TimeStressQueue: String, CaseIterable, Sendable {
  case serial
  case concurrent

  func make() -> DispatchQueue {
    switch self {
    case .serial: DispatchQueue(label: "rill.stress.serial")
    case .concurrent: DispatchQueue(label: "rill.stress.concurrent", attributes: .concurrent)
    }
  }
}
