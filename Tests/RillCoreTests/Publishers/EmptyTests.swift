import RillCore
import RillTestSupport
import RillTesting
import Testing

/// What `Empty` does when cancelled, and what it keeps alive.
@Suite struct EmptyTests {
  /// As in Combine, `Empty` finishes from inside `subscribe`, whatever the subscriber did with the subscription.
  @Test func cancelInsideReceiveSubscriptionDoesNotStopTheCompletion() {
    let subscriber = TestSubscriber<Int, CoreTestError>(
      initialDemand: .none,
      onSubscription: { _, subscription in subscription.cancel() }
    )
    Empty<Int, CoreTestError>().subscribe(subscriber)
    expectEqual(subscriber.events, [.subscription, .completion(.finished)])
  }

  @Test func keepsNoSubscriberAfterCompletionOrCancel() {
    for completes in [true, false] {
      weak var weakSubscriber: TestSubscriber<Int, Never>?
      do {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: completes).subscribe(subscriber)
        weakSubscriber = subscriber
        if !completes { subscriber.cancel() }
        #expect(subscriber.completionCount == (completes ? 1 : 0))
      }
      #expect(weakSubscriber == nil, "subscriber freed, completes: \(completes)")
    }
  }
}
