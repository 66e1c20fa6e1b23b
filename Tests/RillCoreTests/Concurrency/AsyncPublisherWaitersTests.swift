import RillTestSupport
import Testing

@testable import RillCore

/// Whether a test runs against `values` of a publisher that cannot fail or one that can.
enum ValuesMode: CaseIterable, Sendable {
  case nonThrowing
  case throwing
}

/// One `values` iterator over a hand-driven upstream, shared by the tasks of a test, with the failure type
/// erased so that one test covers both sequences.
private struct ValuesFixture: Sendable {
  let subscriber: @Sendable () -> (any Subscriber)?
  let waiterCount: @Sendable () -> Int
  let next: @Sendable () async throws -> Int?
  let send: @Sendable (Int) -> Subscribers.Demand
  let finish: @Sendable () -> Void
  let sendSubscription: @Sendable (any Subscription) -> Void
  let cancel: @Sendable () -> Void
  /// The subscription the iterator got at once, if any.
  let initialSubscription: ValuesTestSubscription?

  /// Subscribes at once with `subscription`; with `nil`, the iterator waits until the test sends one.
  init(_ mode: ValuesMode, subscription: ValuesTestSubscription?) {
    switch mode {
    case .nonThrowing:
      let upstream = SubscriberHolder<Int, Never>(subscription: subscription)
      let iterator = upstream.values.makeAsyncIterator()
      let shared = SharedValuesIterator(iterator)
      self.init(upstream, iterator.inner, subscription) { try await shared.next() }
    case .throwing:
      let upstream = SubscriberHolder<Int, ValuesTestFailure>(subscription: subscription)
      let iterator = upstream.values.makeAsyncIterator()
      let shared = SharedValuesIterator(iterator)
      self.init(upstream, iterator.inner, subscription) { try await shared.next() }
    }
  }

  private init<Failure>(
    _ upstream: SubscriberHolder<Int, Failure>,
    _ inner: AsyncPublisherInner<Int, Failure>,
    _ initialSubscription: ValuesTestSubscription?,
    next: @escaping @Sendable () async throws -> Int?
  ) {
    self.initialSubscription = initialSubscription
    subscriber = { upstream.rawSubscriber as? any Subscriber }
    waiterCount = { inner.waiterCount }
    self.next = next
    send = { upstream.send($0) }
    finish = { upstream.send(completion: .finished) }
    sendSubscription = { upstream.send(subscription: $0) }
    cancel = { inner.cancel() }
  }

  /// Starts `count` tasks calling `next()` and returns once all of them wait and, with a subscription, have
  /// asked it for their element: `next()` registers its waiter under the lock and requests after unlocking.
  func startWaiting(_ count: Int) async -> [Task<Int?, any Error>] {
    var tasks: [Task<Int?, any Error>] = []
    for _ in 0..<count {
      let waiting = waiterCount() + 1
      tasks.append(Task { [next] in try await next() })
      let requested = { initialSubscription.map { $0.history.count } ?? waiting }
      let ready = await valuesEventually { waiterCount() == waiting && requested() == waiting }
      #expect(ready)
    }
    return tasks
  }
}

/// What each task got from `next()`, in the order the tasks started.
private func results(_ tasks: [Task<Int?, any Error>]) async throws -> [Int?] {
  var results: [Int?] = []
  for task in tasks { results.append(try await task.value) }
  return results
}

