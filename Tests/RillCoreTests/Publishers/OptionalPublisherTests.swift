import RillCore
import RillTesting
import Testing

/// What `Optional.Publisher` does with demand, cancellation and a subscriber that calls back into it, and what it
/// keeps alive.
@Suite struct OptionalPublisherTests {
  @Test func aValueWaitsForDemandAndNilFinishesAtOnce() {
    let some = TestSubscriber<Int, Never>(initialDemand: .none)
    Optional(3).publisher.subscribe(some)
    #expect(some.events == [.subscription])
    some.request(.max(1))
    some.request(.max(1))
    #expect(some.events == [.subscription, .value(3), .completion(.finished)])

    let none = TestSubscriber<Int, Never>(initialDemand: .none)
    Int?.none.publisher.subscribe(none)
    #expect(none.events == [.subscription, .completion(.finished)])
  }

  @Test func cancelBeforeDemandIsSilent() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Optional(3).publisher.subscribe(subscriber)
    let subscription = subscriber.subscription
    subscriber.cancel()
    subscription?.request(.max(1))
    #expect(subscriber.events == [.subscription])
  }

  @Test func requestAndCancelFromInsideReceiveChangeNothing() {
    let subscriber = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { subscriber, _ in
        subscriber.request(.max(1))
        subscriber.cancel()
        return .max(1)
      }
    )
    Optional(3).publisher.subscribe(subscriber)
    #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
  }

  @Test func releasesTheSubscriberAfterCompletionAndCancel() {
    for cancels in [false, true] {
      weak var weakSubscriber: TestSubscriber<Int, Never>?
      var subscription: (any Subscription)?
      do {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Optional(3).publisher.subscribe(subscriber)
        subscription = subscriber.subscription
        weakSubscriber = subscriber
        if cancels { subscription?.cancel() } else { subscription?.request(.max(1)) }
        #expect(subscriber.values == (cancels ? [] : [3]))
      }
      #expect(weakSubscriber == nil, "subscriber freed, cancels: \(cancels)")
      #expect(subscription != nil)
    }
  }
}
