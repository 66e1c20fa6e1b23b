import RillExt
import RillTestSupport
import RillTesting
import Testing

/// A single subscription whose work the test completes by hand, recording the calls to its overrides.
private final class RecordingSingle<Downstream: Subscriber>: TraitSubscriptions.Single<Downstream, String>
where Downstream.Input == Int, Downstream.Failure == ExtTestError {
  var calls: [String] = []
  var onStart: ((RecordingSingle) -> Void)?

  override func start(with context: String) {
    calls.append("start(\(context))")
    onStart?(self)
  }

  override func didCancel(with context: String) { calls.append("didCancel(\(context))") }

  override func didComplete(with context: String) { calls.append("didComplete(\(context))") }
}

private final class RecordingMaybe<Downstream: Subscriber>: TraitSubscriptions.Maybe<Downstream, String>
where Downstream.Input == Int, Downstream.Failure == ExtTestError {
  var calls: [String] = []

  override func start(with context: String) { calls.append("start(\(context))") }

  override func didCancel(with context: String) { calls.append("didCancel(\(context))") }

  override func didComplete(with context: String) { calls.append("didComplete(\(context))") }
}

@Suite struct TraitSubscriptionsTests {
  @Test func singleStartsAtTheFirstDemandAndSendsTheOutcomeOnce() {
    let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: .none)
    let subscription = RecordingSingle(downstream: subscriber, context: "ctx")
    subscriber.receive(subscription: subscription)
    subscription.request(.none)
    #expect(subscription.calls.isEmpty)
    subscription.request(.max(1))
    subscription.request(.max(1))
    expectEqual(subscription.calls, ["start(ctx)"])
    subscription.receive(.success(1))
    subscription.receive(.failure(.upstream))
    subscription.cancel()
    expectEqual(subscription.calls, ["start(ctx)", "didComplete(ctx)"])
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
  }

  @Test func singleMayCompleteFromStart() {
    let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: .none)
    let subscription = RecordingSingle(downstream: subscriber, context: "ctx")
    subscription.onStart = { $0.receive(.failure(.upstream)) }
    subscriber.receive(subscription: subscription)
    subscriber.request(.unlimited)
    expectEqual(subscription.calls, ["start(ctx)", "didComplete(ctx)"])
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(upstream)"])
  }

  @Test func singleCancelCallsDidCancelOnlyForStartedWork() {
    let subscriber = TestSubscriber<Int, ExtTestError>()
    let started = RecordingSingle(downstream: subscriber, context: "a")
    started.request(.max(1))
    started.cancel()
    started.cancel()
    started.receive(.success(1))
    expectEqual(started.calls, ["start(a)", "didCancel(a)"])

    let idle = RecordingSingle(downstream: subscriber, context: "b")
    idle.cancel()
    idle.request(.max(1))
    #expect(idle.calls.isEmpty)
    #expect(subscriber.eventDescriptions.isEmpty)
  }

  @Test func singleKeepsAValueReportedBeforeDemand() {
    let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: .none)
    let subscription = RecordingSingle(downstream: subscriber, context: "ctx")
    subscriber.receive(subscription: subscription)
    subscription.receive(.success(7))
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    subscriber.request(.max(1))
    expectEqual(subscription.calls, ["didComplete(ctx)"])
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(7)", "finished"])

    let failing = TestSubscriber<Int, ExtTestError>(initialDemand: .none)
    let early = RecordingSingle(downstream: failing, context: "ctx")
    failing.receive(subscription: early)
    early.receive(.failure(.other))
    expectEqual(failing.eventDescriptions, ["subscription", "failure(other)"])
  }

  @Test func maybeSendsEachOutcome() {
    for (outcome, expected) in [
      (MaybeResult<Int, ExtTestError>.success(1), ["subscription", "value(1)", "finished"]),
      (.finished, ["subscription", "finished"]),
      (.failure(.upstream), ["subscription", "failure(upstream)"]),
    ] {
      let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: .none)
      let subscription = RecordingMaybe(downstream: subscriber, context: "ctx")
      subscriber.receive(subscription: subscription)
      subscriber.request(.max(1))
      subscription.receive(outcome)
      subscription.receive(.success(2))
      expectEqual(subscription.calls, ["start(ctx)", "didComplete(ctx)"])
      expectEqual(subscriber.eventDescriptions, expected)
    }
  }

  @Test func maybeSendsAnEarlyFinishAtOnceAndCancelsStartedWork() {
    let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: .none)
    let early = RecordingMaybe(downstream: subscriber, context: "ctx")
    subscriber.receive(subscription: early)
    early.receive(.finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished"])

    let other = TestSubscriber<Int, ExtTestError>()
    let started = RecordingMaybe(downstream: other, context: "ctx")
    other.receive(subscription: started)
    other.cancel()
    expectEqual(started.calls, ["start(ctx)", "didCancel(ctx)"])
  }

  @Test func aSubscriberThatCancelsOnTheValueGetsNoFinish() {
    let subscriber = TestSubscriber<Int, ExtTestError>(onValue: { subscriber, _ in
      subscriber.cancel()
      return .none
    })
    let subscription = RecordingSingle(downstream: subscriber, context: "ctx")
    subscriber.receive(subscription: subscription)
    subscription.receive(.success(1))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)"])
    expectEqual(subscription.calls, ["start(ctx)", "didComplete(ctx)"])
  }

  @Test func theSubscriptionLetsGoOfItsSubscriberWhenItEnds() {
    for cancel in [false, true] {
      weak var weakSubscriber: TestSubscriber<Int, ExtTestError>?
      let subscription: RecordingSingle<TestSubscriber<Int, ExtTestError>>
      do {
        let subscriber = TestSubscriber<Int, ExtTestError>()
        weakSubscriber = subscriber
        subscription = RecordingSingle(downstream: subscriber, context: "ctx")
        subscriber.receive(subscription: subscription)
        if cancel { subscriber.cancel() } else { subscription.receive(.success(1)) }
      }
      #expect(weakSubscriber == nil)
      _ = subscription
    }
  }
}
