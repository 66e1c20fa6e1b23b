import Foundation
import RillCore
import RillTesting

/// The error the combining-operator tests fail with.
enum CombiningError: Error, Equatable {
  case boom
  case other
}

/// Hooks for a combining test's ``TestSubscriber`` that the test can set after building its pipeline, and a
/// count of the calls that reached them while another was still running.
///
/// ``subscriber(demand:)`` makes a subscriber whose value and completion hooks run these. A call that arrives
/// while another is in progress, re-entrantly or from another thread, counts as an overlap; an operator must
/// deliver one call at a time.
final class CombiningHooks<Input, Failure: Error>: @unchecked Sendable {
  // SAFETY: mutable state is guarded by `lock`; the hooks are called outside it.
  private let lock = NSLock()
  private var valueHook: ((Input) -> Subscribers.Demand)?
  private var completionHook: ((Subscribers.Completion<Failure>) -> Void)?
  private var callsInFlight = 0
  private var overlaps = 0

  init() {}

  /// Returns the demand to add after each value.
  var onValue: ((Input) -> Subscribers.Demand)? {
    get { lock.withLock { valueHook } }
    set { lock.withLock { valueHook = newValue } }
  }

  /// Runs on each completion.
  var onCompletion: ((Subscribers.Completion<Failure>) -> Void)? {
    get { lock.withLock { completionHook } }
    set { lock.withLock { completionHook = newValue } }
  }

  /// How many times a call arrived while another was still running.
  var overlappingCalls: Int { lock.withLock { overlaps } }

  /// A subscriber that requests `demand` on subscription and runs these hooks.
  func subscriber(demand: Subscribers.Demand = .unlimited) -> TestSubscriber<Input, Failure> {
    TestSubscriber(
      initialDemand: demand,
      onValue: { _, value in self.value(value) },
      onCompletion: { _, completion in self.completion(completion) }
    )
  }

  private func value(_ value: Input) -> Subscribers.Demand {
    let hook = enter { valueHook }
    defer { leave() }
    return hook?(value) ?? .none
  }

  private func completion(_ completion: Subscribers.Completion<Failure>) {
    let hook = enter { completionHook }
    defer { leave() }
    hook?(completion)
  }

  private func enter<Hook>(reading hook: () -> Hook) -> Hook {
    lock.withLock {
      callsInFlight += 1
      if callsInFlight > 1 { overlaps += 1 }
      return hook()
    }
  }

  private func leave() {
    lock.withLock { callsInFlight -= 1 }
  }
}

/// Runs `body` on `count` threads at once and waits for them all.
func combiningConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  DispatchQueue.concurrentPerform(iterations: count, execute: body)
}