/// Several tasks awaiting one `values` iterator: what each `next()` returns and what the upstream is asked.
///
/// Elements, completions and cancels arrive before and after the subscription. A lost wake-up hangs, so every
/// test has a time limit.
@Suite(.timeLimit(.minutes(1))) struct AsyncPublisherWaitersTests {
  @Test(arguments: ValuesMode.allCases) func eachWaitingNextRequestsOneElementAndTheOldestGetsIt(
    mode: ValuesMode
  ) async throws {
    let subscription = ValuesTestSubscription()
    let fixture = ValuesFixture(mode, subscription: subscription)
    expectEqual(subscription.history, [])
    let tasks = await fixture.startWaiting(3)
    expectEqual(subscription.history, Array(repeating: .requested(.max(1)), count: 3))
    for value in 1...3 { #expect(fixture.send(value) == .none) }
    #expect(try await results(tasks) == [1, 2, 3])
  }

  @Test(arguments: ValuesMode.allCases) func demandOfCallsBeforeTheSubscriptionIsRequestedInOneGo(
    mode: ValuesMode
  ) async throws {
    let fixture = ValuesFixture(mode, subscription: nil)
    let tasks = await fixture.startWaiting(3)
    let subscription = ValuesTestSubscription()
    fixture.sendSubscription(subscription)
    expectEqual(subscription.history, [.requested(.max(3))])
    for value in 1...3 { #expect(fixture.send(value) == .none) }
    #expect(try await results(tasks) == [1, 2, 3])
  }

  @Test(arguments: ValuesMode.allCases) func cancellingOneWaitingTaskEndsEveryWaiterAndCancelsOnce(
    mode: ValuesMode
  ) async throws {
    let subscription = ValuesTestSubscription()
    let fixture = ValuesFixture(mode, subscription: subscription)
    let tasks = await fixture.startWaiting(3)
    tasks[1].cancel()
    #expect(try await results(tasks) == [nil, nil, nil])
    #expect(try await fixture.next() == nil)
    #expect(
      subscription.history == [.requested(.max(1)), .requested(.max(1)), .requested(.max(1)), .cancelled]
    )
  }

  @Test(arguments: ValuesMode.allCases) func cancellingBeforeTheSubscriptionCancelsTheLateSubscription(
    mode: ValuesMode
  ) async throws {
    let fixture = ValuesFixture(mode, subscription: nil)
    let tasks = await fixture.startWaiting(3)
    tasks[0].cancel()
    #expect(try await results(tasks) == [nil, nil, nil])
    let subscription = ValuesTestSubscription()
    fixture.sendSubscription(subscription)
    expectEqual(subscription.history, [.cancelled])
  }

  @Test(arguments: ValuesMode.allCases) func aTaskCancelledBeforeCallingNextGetsNilAndCancels(
    mode: ValuesMode
  ) async throws {
    let subscription = ValuesTestSubscription()
    let fixture = ValuesFixture(mode, subscription: subscription)
    let task = Task { [next = fixture.next] in
      while !Task.isCancelled { await Task.yield() }
      return try await next()
    }
    task.cancel()
    #expect(try await task.value == nil)
    expectEqual(subscription.history, [.cancelled])
  }

  @Test(arguments: ValuesMode.allCases) func cancellingTwiceCancelsTheSubscriptionOnce(mode: ValuesMode) async throws {
    let subscription = ValuesTestSubscription()
    let fixture = ValuesFixture(mode, subscription: subscription)
    let tasks = await fixture.startWaiting(1)
    fixture.cancel()
    fixture.cancel()
    #expect(try await results(tasks) == [nil])
    expectEqual(subscription.history, [.requested(.max(1)), .cancelled])
  }

  @Test(arguments: ValuesMode.allCases) func finishingEndsEveryWaiterAndLaterEventsAreIgnored(
    mode: ValuesMode
  ) async throws {
    let subscription = ValuesTestSubscription()
    let fixture = ValuesFixture(mode, subscription: subscription)
    let tasks = await fixture.startWaiting(3)
    fixture.finish()
    #expect(try await results(tasks) == [nil, nil, nil])
    fixture.finish()
    expectEqual(fixture.send(42), .none)
    tasks[0].cancel()
    fixture.cancel()
    #expect(try await fixture.next() == nil)
    expectEqual(subscription.history, Array(repeating: .requested(.max(1)), count: 3))
  }

  @Test(arguments: ValuesMode.allCases) func finishingBeforeTheSubscriptionCancelsTheLateSubscription(
    mode: ValuesMode
  ) async throws {
    let fixture = ValuesFixture(mode, subscription: nil)
    let tasks = await fixture.startWaiting(2)
    fixture.finish()
    #expect(try await results(tasks) == [nil, nil])
    let subscription = ValuesTestSubscription()
    fixture.sendSubscription(subscription)
    expectEqual(subscription.history, [.cancelled])
  }

  @Test(arguments: ValuesMode.allCases) func anElementBeforeTheSubscriptionEndsWaitersButKeepsTheirDemand(
    mode: ValuesMode
  ) async throws {
    let fixture = ValuesFixture(mode, subscription: nil)
    let tasks = await fixture.startWaiting(2)
    expectEqual(fixture.send(42), .none)
    #expect(try await results(tasks) == [nil, nil])
    let subscription = ValuesTestSubscription()
    fixture.sendSubscription(subscription)
    expectEqual(subscription.history, [.requested(.max(2))])
  }

  @Test(arguments: ValuesMode.allCases) func aSecondSubscriptionIsCancelled(mode: ValuesMode) {
    let first = ValuesTestSubscription()
    let fixture = ValuesFixture(mode, subscription: first)
    let second = ValuesTestSubscription()
    fixture.sendSubscription(second)
    expectEqual(second.history, [.cancelled])
    fixture.sendSubscription(first)
    expectEqual(first.history, [.cancelled])
  }

  @Test(arguments: ValuesMode.allCases) func theSubscriberIsCancellable(mode: ValuesMode) {
    let fixture = ValuesFixture(mode, subscription: ValuesTestSubscription())
    #expect(fixture.subscriber() is any Cancellable)
  }

  /// Combine traps on an element that no `next()` asked for; Rill drops it, and the next `next()` gets the
  /// element after it.
  @Test(arguments: ValuesMode.allCases) func anElementNobodyRequestedIsDropped(mode: ValuesMode) async throws {
    let subscription = ValuesTestSubscription()
    let fixture = ValuesFixture(mode, subscription: subscription)
    expectEqual(fixture.send(1), .none)
    let tasks = await fixture.startWaiting(1)
    expectEqual(fixture.send(2), .none)
    #expect(try await results(tasks) == [2])
    expectEqual(subscription.history, [.requested(.max(1))])
  }
}

/// How a throwing `values` sequence hands a failure to the tasks awaiting it.
@Suite(.timeLimit(.minutes(1))) struct AsyncThrowingPublisherFailureTests {
  private typealias Upstream = SubscriberHolder<Int, ValuesTestFailure>

  private func start(
    _ count: Int,
    on inner: AsyncPublisherInner<Int, ValuesTestFailure>,
    _ shared: SharedValuesIterator<AsyncThrowingPublisher<Upstream>.Iterator>
  ) async
    -> [Task<Int?, any Error>]
  {
    var tasks: [Task<Int?, any Error>] = []
    for index in 0..<count {
      tasks.append(Task { try await shared.next() })
      #expect(await valuesEventually { inner.waiterCount == index + 1 })
    }
    return tasks
  }

  @Test(arguments: [true, false]) func aFailureIsThrownToTheOldestWaiterAndEndsTheOthers(subscribed: Bool) async throws
  {
    let subscription = ValuesTestSubscription()
    let upstream = Upstream(subscription: subscribed ? subscription : nil)
    let iterator = upstream.values.makeAsyncIterator()
    weak var weakFailure: ValuesTestFailure?
    do {
      let tasks = await start(2, on: iterator.inner, SharedValuesIterator(iterator))
      do {
        let failure = ValuesTestFailure()
        weakFailure = failure
        upstream.send(completion: .failure(failure))
      }
      await #expect(throws: ValuesTestFailure.self) { try await tasks[0].value }
      #expect(try await tasks[1].value == nil)
    }
    #expect(weakFailure == nil, "a delivered failure is not kept")
    var iteratorCopy = iterator
    #expect(try await iteratorCopy.next() == nil)
    if subscribed {
      expectEqual(subscription.history, [.requested(.max(1)), .requested(.max(1))])
    } else {
      upstream.send(subscription: subscription)
      expectEqual(subscription.history, [.cancelled])
    }
  }

  @Test func aFailureWithNobodyWaitingIsThrownByTheNextCallOnce() async throws {
    let subscription = ValuesTestSubscription()
    let upstream = Upstream(subscription: subscription)
    var iterator = upstream.values.makeAsyncIterator()
    let first = ValuesTestFailure()
    upstream.send(completion: .failure(first))
    upstream.send(completion: .failure(ValuesTestFailure()))
    do {
      _ = try await iterator.next()
      Issue.record("next() did not throw")
    } catch {
      #expect(error as? ValuesTestFailure === first)
    }
    #expect(try await iterator.next() == nil)
    upstream.send(completion: .failure(ValuesTestFailure()))
    #expect(try await iterator.next() == nil)
    expectEqual(subscription.history, [])
  }

  @Test func aFailureThrownLaterIsNotKeptAfterwards() async throws {
    let upstream = Upstream(subscription: ValuesTestSubscription())
    var iterator = upstream.values.makeAsyncIterator()
    weak var weakFailure: ValuesTestFailure?
    do {
      let failure = ValuesTestFailure()
      weakFailure = failure
      upstream.send(completion: .failure(failure))
    }
    #expect(weakFailure != nil)
    await #expect(throws: ValuesTestFailure.self) { try await iterator.next() }
    #expect(weakFailure == nil)
  }
}
