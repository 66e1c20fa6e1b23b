#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Checks publishers against the contract every Combine publisher keeps with its subscribers.
///
/// The rules: a subscription first, and only one; never a value beyond the demand requested; nothing after a
/// completion, and at most one completion; no value after cancel (in a synchronous run); never two calls into
/// the subscriber at once from different threads (re-entrant calls on one thread are allowed). A completion
/// after cancel is tolerated: Combine's one-shot publishers, such as `Just`, finish right after their value
/// even when the subscriber cancelled from inside it. See ``ContractChecker`` for the details.
///
/// ```swift
/// for demand in ContractDemand.standard {
///   let report = PublisherContract.check([1, 2, 3].publisher.map { $0 * 2 }, demand: demand)
///   #expect(report.isSatisfied, "\(report)")
/// }
/// ```
public enum PublisherContract {
  /// Subscribes a ``ContractChecker`` to `publisher`, lets `drive` push events, and reports what it saw.
  ///
  /// - Parameters:
  ///   - publisher: The publisher to check.
  ///   - demand: How the checker requests values; `.unlimited` by default.
  ///   - expectsCompletion: Whether a run without a completion (and without cancel) breaks the contract.
  ///   - drive: Runs after subscribing, to send through a subject or advance a scheduler; it may also call
  ///     the checker's `request(_:)` and `cancel()`.
  /// - Returns: The events and any violations.
  public static func check<P: Publisher>(
    _ publisher: P,
    demand: ContractDemand = .unlimited,
    expectsCompletion: Bool = false,
    drive: (ContractChecker<P.Output, P.Failure>) -> Void = { _ in }
  ) -> ContractReport<P.Output, P.Failure> {
    let checker = ContractChecker<P.Output, P.Failure>(demand: demand)
    publisher.subscribe(checker)
    drive(checker)
    return checker.report(expectsCompletion: expectsCompletion)
  }

  /// Subscribes a ``ContractChecker`` to a publisher that delivers later, from a task or another thread, lets
  /// `drive` push events, waits for the run to settle, and reports what it saw.
  ///
  /// The synchronous form judges as soon as `drive` returns, before such a publisher has sent anything: its
  /// report shows only the subscription and the request, and is satisfied by default or flags a missing
  /// completion. This form waits, after `drive`, until no event has arrived for `quietPeriod` and, when a
  /// completion is expected, the checker has received it or cancelled: the quiet period after the last event
  /// lets an event sent too late, such as a second completion, make the report. See
  /// ``ContractChecker/settle(expectingCompletion:timeout:quietPeriod:)``.
  ///
  /// ```swift
  /// @Test(arguments: ContractDemand.standard)
  /// func anAsyncSequenceKeepsTheContract(demand: ContractDemand) async {
  ///   let numbers = AsyncStream<Int> { continuation in
  ///     for number in 1...3 { continuation.yield(number) }
  ///     continuation.finish()
  ///   }
  ///   let report = await PublisherContract.check(
  ///     numbers.asPublisher(),  // RillExt's
  ///     demand: demand,
  ///     expectsCompletion: demand.initial == .unlimited,
  ///     timeout: .seconds(60)
  ///   )
  ///   #expect(report.isSatisfied, "\(report)")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - publisher: The publisher to check.
  ///   - demand: How the checker requests values; `.unlimited` by default.
  ///   - expectsCompletion: Whether a run without a completion (and without cancel) breaks the contract. It
  ///     also makes the check wait for the completion, not only for the publisher to go quiet.
  ///   - timeout: The longest wait after `drive`; a run still going then is judged as it stands.
  ///   - quietPeriod: How long without an event counts as idle; 50 milliseconds by default.
  ///   - drive: Runs after subscribing, to send through a subject, advance a scheduler or await the
  ///     publisher's progress; it may also call the checker's `request(_:)` and `cancel()`.
  /// - Returns: The events and any violations.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public static func check<P: Publisher>(
    _ publisher: P,
    demand: ContractDemand = .unlimited,
    expectsCompletion: Bool = false,
    timeout: Duration,
    quietPeriod: Duration = .milliseconds(50),
    drive: (ContractChecker<P.Output, P.Failure>) async -> Void = { _ in }
  ) async -> ContractReport<P.Output, P.Failure> {
    let checker = ContractChecker<P.Output, P.Failure>(demand: demand)
    publisher.subscribe(checker)
    await drive(checker)
    await checker.settle(expectingCompletion: expectsCompletion, timeout: timeout, quietPeriod: quietPeriod)
    return checker.report(expectsCompletion: expectsCompletion)
  }
}

