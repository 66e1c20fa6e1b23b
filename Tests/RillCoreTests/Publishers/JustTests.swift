import RillCore
import RillTesting
import Testing

/// What `Just` does when its subscriber calls back into it, and what it keeps alive.
@Suite struct JustTests {
  /// The value and `.finished` go out together on the first request, so a request or a cancel from inside `receive`
  /// finds nothing left to do.
  @Test func requestAndCancelFromInsideReceiveChangeNothing() {
    let subscriber = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { subscriber, _ in
        subscriber.request(.max(1))
        subscriber.cancel()
        return .max(1)
      }
    )
    Just(7).subscribe(subscriber)
    #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
  }

  /// The subscription lets go of its subscriber once it has delivered, and once it is cancelled, even while someone
  /// still holds the subscription.
  @Test func releasesTheSubscriberAfterCompletionAndCancel() {
    for cancels in [false, true] {
      weak var weakSubscriber: TestSubscriber<Int, Never>?
      var subscription: (any Subscription)?
      do {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(7).subscribe(subscriber)
        subscription = subscriber.subscription
        weakSubscriber = subscriber
        if cancels { subscription?.cancel() } else { subscription?.request(.max(1)) }
        #expect(subscriber.values == (cancels ? [] : [7]))
      }
      #expect(weakSubscriber == nil, "subscriber freed, cancels: \(cancels)")
      #expect(subscription != nil)
    }
  }
}
