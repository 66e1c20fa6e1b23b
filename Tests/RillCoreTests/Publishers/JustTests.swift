import RillCore
import RillTesting
import Testing

/// What `Just` does when its subscriber calls back into it, and what it keeps alive.
@Suite struct JustTests {
  /// The value and `.finished` go out together on the first request, so a request or a cancel from inside `receive`
  /// finds nothing left to do.
  @Test func requestAndCancelFromInsideReceiveChangeNothing() {
    expectOneShotIgnoresCallsFromInsideReceive(Just(7), delivers: 7)
  }

  /// The subscription lets go of its subscriber once it has delivered, and once it is cancelled, even while someone
  /// still holds the subscription.
  @Test func releasesTheSubscriberAfterCompletionAndCancel() {
    expectOneShotReleasesItsSubscriber(Just(7), delivers: [.value(7), .completion(.finished)])
  }

  /// As in Combine, the subscription keeps its value while it lives, after it has delivered and after a cancel.
  @Test func keepsTheValueWhileTheSubscriptionLives() {
    expectOneShotKeepsItsValueWhileItLives { Just($0) }
  }
}
