import Dispatch
import RillTestSupport
import Synchronization
import Testing

@testable import RillExt

/// Counts how many elements were pulled, and whether the iterating task saw cancellation.
private final class PullProbe: Sendable {
  let pulls = Atomic<Int>(0)
  let sawCancellation = Atomic<Bool>(false)

  var pullCount: Int { pulls.load(ordering: .sequentiallyConsistent) }
  var cancelled: Bool { sawCancellation.load(ordering: .sequentiallyConsistent) }
}

private struct CountingSequence: AsyncSequence {
  typealias Element = Int
  let limit: Int
  let probe: PullProbe

  struct AsyncIterator: AsyncIteratorProtocol {
    var current = 0
    let limit: Int
    let probe: PullProbe

    mutating func next() async -> Int? {
      guard current < limit else { return nil }
      current += 1
      probe.pulls.add(1, ordering: .sequentiallyConsistent)
      return current
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(limit: limit, probe: probe) }
}

private struct SleepingSequence: AsyncSequence {
  typealias Element = Int
  let probe: PullProbe

  struct AsyncIterator: AsyncIteratorProtocol {
    let probe: PullProbe

    mutating func next() async throws -> Int? {
      probe.pulls.add(1, ordering: .sequentiallyConsistent)
      do {
        try await Task.sleep(nanoseconds: 60_000_000_000)
      } catch {
        probe.sawCancellation.store(true, ordering: .sequentiallyConsistent)
        throw error
      }
      return 1
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(probe: probe) }
}

/// A subscriber whose events can be awaited.
private final class AwaitingSubscriber<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
  // SAFETY: all mutable state is in `state`.
  private let state = Locked<(values: [Input], done: Bool, failed: Bool)>(([], false, false))
  private let initialDemand: Subscribers.Demand
  private let subscriptionBox = Locked<(any Subscription)?>(nil)

  init(initialDemand: Subscribers.Demand) {
    self.initialDemand = initialDemand
  }

  var values: [Input] { state.withLock { $0.values } }
  var isDone: Bool { state.withLock { $0.done } }
  var failed: Bool { state.withLock { $0.failed } }

  func receive(subscription: any Subscription) {
    subscriptionBox.withLock { $0 = subscription }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    state.withLock { $0.values.append(input) }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    state.withLock {
      $0.done = true
      if case .failure = completion { $0.failed = true }
    }
  }

  func request(_ demand: Subscribers.Demand) {
    subscriptionBox.withLock { $0 }?.request(demand)
  }

  func cancel() {
    subscriptionBox.withLock { $0 }?.cancel()
  }
}

private func eventually(_ condition: () -> Bool) async {
  await eventually(within: asyncTestTimeout, condition)
}

@Suite struct AsyncSequencePublisherTests {
  @Test func publishesEveryElementThenFinishes() async {
    let probe = PullProbe()
    let subscriber = AwaitingSubscriber<Int, Never>(initialDemand: .unlimited)
    CountingSequence(limit: 3, probe: probe).asPublisher().subscribe(subscriber)
    await eventually { subscriber.isDone }
    expectEqual(subscriber.values, [1, 2, 3])
    #expect(subscriber.isDone)
  }

  @Test func pullsOnlyWhatIsDemanded() async {
    let probe = PullProbe()
    let subscriber = AwaitingSubscriber<Int, Never>(initialDemand: .none)
    CountingSequence(limit: 100, probe: probe).asPublisher().subscribe(subscriber)
    try? await Task.sleep(nanoseconds: 20_000_000)
    expectEqual(probe.pullCount, 0)
    subscriber.request(.max(2))
    await eventually { subscriber.values.count == 2 }
    try? await Task.sleep(nanoseconds: 20_000_000)
    expectEqual(subscriber.values, [1, 2])
    expectEqual(probe.pullCount, 2)
    subscriber.cancel()
  }

