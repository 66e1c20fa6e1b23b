import RillCore
import RillTestSupport
import RillTesting
import Testing

/// What `Result.Publisher` does with cancellation and a subscriber that calls back into it, and what it keeps
/// alive.
@Suite struct ResultPublisherTests {
  private typealias Published = Result<Int, CoreTestError>.Publisher

  @Test func cancelBeforeDemandIsSilent() {
    let subscriber = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
    Published(4).subscribe(subscriber)
    let subscription = subscriber.subscription
    subscriber.cancel()
    subscription?.request(.max(1))
    expectEqual(subscriber.events, [.subscription])
  }

  @Test func requestAndCancelFromInsideReceiveChangeNothing() {
    expectOneShotIgnoresCallsFromInsideReceive(Published(4), delivers: 4)
  }

  @Test func releasesTheSubscriberAfterSuccessFailureAndCancel() {
    for end in ["success", "failure", "cancel"] {
      weak var weakSubscriber: TestSubscriber<Int, CoreTestError>?
      var subscription: (any Subscription)?
      do {
        let subscriber = TestSubscriber<Int, CoreTestError>(
          initialDemand: .none,
          onSubscription: { _, received in subscription = received }
        )
        (end == "failure" ? Published(.boom) : Published(4)).subscribe(subscriber)
        weakSubscriber = subscriber
        if end == "cancel" { subscription?.cancel() } else { subscription?.request(.max(1)) }
        #expect(subscriber.completionCount == (end == "cancel" ? 0 : 1))
      }
      #expect(weakSubscriber == nil, "subscriber freed after \(end)")
      #expect(subscription != nil)
    }
  }

  /// As in Combine, the subscription keeps its value while it lives, after it has delivered and after a cancel.
  @Test func keepsTheValueWhileTheSubscriptionLives() {
    expectOneShotKeepsItsValueWhileItLives { Result<OneShotValue, CoreTestError>.Publisher($0) }
  }
}
