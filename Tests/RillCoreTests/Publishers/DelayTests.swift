import RillCore
import RillTesting
import Testing

@Suite struct DelayTests {
  @Test func valuesAndCompletionAreDelayed() {
    let scheduler = TimeOpsOptionsScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler.base)
    upstream.delay(for: 10, tolerance: 2, scheduler: scheduler, options: 1).subscribe(subscriber)
    #expect(upstream.requestedDemands == [.unlimited])
    upstream.send(1)
    scheduler.base.advance(by: 3)
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(
      scheduler.log == ["at 10 tolerance 2 options 1", "at 13 tolerance 2 options 1", "at 13 tolerance 2 options 1"]
    )
    scheduler.base.advance(by: 9)
    #expect(subscriber.stampedEvents == ["1@10"])
    scheduler.base.advance(by: 100)
    #expect(subscriber.stampedEvents == ["1@10", "2@13", "finished@13"])
  }

  @Test func withoutToleranceTheSchedulersMinimumIsUsed() {
    let scheduler = TimeOpsOptionsScheduler()
    let upstream = TestPublisher<Int, Never>()
    upstream.delay(for: 4, scheduler: scheduler).subscribe(TestSubscriber<Int, Never>())
    upstream.send(1)
    #expect(scheduler.log == ["at 4 tolerance 0"])
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
    #expect(subscriber.stampedEvents == ["failure@1000000000"])
  }

  @Test func limitedDemandIsForwardedAndReplenished() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    upstream.delay(for: 5, scheduler: scheduler).subscribe(subscriber)
    #expect(upstream.requestedDemands == [.max(1)])
    #expect(upstream.send(1) == .none)
    #expect(upstream.requestedDemands == [.max(1)])
    scheduler.advance(by: 5)
    #expect(upstream.requestedDemands == [.max(1), .max(1)])
  }

  @Test func cancelDropsPendingValues() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.delay(for: 5, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    #expect(upstream.cancelCount == 1)
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
    #expect(upstream.cancelCount == 0)
    scheduler.advance(by: 3)
    #expect(subscriber.stampedEvents.isEmpty)
    scheduler.advance(by: 10)
    #expect(subscriber.stampedEvents == ["finished@8"])

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
    #expect(scheduler.scheduledActionCount == 0)
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
    #expect(upstream.requestedDemands == [.max(1), .max(2)])
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
    #expect(scheduler.scheduledActionCount == 0)
  }

  /// Combine forwards a request for `.none` upstream as it is.
  @Test func requestForNoneGoesUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.delay(for: 2, scheduler: scheduler).subscribe(subscriber)
    subscriber.subscription?.request(.max(10))
    subscriber.subscription?.request(.none)
    #expect(upstream.send(1) == .none)
    scheduler.advance(by: 2)
    #expect(subscriber.values == [1])
    #expect(upstream.requestedDemands == [.max(10), .none])
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
    #expect(subscriber.stampedEvents == ["1", "finished"])
    #expect(upstream.requestedDemands == [.max(1), .max(4)])
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

@Suite struct DebounceTests {
  @Test func publishesLatestAfterQuietPeriod() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<String, Never>()
    let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
    upstream.debounce(for: 3, scheduler: scheduler).subscribe(subscriber)
    #expect(upstream.requestedDemands == [.unlimited])
    upstream.send("a")
    scheduler.advance(by: 2)
    upstream.send("b")
    scheduler.advance(by: 6)
    upstream.send("c")
    scheduler.advance(by: 3)
    #expect(subscriber.stampedEvents == ["b@5", "c@11"])
    #expect(scheduler.scheduledActionCount == 0)
    upstream.send(completion: .finished)
    scheduler.advance()
    #expect(subscriber.stampedEvents == ["b@5", "c@11", "finished@11"])
  }

  @Test func pendingValueIsDroppedOnCompletionAndFailureIsScheduled() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<Int, TimeOpsError>()
    upstream.debounce(for: 3, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(.boom))
    #expect(subscriber.stampedEvents.isEmpty)
    scheduler.advance(by: 10)
    #expect(subscriber.stampedEvents == ["failure"])
  }

  @Test func valueWithoutDemandIsDropped() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.debounce(for: 3, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    scheduler.advance(by: 3)
    subscriber.subscription?.request(.max(1))
    upstream.send(2)
    scheduler.advance(by: 3)
    upstream.send(3)
    scheduler.advance(by: 3)
    #expect(subscriber.values == [2])
    #expect(upstream.requestedDemands == [.unlimited])
  }

  @Test func cancelStopsTimerAndUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.debounce(for: 3, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    #expect(upstream.cancelCount == 1)
    #expect(scheduler.scheduledActionCount == 0)
    upstream.send(2)
    scheduler.advance(by: 10)
    #expect(subscriber.stampedEvents.isEmpty)
  }

  @Test func reentrantSendFromReceive() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(
      scheduler: scheduler,
      onValue: { _, value in
        if value == 1 { upstream.send(2) }
        return .none
      }
    )
    upstream.debounce(for: 3, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    scheduler.advance(by: 10)
    #expect(subscriber.stampedEvents == ["1@3", "2@6"])
  }

  /// As in Combine, the timer of a pending value holds the subscription: a pipeline that nothing else holds
  /// lives until the value is emitted.
  @Test func thePendingValuesTimerKeepsThePipelineAliveUntilItFires() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    weak var weakSubscriber: SubscriptionDroppingSubscriber?
    do {
      let subscriber = SubscriptionDroppingSubscriber()
      weakSubscriber = subscriber
      upstream.debounce(for: 3, scheduler: scheduler).subscribe(subscriber)
      upstream.send(1)
    }
    upstream.releaseSubscribers()
    #expect(weakSubscriber != nil)
    scheduler.advance(by: 3)
    #expect(weakSubscriber == nil)
    #expect(scheduler.scheduledActionCount == 0)
  }

  @Test func mirrorShowsDownstreamDemandAndPendingValue() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.debounce(for: 3, scheduler: scheduler).subscribe(subscriber)
    upstream.send(7)
    let children = subscriber.subscription.map { Mirror(reflecting: $0).children.map { $0 } } ?? []
    #expect(children.map(\.label) == ["downstream", "downstreamDemand", "currentValue"])
    #expect(children.dropFirst().map { String(describing: $0.value) } == ["max(2)", "Optional(7)"])
    scheduler.advance(by: 3)
    let after = subscriber.subscription.map { Mirror(reflecting: $0).children.map { $0 } } ?? []
    #expect(after.dropFirst().map { String(describing: $0.value) } == ["max(1)", "nil"])
  }
}

