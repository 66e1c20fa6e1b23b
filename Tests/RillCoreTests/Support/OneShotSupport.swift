import RillCore
import RillTesting
import Testing

// Checks shared by the publishers that deliver one value, or one completion, through `OneShotSubscription`: `Just`,
// `Optional.Publisher` and `Result.Publisher`.

/// Checks that a request and a cancel from inside `receive` change nothing: the value and `.finished` go out
/// together on the first request, so nothing is left to do.
func expectOneShotIgnoresCallsFromInsideReceive<P: Publisher>(
  _ publisher: P,
  delivers value: P.Output,
  sourceLocation: SourceLocation = #_sourceLocation
) where P.Output: Equatable, P.Failure: Equatable {
  let subscriber = TestSubscriber<P.Output, P.Failure>(
    initialDemand: .max(1),
    onValue: { subscriber, _ in
      subscriber.request(.max(1))
      subscriber.cancel()
      return .max(1)
    }
  )
  publisher.subscribe(subscriber)
  #expect(
    subscriber.events == [.subscription, .value(value), .completion(.finished)],
    sourceLocation: sourceLocation
  )
}

/// Checks that the subscription lets go of its subscriber once it has delivered `delivered` on the first request,
/// and once it is cancelled, even while someone still holds the subscription.
func expectOneShotReleasesItsSubscriber<P: Publisher>(
  _ publisher: P,
  delivers delivered: [TestSubscriber<P.Output, P.Failure>.Event],
  sourceLocation: SourceLocation = #_sourceLocation
) where P.Output: Equatable, P.Failure: Equatable {
  for cancels in [false, true] {
    weak var weakSubscriber: TestSubscriber<P.Output, P.Failure>?
    var subscription: (any Subscription)?
    do {
      let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
      publisher.subscribe(subscriber)
      subscription = subscriber.subscription
      weakSubscriber = subscriber
      if cancels { subscription?.cancel() } else { subscription?.request(.max(1)) }
      #expect(subscriber.events == [.subscription] + (cancels ? [] : delivered), sourceLocation: sourceLocation)
    }
    #expect(weakSubscriber == nil, "subscriber freed, cancels: \(cancels)", sourceLocation: sourceLocation)
    #expect(subscription != nil, sourceLocation: sourceLocation)
  }
}

/// A value whose lifetime a test watches through a weak reference.
final class OneShotValue: Sendable {}

/// Checks that the subscription keeps its value for as long as it lives, as Combine's does: after it has delivered and
/// after a cancel, while someone holds the subscription, and no longer once the subscription is let go.
func expectOneShotKeepsItsValueWhileItLives<P: Publisher>(
  _ makePublisher: (OneShotValue) -> P,
  sourceLocation: SourceLocation = #_sourceLocation
) where P.Output == OneShotValue {
  for cancels in [false, true] {
    weak var weakValue: OneShotValue?
    var subscription: (any Subscription)?
    do {
      let value = OneShotValue()
      weakValue = value
      makePublisher(value).subscribe(
        AnySubscriber<P.Output, P.Failure>(receiveSubscription: { subscription = $0 }, receiveValue: { _ in .none })
      )
    }
    if cancels { subscription?.cancel() } else { subscription?.request(.max(1)) }
    #expect(weakValue != nil, "value kept, cancels: \(cancels)", sourceLocation: sourceLocation)
    subscription = nil
    #expect(weakValue == nil, "value freed with the subscription, cancels: \(cancels)", sourceLocation: sourceLocation)
  }
}
