import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct DelayTests {
  @Test func valuesAndCompletionAreDelayed() {
    let scheduler = TimeOpsOptionsScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler.base)
    upstream.delay(for: 10, tolerance: 2, scheduler: scheduler, options: 1).subscribe(subscriber)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(1)
    scheduler.base.advance(by: 3)
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(
      scheduler.log == ["at 10 tolerance 2 options 1", "at 13 tolerance 2 options 1", "at 13 tolerance 2 options 1"]
    )
    scheduler.base.advance(by: 9)
    expectEqual(subscriber.stampedEvents, ["1@10"])
    scheduler.base.advance(by: 100)
    expectEqual(subscriber.stampedEvents, ["1@10", "2@13", "finished@13"])
  }

  @Test func withoutToleranceTheSchedulersMinimumIsUsed() {
    let scheduler = TimeOpsOptionsScheduler()
    let upstream = TestPublisher<Int, Never>()
    upstream.delay(for: 4, scheduler: scheduler).subscribe(TestSubscriber<Int, Never>())
    upstream.send(1)
    expectEqual(scheduler.log, ["at 4 tolerance 0"])
  }

  @Test func failureIsDelayedToo() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<Int, TimeOpsError>(scheduler: scheduler)
    upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
    upstream.send(completion: .failure(.boom))
    scheduler.advance(by: .seconds(1) - 1)
    #expect(subscriber.stampedEvents.isEmpty)
    scheduler.advance(by: 1)
    expectEqual(subscriber.stampedEvents, ["failure@1000000000"])
  }

  @Test func limitedDemandIsForwardedAndReplenished() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    upstream.delay(for: 5, scheduler: scheduler).subscribe(subscriber)
    expectEqual(upstream.requestedDemands, [.max(1)])
    expectEqual(upstream.send(1), .none)
    expectEqual(upstream.requestedDemands, [.max(1)])
    scheduler.advance(by: 5)
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
  }

  @Test func cancelDropsPendingValues() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.delay(for: 5, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
    scheduler.advance(by: 10)
    upstream.send(2)
    scheduler.advance(by: 10)
    #expect(subscriber.stampedEvents.isEmpty)
  }

  /// As in Combine, an upstream completion already scheduled when downstream cancels is still delivered, at its own
  /// time, and the subscription keeps its subscriber until then; the values scheduled before it are not delivered.
  @Test func aCompletionScheduledBeforeACancelStillArrivesAtItsTime() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    upstream.delay(for: 5, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    scheduler.advance(by: 3)
    upstream.send(completion: .finished)
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 0)
    scheduler.advance(by: 3)
    #expect(subscriber.stampedEvents.isEmpty)
    scheduler.advance(by: 10)
    expectEqual(subscriber.stampedEvents, ["finished@8"])

    weak var weakSubscriber: TestSubscriber<Int, Never>?
    let other = TestPublisher<Int, Never>()
    do {
      let subscriber = TestSubscriber<Int, Never>()
      weakSubscriber = subscriber
      other.delay(for: 5, scheduler: scheduler).subscribe(subscriber)
      other.send(completion: .finished)
      subscriber.cancel()
    }
    other.releaseSubscribers()
    #expect(weakSubscriber != nil)
    scheduler.advance(by: 5)
    #expect(weakSubscriber == nil)
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func reentrantRequestFromReceive() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { subscriber, _ in
        subscriber.subscription?.request(.max(2))
        return .none
      }
    )
    upstream.delay(for: 1, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    scheduler.advance(by: 1)
    expectEqual(upstream.requestedDemands, [.max(1), .max(2)])
  }

  @Test func pipelineIsFreedAfterCompletion() {
    let scheduler = TestScheduler()
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    let upstream = TestPublisher<Int, Never>()
    do {
      let subscriber = TestSubscriber<Int, Never>()
      weakSubscriber = subscriber
      upstream.delay(for: 1, scheduler: scheduler).subscribe(subscriber)
      upstream.send(completion: .finished)
    }
    scheduler.advance(by: 1)
    upstream.releaseSubscribers()
    #expect(weakSubscriber == nil)
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  /// Combine forwards a request for `.none` upstream as it is.
  @Test func requestForNoneGoesUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.delay(for: 2, scheduler: scheduler).subscribe(subscriber)
    subscriber.subscription?.request(.max(10))
    subscriber.subscription?.request(.none)
    expectEqual(upstream.send(1), .none)
    scheduler.advance(by: 2)
    expectEqual(subscriber.values, [1])
    expectEqual(upstream.requestedDemands, [.max(10), .none])
  }

  /// As in Combine, the demand returned for a value delivered while the upstream's completion is delayed still
  /// goes upstream.
  @Test func demandReturnedBeforeTheDelayedCompletionGoesUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(4))
    upstream.delay(for: 2, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .finished)
    scheduler.advance(by: 2)
    expectEqual(subscriber.stampedEvents, ["1", "finished"])
    expectEqual(upstream.requestedDemands, [.max(1), .max(4)])
  }

  /// Combine's delay subscription describes itself by its type only: no description, mirror or playground
  /// description of its own.
  @Test func hasNoDescriptionOfItsOwn() throws {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.delay(for: 2, scheduler: TestScheduler()).subscribe(subscriber)
    let subscription: Any = try #require(subscriber.subscription)
    #expect(!(subscription is any CustomStringConvertible))
    #expect(!(subscription is any CustomReflectable))
    #expect(!(subscription is any CustomPlaygroundDisplayConvertible))
  }
}

