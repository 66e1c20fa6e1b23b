import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

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
    expectEqual(run(latest: true), ["a@0", "c@10", "d@22", "finished@22"])
  }

  @Test func firstPublishesTheFirst() {
    expectEqual(run(latest: false), ["a@0", "b@10", "d@22", "finished@22"])
  }

  @Test func demandAndFailure() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<Int, TimeOpsError>(initialDemand: .max(1))
    upstream.throttle(for: 2, scheduler: scheduler, latest: true).subscribe(subscriber)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(1)
    scheduler.advance(by: 5)
    upstream.send(2)
    scheduler.advance(by: 5)
    upstream.send(completion: .failure(.boom))
    scheduler.advance()
    expectEqual(subscriber.stampedEvents, ["1", "failure"])
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
    expectEqual(seenDuringFirstDelivery, ["1"])
    expectEqual(subscriber.stampedEvents, ["1", "2", "finished"])
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
    expectEqual(upstream.cancelCount, 1)
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
    expectEqual(subscriber.values, [1])
    expectEqual(upstream.requestedDemands, [.unlimited])
  }
}

extension ThrottleTests {
  /// Combine reads the clock when the subscription is created, when it is subscribed, for each value and the
  /// completion it takes in, and when it emits a value that no completion follows; a scheduler that records its
  /// calls sees exactly those.
  @Test func readsTheClockWhereCombineDoes() {
    let scheduler = TimeOpsOptionsScheduler(logsClockReads: true)
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(subscriber)
    expectEqual(scheduler.log, ["clock", "clock"])
    upstream.send(1)
    upstream.send(2)
    expectEqual(scheduler.log, ["clock", "clock", "clock", "now", "clock"])
    scheduler.base.advance()
    expectEqual(subscriber.values, [2])
    expectEqual(scheduler.log, ["clock", "clock", "clock", "now", "clock", "clock"])
    upstream.send(3)
    upstream.send(completion: .finished)
    #expect(
      scheduler.log == [
        "clock", "clock", "clock", "now", "clock", "clock", "clock", "tolerance", "at 10 tolerance 0", "clock",
      ]
    )
    scheduler.base.advance(by: 10)
    expectEqual(subscriber.stampedEvents, ["2", "3", "finished"])
    expectEqual(scheduler.log.count, 10)
  }

  /// A cancelled subscription is silent and reads no clock.
  @Test func readsNoClockAfterCancel() {
    let scheduler = TimeOpsOptionsScheduler(logsClockReads: true)
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    upstream.send(2)
    upstream.send(completion: .finished)
    scheduler.base.advance(by: 20)
    #expect(subscriber.stampedEvents.isEmpty)
    expectEqual(scheduler.log, ["clock", "clock", "clock", "now"])
    expectEqual(upstream.cancelCount, 1)
  }

  /// A scheduled emission holds the subscription weakly, and a cancelled subscription lets its subscriber go,
  /// even while the scheduler still holds the emission.
  @Test func pendingEmissionDoesNotKeepACancelledPipelineAlive() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    do {
      let subscriber = TestSubscriber<Int, Never>()
      weakSubscriber = subscriber
      upstream.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(subscriber)
      upstream.send(1)
      subscriber.cancel()
    }
    upstream.releaseSubscribers()
    #expect(weakSubscriber == nil)
    scheduler.advance(by: 20)
  }

  /// Once the completion is delivered the subscription lets its subscriber go, though the subscriber holds it.
  @Test func completionReleasesTheSubscriber() {
    let upstream = PassthroughSubject<Int, Never>()
    weak var weakSubscriber: SubscriptionKeepingSubscriber?
    do {
      let subscriber = SubscriptionKeepingSubscriber()
      weakSubscriber = subscriber
      upstream.throttle(for: 10, scheduler: ImmediateScheduler.shared, latest: true).subscribe(subscriber)
      upstream.send(completion: .finished)
      #expect(subscriber.isFinished)
    }
    #expect(weakSubscriber == nil)
  }

  @Test func mirrorHasNoChildren() {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.throttle(for: 10, scheduler: TestScheduler(), latest: true).subscribe(subscriber)
    let subscription = subscriber.subscription
    #expect(subscription.map { String(describing: $0) } == "Throttle")
    #expect(subscription.map { Mirror(reflecting: $0).children.count } == 0)
  }
}

/// A subscriber that keeps its subscription for good, as Combine's test subscribers do, so that the subscription
/// must let go of it for either to be freed.
// SAFETY: all mutable state is in `state`.
private final class SubscriptionKeepingSubscriber: Subscriber, @unchecked Sendable {
  private let state = Locked<(subscription: (any Subscription)?, isFinished: Bool)>((nil, false))

  var isFinished: Bool { state.withLock { $0.isFinished } }

  func receive(subscription: any Subscription) {
    state.withLock { $0.subscription = subscription }
  }

  func receive(_ input: Int) -> Subscribers.Demand { .none }

  func receive(completion: Subscribers.Completion<Never>) {
    state.withLock { $0.isFinished = true }
  }
}
