import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct DebounceTests {
  @Test func publishesLatestAfterQuietPeriod() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<String, Never>()
    let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
    upstream.debounce(for: 3, scheduler: scheduler).subscribe(subscriber)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send("a")
    scheduler.advance(by: 2)
    upstream.send("b")
    scheduler.advance(by: 6)
    upstream.send("c")
    scheduler.advance(by: 3)
    expectEqual(subscriber.stampedEvents, ["b@5", "c@11"])
    expectEqual(scheduler.scheduledActionCount, 0)
    upstream.send(completion: .finished)
    scheduler.advance()
    expectEqual(subscriber.stampedEvents, ["b@5", "c@11", "finished@11"])
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
    expectEqual(subscriber.stampedEvents, ["failure"])
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
    expectEqual(subscriber.values, [2])
    expectEqual(upstream.requestedDemands, [.unlimited])
  }

  @Test func cancelStopsTimerAndUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.debounce(for: 3, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
    expectEqual(scheduler.scheduledActionCount, 0)
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
    expectEqual(subscriber.stampedEvents, ["1@3", "2@6"])
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
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func mirrorShowsDownstreamDemandAndPendingValue() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.debounce(for: 3, scheduler: scheduler).subscribe(subscriber)
    upstream.send(7)
    let children = subscriber.subscription.map { Mirror(reflecting: $0).children.map { $0 } } ?? []
    expectEqual(children.map(\.label), ["downstream", "downstreamDemand", "currentValue"])
    #expect(children.dropFirst().map { String(describing: $0.value) } == ["max(2)", "Optional(7)"])
    scheduler.advance(by: 3)
    let after = subscriber.subscription.map { Mirror(reflecting: $0).children.map { $0 } } ?? []
    #expect(after.dropFirst().map { String(describing: $0.value) } == ["max(1)", "nil"])
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
