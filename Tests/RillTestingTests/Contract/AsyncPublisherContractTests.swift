import Foundation
import RillTestSupport
import RillTesting
import Testing

/// The contract checker's `async` form, on publishers that deliver later from another thread: one that keeps the
/// contract, and broken ones that only a check that waits can catch.
///
/// The publisher delivers from a thread of its own, not from a task: while the whole suite runs, synchronous tests
/// can hold every thread of the cooperative pool for longer than a check's timeout, and a task would not start.
@Suite struct AsyncPublisherContractTests {
  @Test(arguments: ContractDemand.standard)
  func aPublisherDeliveringFromAnotherThreadKeepsTheContract(demand: ContractDemand) async {
    let expected: [ContractDemand: [Int]] = [
      .unlimited: [1, 2, 3], .none: [], .max(1): [1], .max(3): [1, 2, 3], .oneAtATime: [1, 2, 3],
      .cancel(afterValues: 1): [1],
    ]
    let report = await PublisherContract.check(
      ThreadPublisher(values: [1, 2, 3]),
      demand: demand,
      expectsCompletion: demand != .none && demand != .max(1),
      timeout: .seconds(30)
    ) { checker in
      // Without a completion to wait for, the check ends when the publisher goes quiet: wait for the values first.
      await until { checker.report().values.count == expected[demand]?.count }
    }
    #expect(report.isSatisfied, "\(demand): \(report)")
    expectEqual(report.values, expected[demand], "\(demand): \(report)")
  }

  /// What the synchronous form sees of the same publisher: the subscription and the request, nothing more.
  @Test func theSynchronousCheckJudgesBeforeTheThreadDelivers() async {
    let report = PublisherContract.check(ThreadPublisher(values: [1], startDelay: .seconds(5)), expectsCompletion: true)
    expectEqual(report.events.map(\.description), ["subscription", "request(unlimited)"])
    expectEqual(report.violations.map(\.kind), [.missingCompletion])
  }

  @Test func aValueBeyondDemandSentFromAnotherThreadIsReported() async {
    let report = await PublisherContract.check(
      ThreadPublisher(values: [1, 2, 3], flaw: .ignoresDemand),
      demand: .max(1),
      expectsCompletion: true,
      timeout: .seconds(30)
    )
    expectEqual(report.firstViolation?.kind, .valueBeyondDemand, "\(report)")
    expectEqual(report.firstViolation?.history, ["subscription", "request(max(1))", "value(1)", "value(2)"])
  }

  @Test func aLateSecondCompletionIsReported() async {
    let report = await PublisherContract.check(
      ThreadPublisher(values: [1], flaw: .completesTwice),
      expectsCompletion: true,
      timeout: .seconds(30),
      quietPeriod: .milliseconds(500)
    ) { checker in
      // The quiet period is what catches a late event in real use; on a loaded machine the second completion may
      // come later than any fixed period, so the test waits for it before the checker settles.
      await until { !checker.report().violations.isEmpty }
    }
    expectEqual(report.violations.map(\.kind), [.secondCompletion], "\(report)")
    expectEqual(report.values, [1])
  }

  @Test func driveMayAwaitAndRequestMore() async {
    let report = await PublisherContract.check(
      ThreadPublisher(values: [1, 2, 3]),
      demand: .max(1),
      expectsCompletion: true,
      timeout: .seconds(30)
    ) { checker in
      await until { checker.report().values == [1] }
      await checker.settle(timeout: .seconds(30))
      checker.request(.max(2))
    }
    #expect(report.isSatisfied, "\(report)")
    #expect(
      report.events.map(\.description) == [
        "subscription", "request(max(1))", "value(1)", "request(max(2))", "value(2)", "value(3)", "finished",
      ]
    )
  }

  @Test func aRunThatNeverCompletesIsJudgedAtTheTimeout() async {
    let upstream = TestPublisher<Int, Never>()
    let clock = ContinuousClock()
    let start = clock.now
    let report = await PublisherContract.check(upstream, expectsCompletion: true, timeout: .milliseconds(200))
    #expect(start.duration(to: clock.now) >= .milliseconds(200))
    expectEqual(report.violations.map(\.kind), [.missingCompletion])

    let checker = ContractChecker<Int, Never>()
    TestPublisher<Int, Never>().subscribe(checker)
    #expect(await checker.settle(expectingCompletion: true, timeout: .milliseconds(20)) == false)
    #expect(await checker.settle(timeout: .seconds(30), quietPeriod: .milliseconds(10)))
  }

  @Test func settleWaitsOutTheQuietPeriodAfterTheCompletion() async {
    let checker = ContractChecker<Int, Never>()
    Just(1).subscribe(checker)
    let clock = ContinuousClock()
    let start = clock.now
    #expect(await checker.settle(expectingCompletion: true, timeout: .seconds(30), quietPeriod: .milliseconds(40)))
    #expect(start.duration(to: clock.now) >= .milliseconds(40))
    #expect(checker.report(expectsCompletion: true).isSatisfied)
  }
}

