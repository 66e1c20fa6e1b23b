import RillCore
import RillTestSupport
import RillTesting
import Testing

/// What `Fail` does when cancelled, and what it keeps alive.
@Suite struct FailTests {
  /// `Fail` fails from inside `subscribe`, whatever the subscriber did with the subscription.
  @Test func cancelInsideReceiveSubscriptionDoesNotStopTheFailure() {
    let subscriber = TestSubscriber<Int, CoreTestError>(
      initialDemand: .none,
      onSubscription: { _, subscription in subscription.cancel() }
    )
    Fail<Int, CoreTestError>(error: .boom).subscribe(subscriber)
    expectEqual(subscriber.events, [.subscription, .completion(.failure(.boom))])
  }

  @Test func keepsNoSubscriberAfterTheFailure() {
    weak var weakSubscriber: TestSubscriber<Int, CoreTestError>?
    do {
      let subscriber = TestSubscriber<Int, CoreTestError>()
      Fail<Int, CoreTestError>(error: .boom).subscribe(subscriber)
      weakSubscriber = subscriber
      expectEqual(subscriber.failure, .boom)
    }
    #expect(weakSubscriber == nil)
  }
}