  /// Demand that arrives while the task waits for some wakes it and is taken one value at a time: no value goes
  /// beyond what was requested.
  @Test func demandAddedWhileTheTaskWaitsIsTakenOneValueAtATime() async {
    let probe = PullProbe()
    let subscriber = AwaitingSubscriber<Int, Never>(initialDemand: .max(1))
    CountingSequence(limit: 100, probe: probe).asPublisher().subscribe(subscriber)
    await eventually { subscriber.values.count == 1 }
    // Gives the task time to wait for demand; the values must be right however long that takes.
    try? await Task.sleep(nanoseconds: 20_000_000)
    subscriber.request(.max(1))
    await eventually { subscriber.values.count == 2 }
    try? await Task.sleep(nanoseconds: 20_000_000)
    expectEqual(subscriber.values, [1, 2])
    subscriber.cancel()
  }

  @Test func cancellingTheSubscriptionCancelsTheTask() async {
    let probe = PullProbe()
    let subscriber = AwaitingSubscriber<Int, any Error>(initialDemand: .max(1))
    SleepingSequence(probe: probe).asPublisher().subscribe(subscriber)
    // Cancels once the task waits inside `next()`.
    await eventually { probe.pullCount == 1 }
    subscriber.cancel()
    await eventually { probe.sawCancellation.load(ordering: .sequentiallyConsistent) }
    #expect(probe.cancelled)
    try? await Task.sleep(nanoseconds: 20_000_000)
    #expect(!subscriber.isDone)
  }

  @Test func cancellingWhileWaitingForDemandEndsTheTaskAndReleasesTheSubscription() async {
    let probe = PullProbe()
    let values = Locked<[Int]>([])
    weak var weakSubscription: AnyObject?
    var subscription: (any Subscription)?
    CountingSequence(limit: 100, probe: probe).asPublisher().subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: {
          subscription = $0
          weakSubscription = $0 as AnyObject
          $0.request(.max(1))
        },
        receiveValue: { value in
          values.withLock { $0.append(value) }
          return .none
        }
      )
    )
    await eventually { values.withLock { $0.count } == 1 }
    subscription?.cancel()
    subscription?.request(.max(5))
    subscription = nil
    await eventually { weakSubscription == nil }
    #expect(weakSubscription == nil)
    #expect(values.withLock { $0 } == [1])
    expectEqual(probe.pullCount, 1)
  }

  @Test func cancellingBeforeAnyRequestNeverStartsTheTask() async {
    let probe = PullProbe()
    weak var weakSubscriber: AwaitingSubscriber<Int, Never>?
    do {
      let subscriber = AwaitingSubscriber<Int, Never>(initialDemand: .none)
      weakSubscriber = subscriber
      CountingSequence(limit: 3, probe: probe).asPublisher().subscribe(subscriber)
      subscriber.cancel()
      subscriber.request(.max(1))
    }
    // The subscription let go of its subscriber on cancel, although the subscriber still holds it.
    #expect(weakSubscriber == nil)
    expectEqual(probe.pullCount, 0)
  }

  @Test func releasesTheSubscriptionAndTheSubscriberAfterCompletion() async {
    let probe = PullProbe()
    weak var weakSubscriber: AwaitingSubscriber<Int, Never>?
    do {
      let subscriber = AwaitingSubscriber<Int, Never>(initialDemand: .unlimited)
      weakSubscriber = subscriber
      CountingSequence(limit: 3, probe: probe).asPublisher().subscribe(subscriber)
      await eventually { subscriber.isDone }
      expectEqual(subscriber.values, [1, 2, 3])
    }
    await eventually { weakSubscriber == nil }
    #expect(weakSubscriber == nil)
  }

  @Test func asyncStreamBridgesWithTypedNeverFailure() async {
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    let subscriber = AwaitingSubscriber<String, Never>(initialDemand: .unlimited)
    stream.asPublisher().subscribe(subscriber)
    continuation.yield("a")
    continuation.yield("b")
    continuation.finish()
    await eventually { subscriber.isDone }
    expectEqual(subscriber.values, ["a", "b"])
  }
}

@Suite struct FutureAwaitingTests {
  @Test func publishesTheReturnedValue() async {
    let future = Future<Int, Never>(awaiting: {
      try? await Task.sleep(nanoseconds: 1_000_000)
      return 42
    })
    #expect(await future.value == 42)
  }

  @Test func publishesTheThrownError() async {
    struct Oops: Error {}
    let future = Future<Int, any Error>(awaiting: { throw Oops() })
    await #expect(throws: Oops.self) { try await future.value }
  }
}