/// Waits until `condition` holds, polling every millisecond, for at most 30 seconds.
private func until(_ condition: () -> Bool) async {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: .seconds(30))
  while !condition(), clock.now < deadline {
    try? await Task.sleep(for: .milliseconds(1))
  }
}

/// Sends its values from a thread of its own, one per unit of demand, then finishes; or breaks the contract on
/// purpose.
private struct ThreadPublisher: Publisher {
  typealias Output = Int
  typealias Failure = Never

  enum Flaw {
    /// Keeps the contract.
    case none
    /// Sends every value whatever the demand.
    case ignoresDemand
    /// Finishes, then finishes again a little later.
    case completesTwice
  }

  let values: [Int]
  var flaw = Flaw.none
  var startDelay = Duration.zero

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    let subscription = ThreadSubscription(
      downstream: AnySubscriber(subscriber),
      values: values,
      flaw: flaw,
      startDelay: startDelay
    )
    subscriber.receive(subscription: subscription)
  }
}

/// The subscription of a ``ThreadPublisher``: a request starts a thread, unless one runs, that sends while demand
/// lasts.
// SAFETY: all mutable state is in `state`; the subscriber is called outside the lock.
private final class ThreadSubscription: Subscription, @unchecked Sendable {
  private struct State {
    var downstream: AnySubscriber<Int, Never>?
    var remaining: [Int]
    var demand = Subscribers.Demand.none
    var isRunning = false
  }

  private enum Step {
    case send(AnySubscriber<Int, Never>, Int)
    case finish(AnySubscriber<Int, Never>)
    case stop
  }

  private let state: Locked<State>
  private let flaw: ThreadPublisher.Flaw
  private let startDelay: Duration

  init(downstream: AnySubscriber<Int, Never>, values: [Int], flaw: ThreadPublisher.Flaw, startDelay: Duration) {
    state = Locked(State(downstream: downstream, remaining: values))
    self.flaw = flaw
    self.startDelay = startDelay
  }

  func request(_ demand: Subscribers.Demand) {
    let mustStart = state.withLock { state -> Bool in
      state.demand += demand
      guard state.downstream != nil, !state.isRunning else { return false }
      state.isRunning = true
      return true
    }
    guard mustStart else { return }
    let delay = startDelay
    Thread.detachNewThread {
      if delay > .zero { Thread.sleep(forTimeInterval: Self.seconds(delay)) }
      self.run()
    }
  }

  func cancel() {
    state.withLock { $0.downstream = nil }
  }

  private static func seconds(_ duration: Duration) -> TimeInterval {
    let (seconds, attoseconds) = duration.components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }

  private func run() {
    while true {
      let step = state.withLock { state -> Step in
        guard let downstream = state.downstream else { return .stop }
        if state.remaining.isEmpty {
          state.downstream = nil
          return .finish(downstream)
        }
        if flaw != .ignoresDemand {
          guard state.demand > .none else {
            state.isRunning = false
            return .stop
          }
          state.demand -= 1
        }
        return .send(downstream, state.remaining.removeFirst())
      }
      switch step {
      case .send(let downstream, let value):
        let more = downstream.receive(value)
        state.withLock { $0.demand += more }
      case .finish(let downstream):
        downstream.receive(completion: .finished)
        if flaw == .completesTwice {
          Thread.sleep(forTimeInterval: 0.005)
          downstream.receive(completion: .finished)
        }
        return
      case .stop:
        return
      }
    }
  }
}