@Suite struct ThrottleTests {
  private func run(latest: Bool) -> [String] {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<String, Never>()
    let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
    upstream.throttle(for: 10, scheduler: scheduler, latest: latest).subscribe(subscriber)
    upstream.send("a")
    scheduler.advance(by: 1)
    upstream.send("b")
    scheduler.advance(by: 1)
    upstream.send("c")
    scheduler.advance(by: 20)
    upstream.send("d")
    upstream.send(completion: .finished)
    scheduler.advance(by: 20)
    return subscriber.stampedEvents
  }

  @Test func latestPublishesTheMostRecent() {
    #expect(run(latest: true) == ["a@0", "c@10", "d@22", "finished@22"])
  }

  @Test func firstPublishesTheFirst() {
    #expect(run(latest: false) == ["a@0", "b@10", "d@22", "finished@22"])
  }

  @Test func demandAndFailure() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<Int, TimeOpsError>(initialDemand: .max(1))
    upstream.throttle(for: 2, scheduler: scheduler, latest: true).subscribe(subscriber)
    #expect(upstream.requestedDemands == [.unlimited])
    upstream.send(1)
    scheduler.advance(by: 5)
    upstream.send(2)
    scheduler.advance(by: 5)
    upstream.send(completion: .failure(.boom))
    scheduler.advance()
    #expect(subscriber.stampedEvents == ["1", "failure"])
  }

  /// Found by `TimeOperatorStressTests`: on a concurrent scheduler the next emission (or the completion) can run while the previous value is still being delivered, and was delivered at the same time.
  ///
  /// The nested `advance` below plays the concurrent scheduler: what it runs must wait until `receive(_:)` returns.
  @Test(arguments: [true, false])
  func anEmissionThatRunsDuringTheDeliveryOfThePreviousOneWaitsForIt(latest: Bool) {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    var seenDuringFirstDelivery: [String] = []
    let subscriber = TestSubscriber<Int, Never>(onValue: { subscriber, value in
      guard value == 1 else { return .none }
      upstream.send(2)
      upstream.send(completion: .finished)
      scheduler.advance()
      seenDuringFirstDelivery = subscriber.stampedEvents
      return .none
    })
    upstream.throttle(for: 0, scheduler: scheduler, latest: latest).subscribe(subscriber)
    upstream.send(1)
    scheduler.advance()
    #expect(seenDuringFirstDelivery == ["1"])
    #expect(subscriber.stampedEvents == ["1", "2", "finished"])
  }

  @Test func cancelSilencesPendingEmission() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.throttle(for: 2, scheduler: scheduler, latest: true).subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    scheduler.advance(by: 5)
    #expect(subscriber.stampedEvents.isEmpty)
    #expect(upstream.cancelCount == 1)
  }

  /// Combine accepts a request for `.none`; throttle asks its upstream for everything once, whatever comes after.
  @Test func requestForNoneIsAccepted() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(subscriber)
    subscriber.subscription?.request(.max(1))
    subscriber.subscription?.request(.none)
    upstream.send(1)
    scheduler.advance(by: 1)
    #expect(subscriber.values == [1])
    #expect(upstream.requestedDemands == [.unlimited])
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
    #expect(subscriber.stampedEvents == ["1", "2", "3", "finished"])
  }

  @Test func receiveOnKeepsArrivalOrderWhenTheSchedulerRunsActionsOutOfOrder() {
    let scheduler = DelayLastFirstScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    Just(1).receive(on: scheduler).subscribe(subscriber)
    scheduler.runLastFirst()
    #expect(subscriber.stampedEvents == ["1", "finished"])
  }

  @Test func eachActionDeliversTheOldestEventNotYetDelivered() {
    let scheduler = DelayLastFirstScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.receive(on: scheduler).subscribe(subscriber)
    scheduler.runLast()
    #expect(subscriber.stampedEvents == ["1"])
    scheduler.runLastFirst()
    #expect(subscriber.stampedEvents == ["1", "2", "3", "finished"])
  }

  @Test func aLongBacklogArrivesWholeAndInOrder() {
    let scheduler = DelayLastFirstScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    (0..<300).publisher.delay(for: 1, scheduler: scheduler).subscribe(subscriber)
    scheduler.runLastFirst()
    #expect(subscriber.values == Array(0..<300))
    #expect(subscriber.stampedEvents.last == "finished")
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
    #expect(subscriber.stampedEvents == ["1", "finished"])
  }
}

/// A subscriber that asks for everything and keeps nothing, so that only the pipeline above can keep it alive.
final class SubscriptionDroppingSubscriber: Subscriber, Sendable {
  func receive(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  func receive(_ input: Int) -> Subscribers.Demand { .none }

  func receive(completion: Subscribers.Completion<Never>) {}
}