/// A subscriber that records everything a publisher does to it and flags each breach of the contract.
///
/// It requests `demand.initial` when subscribed, returns `demand.perValue` from each value, and cancels from
/// inside the delivery of value number `demand.cancelAfterValues`. It tracks the outstanding demand
/// (everything requested or returned, minus the values received), and records its own requests and
/// cancellation among the events so a violation shows what led to it.
///
/// Overlapping calls are detected by noting which thread is inside the subscriber: a call from a second
/// thread while the first is still inside is a ``ContractViolation/Kind/concurrentCalls``. The `onEvent` hook
/// runs inside that window, so a test can provoke an overlap deterministically. The initial request, made at the
/// end of `receive(subscription:)`, is outside the window: a pipeline that ends in `receive(on:)` delivers its
/// first value on the scheduler's thread while that request may still be running, as it does in Combine, and
/// keeps the contract.
// SAFETY: all mutable state is in `state`; the subscription and the hook are called outside the lock.
public final class ContractChecker<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
  @unchecked Sendable
{
  private struct State {
    var events: [ContractEvent<Input, Failure>] = []
    var violations: [(kind: ContractViolation.Kind, index: Int)] = []
    var subscription: (any Subscription)?
    var isSubscribed = false
    var isCompleted = false
    var isCancelled = false
    var outstanding = Subscribers.Demand.none
    var valueCount = 0
    var owner: UInt?
    var depth = 0

    mutating func record(
      _ event: ContractEvent<Input, Failure>,
      concurrent: Bool,
      violation: ContractViolation.Kind?
    ) {
      events.append(event)
      if concurrent { violations.append((.concurrentCalls, events.count - 1)) }
      if let violation { violations.append((violation, events.count - 1)) }
    }
  }

  private let state = Locked(State())

  /// How the checker requests values.
  public let demand: ContractDemand

  private let onEvent: ((ContractChecker, ContractEvent<Input, Failure>) -> Void)?

  /// Creates a checker.
  ///
  /// - Parameters:
  ///   - demand: How the checker requests values; `.unlimited` by default.
  ///   - onEvent: Runs on each subscription, value and completion, after it is recorded and while the call is
  ///     still in progress.
  public init(
    demand: ContractDemand = .unlimited,
    onEvent: ((ContractChecker, ContractEvent<Input, Failure>) -> Void)? = nil
  ) {
    self.demand = demand
    self.onEvent = onEvent
  }

  // MARK: Subscriber

  /// Records the subscription, cancels it if it is not the first, and requests the initial demand.
  public func receive(subscription: any Subscription) {
    let owns = enter()
    let accepted = state.withLock { state -> Bool in
      let violation: ContractViolation.Kind? =
        state.isCompleted ? .eventAfterCompletion : state.isSubscribed ? .secondSubscription : nil
      state.record(.subscription, concurrent: !owns, violation: violation)
      guard violation == nil else { return false }
      state.isSubscribed = true
      guard !state.isCancelled else { return false }
      state.subscription = subscription
      return true
    }
    guard accepted else {
      exit(owns)
      // A second subscription, or the checker was cancelled before subscribing.
      subscription.cancel()
      return
    }
    onEvent?(self, .subscription)
    // The initial request leaves the call first: a publisher that delivers on another thread, as `receive(on:)`
    // does, may send its first value while that request is still running, and Combine's do so too.
    exit(owns)
    request(demand.initial)
  }

  /// Records the value, checks it against the demand, and returns `demand.perValue`.
  public func receive(_ input: Input) -> Subscribers.Demand {
    let owns = enter()
    defer { exit(owns) }
    let (cancelling, returned) = state.withLock { state -> ((any Subscription)?, Subscribers.Demand) in
      var violation: ContractViolation.Kind?
      if !state.isSubscribed {
        violation = .eventBeforeSubscription
      } else if state.isCompleted {
        violation = .eventAfterCompletion
      } else if state.isCancelled {
        violation = .valueAfterCancel
      } else if state.outstanding == .none {
        violation = .valueBeyondDemand
      } else {
        state.outstanding -= 1
      }
      state.record(.value(input), concurrent: !owns, violation: violation)
      guard violation == nil else { return (nil, .none) }
      state.valueCount += 1
      if state.valueCount == demand.cancelAfterValues {
        state.isCancelled = true
        state.events.append(.cancel)
        defer { state.subscription = nil }
        return (state.subscription, .none)
      }
      guard demand.perValue > .none else { return (nil, .none) }
      state.outstanding += demand.perValue
      state.events.append(.request(demand.perValue))
      return (nil, demand.perValue)
    }
    onEvent?(self, .value(input))
    cancelling?.cancel()
    return returned
  }

  /// Records the completion and checks that it is the first, and lets go of the subscription.
  public func receive(completion: Subscribers.Completion<Failure>) {
    let owns = enter()
    defer { exit(owns) }
    let subscription = state.withLock { state -> (any Subscription)? in
      var violation: ContractViolation.Kind?
      if !state.isSubscribed {
        violation = .eventBeforeSubscription
      } else if state.isCompleted {
        violation = .secondCompletion
      }
      state.record(.completion(completion), concurrent: !owns, violation: violation)
      state.isCompleted = true
      defer { state.subscription = nil }
      return state.subscription
    }
    _ = subscription
    onEvent?(self, .completion(completion))
  }

  // MARK: Control

  /// Requests more values, recording the request; does nothing for `.none`, after completion or cancel.
  ///
  /// - Parameter demand: The number of additional values to request.
  public func request(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    let subscription = state.withLock { state -> (any Subscription)? in
      guard let subscription = state.subscription, !state.isCompleted, !state.isCancelled else { return nil }
      state.outstanding += demand
      state.events.append(.request(demand))
      return subscription
    }
    subscription?.request(demand)
  }

  /// Cancels the subscription, recording it; later calls do nothing.
  public func cancel() {
    let subscription = state.withLock { state -> (any Subscription)? in
      guard !state.isCancelled, !state.isCompleted else { return nil }
      state.isCancelled = true
      state.events.append(.cancel)
      defer { state.subscription = nil }
      return state.subscription
    }
    subscription?.cancel()
  }

  // MARK: Report

  /// Returns the events so far and every violation, adding a missing subscription or completion.
  ///
  /// - Parameter expectsCompletion: Whether a run without a completion (and without cancel) is a violation.
  /// - Returns: The report.
  public func report(expectsCompletion: Bool = false) -> ContractReport<Input, Failure> {
    let state = state.withLock { $0 }
    let history = state.events.map(\.description)
    var violations = state.violations.map { kind, index in
      ContractViolation(kind: kind, eventIndex: index, history: Array(history[...index]))
    }
    if !state.isSubscribed {
      violations.append(ContractViolation(kind: .missingSubscription, eventIndex: history.count, history: history))
    } else if expectsCompletion, !state.isCompleted, !state.isCancelled {
      violations.append(ContractViolation(kind: .missingCompletion, eventIndex: history.count, history: history))
    }
    return ContractReport(events: state.events, violations: violations)
  }

  /// The report so far, for test failure messages.
  public var description: String { report().description }

  // MARK: Settling

  /// Waits until a publisher that delivers from a task or another thread is done with this checker.
  ///
  /// The run has settled once no event has arrived for `quietPeriod` and, if `expectsCompletion`, the checker
  /// has received a completion or cancelled. Without an expected completion, the quiet period is how it tells
  /// that the publisher has sent what its demand allows and is idle; after a completion, it lets an event sent
  /// too late (a value after the completion, a second completion) be recorded before the report is made.
  /// Events arriving keep the wait going, up to `timeout`.
  ///
  /// ```swift
  /// let checker = ContractChecker<Int, Never>(demand: .max(2))
  /// publisher.subscribe(checker)
  /// let settled = await checker.settle(timeout: .seconds(10))
  /// #expect(settled && checker.report().isSatisfied, "\(checker)")
  /// ```
  ///
  /// It polls every millisecond, so it never blocks a thread of the cooperative pool, which the publisher may
  /// need to deliver.
  ///
  /// - Parameters:
  ///   - expectsCompletion: Whether to wait for a completion (or cancel) as well as for the publisher to go
  ///     quiet.
  ///   - timeout: The longest wait.
  ///   - quietPeriod: How long without an event counts as idle; 50 milliseconds by default.
  /// - Returns: `true` if the run settled, `false` if `timeout` passed first or the calling task was cancelled.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @discardableResult
  public func settle(
    expectingCompletion expectsCompletion: Bool = false,
    timeout: Duration,
    quietPeriod: Duration = .milliseconds(50)
  ) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var eventCount = -1
    var lastEvent = clock.now
    while true {
      let (count, isOver) = state.withLock { ($0.events.count, $0.isCompleted || $0.isCancelled) }
      let now = clock.now
      if count != eventCount {
        eventCount = count
        lastEvent = now
      }
      if lastEvent.duration(to: now) >= quietPeriod, isOver || !expectsCompletion { return true }
      guard now < deadline else { return false }
      do {
        try await Task.sleep(for: .milliseconds(1))
      } catch {
        return false
      }
    }
  }

  // MARK: Overlap detection

  /// Marks this thread as inside the subscriber; returns `false` if another thread already is.
  private func enter() -> Bool {
    let me = currentThreadIdentity()
    return state.withLock { state in
      if let owner = state.owner, owner != me { return false }
      state.owner = me
      state.depth += 1
      return true
    }
  }

  private func exit(_ owns: Bool) {
    guard owns else { return }
    state.withLock { state in
      state.depth -= 1
      if state.depth == 0 { state.owner = nil }
    }
  }
}

/// A number that identifies the calling thread while it runs.
private func currentThreadIdentity() -> UInt {
  #if canImport(Darwin)
  return UInt(bitPattern: pthread_self())
  #elseif canImport(Glibc) || canImport(Musl)
  return UInt(pthread_self())
  #else
  return 0
  #endif
}
