import RillCore
import RillTestSupport
import RillTesting
import Testing

/// What the reduce-like operators (`count`, `reduce`, `first`, `contains`, ...) share with Combine's before their
/// upstream subscription arrives, and how they show themselves in the debugger.
@Suite struct ReducingSubscriptionTests {
  /// Subscribes `recorder` through `makeOperator` to an upstream that holds back its subscription, and returns that
  /// upstream, whose held subscriber is the operator's subscription.
  private func held<P: Publisher>(
    _ makeOperator: (SubscriberHolder<Int, Never>) -> P,
    recorder: TestSubscriber<P.Output, P.Failure>
  ) -> SubscriberHolder<Int, Never> {
    let upstream = SubscriberHolder<Int, Never>()
    makeOperator(upstream).subscribe(recorder)
    return upstream
  }

  /// A cancel before the subscription arrives has nothing to cancel; the subscription that arrives later is taken
  /// and asked for everything, as Combine does.
  @Test func cancelBeforeSubscriptionStillRequestsUnlimited() throws {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    let upstream = held({ $0.count() }, recorder: recorder)
    try #require(upstream.subscriberAsSubscription).cancel()
    let subscription = TestSubscription()
    upstream.send(subscription: subscription)
    expectEqual(subscription.requestedDemands, [.unlimited])
    #expect(!subscription.isCancelled)
  }

  @Test func cancelAfterSubscriptionStillCancels() throws {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    let upstream = held({ $0.reduce(0, +) }, recorder: recorder)
    let subscription = TestSubscription()
    upstream.send(subscription: subscription)
    try #require(upstream.subscriberAsSubscription).cancel()
    expectEqual(subscription.requestedDemands, [.unlimited])
    expectEqual(subscription.cancelCount, 1)
  }

  /// Cancelling after upstream finished, while the result waits for demand, drops the result.
  @Test func cancelWhileTheResultWaitsForDemandDropsIt() throws {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    let upstream = held({ $0.count() }, recorder: recorder)
    upstream.send(subscription: TestSubscription())
    upstream.send(completion: .finished)
    let subscription = recorder.subscription
    recorder.cancel()
    subscription?.request(.max(1))
    expectEqual(recorder.events, [.subscription])
  }

  @Test func mirrorShowsDownstreamResultInitialAndStatus() throws {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    let upstream = held({ $0.reduce(5, +) }, recorder: recorder)
    let subscription = try #require(upstream.subscriberAsSubscription)
    let mirror = try #require(subscription as? any CustomReflectable).customMirror
    expectEqual(mirror.children.map(\.label), ["downstream", "result", "initial", "status"])
    #expect(
      mirror.children.map { String(describing: $0.value) }.dropFirst() == ["Optional(5)", "5", "awaitingSubscription"]
    )
  }

  @Test func collectMirrorShowsTheCount() throws {
    let recorder = TestSubscriber<[Int], Never>(initialDemand: .none)
    let upstream = held({ $0.collect() }, recorder: recorder)
    upstream.send(subscription: TestSubscription())
    _ = upstream.send(1)
    _ = upstream.send(2)
    let subscription = try #require(upstream.subscriberAsSubscription)
    let mirror = try #require(subscription as? any CustomReflectable).customMirror
    expectEqual(mirror.children.map(\.label), ["count"])
    #expect(mirror.children.map { String(describing: $0.value) } == ["2"])
  }

  /// Combine names `first(where:)`'s subscription "TryFirst".
  @Test func firstWhereIsDescribedAsCombineDescribesIt() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    let upstream = held({ $0.first { $0 > 1 } }, recorder: recorder)
    expectEqual((upstream.subscriberAsSubscription as? any CustomStringConvertible)?.description, "TryFirst")
  }
}
