import RillTesting
import Testing

@testable import RillCore

extension ThrottleTests {
  /// Combine reads the clock when the subscription is created, when it is subscribed, for each value and the
  /// completion it takes in, and when it emits a value that no completion follows; a scheduler that records its
  /// calls sees exactly those.
  @Test func readsTheClockWhereCombineDoes() {
    let scheduler = TimeOpsOptionsScheduler(logsClockReads: true)
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(subscriber)
    #expect(scheduler.log == ["clock", "clock"])
    upstream.send(1)
    upstream.send(2)
    #expect(scheduler.log == ["clock", "clock", "clock", "now", "clock"])
    scheduler.base.advance()
    #expect(subscriber.values == [2])
    #expect(scheduler.log == ["clock", "clock", "clock", "now", "clock", "clock"])
    upstream.send(3)
    upstream.send(completion: .finished)
    #expect(
      scheduler.log == [
        "clock", "clock", "clock", "now", "clock", "clock", "clock", "tolerance", "at 10 tolerance 0", "clock",
      ]
    )
    scheduler.base.advance(by: 10)
    #expect(subscriber.stampedEvents == ["2", "3", "finished"])
    #expect(scheduler.log.count == 10)
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
    #expect(scheduler.log == ["clock", "clock", "clock", "now"])
    #expect(upstream.cancelCount == 1)
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
