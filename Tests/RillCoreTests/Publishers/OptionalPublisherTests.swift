import RillCore
import RillTestSupport
import RillTesting
import Testing

/// What `Optional.Publisher` does with demand, cancellation and a subscriber that calls back into it, and what it
/// keeps alive.
@Suite struct OptionalPublisherTests {
  @Test func aValueWaitsForDemandAndNilFinishesAtOnce() {
    let some = TestSubscriber<Int, Never>(initialDemand: .none)
    Optional(3).publisher.subscribe(some)
    expectEqual(some.events, [.subscription])
    some.request(.max(1))
    some.request(.max(1))
    expectEqual(some.events, [.subscription, .value(3), .completion(.finished)])

    let none = TestSubscriber<Int, Never>(initialDemand: .none)
    Int?.none.publisher.subscribe(none)
    expectEqual(none.events, [.subscription, .completion(.finished)])
  }

  @Test func cancelBeforeDemandIsSilent() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Optional(3).publisher.subscribe(subscriber)
    let subscription = subscriber.subscription
    subscriber.cancel()
    subscription?.request(.max(1))
    expectEqual(subscriber.events, [.subscription])
  }

  @Test func requestAndCancelFromInsideReceiveChangeNothing() {
    expectOneShotIgnoresCallsFromInsideReceive(Optional(3).publisher, delivers: 3)
  }

  @Test func releasesTheSubscriberAfterCompletionAndCancel() {
    expectOneShotReleasesItsSubscriber(Optional(3).publisher, delivers: [.value(3), .completion(.finished)])
  }

  /// As in Combine, the subscription keeps its value while it lives, after it has delivered and after a cancel.
  @Test func keepsTheValueWhileTheSubscriptionLives() {
    expectOneShotKeepsItsValueWhileItLives { Optional($0).publisher }
  }
}