/// A concurrent scheduler may run actions due at the same time in any order: this one runs them last first.
private final class DelayLastFirstScheduler: Scheduler, @unchecked Sendable {
  // SAFETY: only touched from the test's thread.
  private var actions: [() -> Void] = []

  var now: TestScheduler.SchedulerTimeType { 0 }
  var minimumTolerance: TestScheduler.SchedulerTimeType.Stride { 0 }

  func schedule(options: Int?, _ action: @escaping () -> Void) {
    actions.append(action)
  }

  func schedule(
    after date: TestScheduler.SchedulerTimeType,
    tolerance: TestScheduler.SchedulerTimeType.Stride,
    options: Int?,
    _ action: @escaping () -> Void
  ) {
    actions.append(action)
  }

  func schedule(
    after date: TestScheduler.SchedulerTimeType,
    interval: TestScheduler.SchedulerTimeType.Stride,
    tolerance: TestScheduler.SchedulerTimeType.Stride,
    options: Int?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    actions.append(action)
    return AnyCancellable {}
  }

  /// Runs only the action scheduled last.
  func runLast() {
    actions.removeLast()()
  }

  /// Runs the waiting actions, the last scheduled first.
  func runLastFirst() {
    let due = actions
    actions = []
    for action in due.reversed() { action() }
  }
}

@Suite struct ScheduledDeliveryOrderTests {
  @Test func delayKeepsArrivalOrderWhenTheSchedulerRunsActionsOutOfOrder() {
    let scheduler = DelayLastFirstScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.delay(for: 1, scheduler: scheduler).subscribe(subscriber)
    scheduler.runLastFirst()
    expectEqual(subscriber.stampedEvents, ["1", "2", "3", "finished"])
  }

  @Test func receiveOnKeepsArrivalOrderWhenTheSchedulerRunsActionsOutOfOrder() {
    let scheduler = DelayLastFirstScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    Just(1).receive(on: scheduler).subscribe(subscriber)
    scheduler.runLastFirst()
    expectEqual(subscriber.stampedEvents, ["1", "finished"])
  }

  @Test func eachActionDeliversTheOldestEventNotYetDelivered() {
    let scheduler = DelayLastFirstScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.receive(on: scheduler).subscribe(subscriber)
    scheduler.runLast()
    expectEqual(subscriber.stampedEvents, ["1"])
    scheduler.runLastFirst()
    expectEqual(subscriber.stampedEvents, ["1", "2", "3", "finished"])
  }

  @Test func aLongBacklogArrivesWholeAndInOrder() {
    let scheduler = DelayLastFirstScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    (0..<300).publisher.delay(for: 1, scheduler: scheduler).subscribe(subscriber)
    scheduler.runLastFirst()
    expectEqual(subscriber.values, Array(0..<300))
    expectEqual(subscriber.stampedEvents.last, "finished")
  }

  /// As in Combine, the values still scheduled at a cancel are not delivered, but the upstream's completion, already
  /// scheduled too, is.
  @Test func actionsLeftAfterCancelDeliverOnlyTheCompletion() {
    let scheduler = DelayLastFirstScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.receive(on: scheduler).subscribe(subscriber)
    scheduler.runLast()
    subscriber.cancel()
    scheduler.runLastFirst()
    expectEqual(subscriber.stampedEvents, ["1", "finished"])
  }
}
