import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct PreventCancellationTests {
  @Test func forwardsTheValueOrCompletion() {
    #expect(
      extRun({ TrustedUpstream(upstream: $0).preventCancellation() }, [1])
        == ["subscription", "value(1)", "finished"]
    )
    #expect(extRun({ TrustedUpstream(upstream: $0).preventCancellation() }, []) == ["subscription", "finished"])
    #expect(
      extRun({ TrustedUpstream(upstream: $0).preventCancellation() }, [], then: .failure(.upstream))
        == ["subscription", "failure(upstream)"]
    )
  }

  @Test func subscribesUpstreamAtTheFirstDemandWithUnlimitedDemand() {
    let (upstream, subscriber) = extSubscribe(
      { TrustedUpstream(upstream: $0).preventCancellation() },
      initialDemand: .none
    )
    expectEqual(upstream.subscriberCount, 0)
    subscriber.request(.max(1))
    expectEqual(upstream.requestedDemands, [.unlimited])
  }

  @Test func keepsUpstreamRunningAfterCancel() {
    let upstream = ExtUpstream()
    var seen: [String] = []
    let subscriber = TestSubscriber<Int, ExtTestError>()
    TrustedUpstream(upstream: upstream)
      .handleEvents(receiveOutput: { seen.append("value(\($0))") }, receiveCompletion: { seen.append("\($0)") })
      .preventCancellation()
      .subscribe(subscriber)
    subscriber.cancel()
    #expect(!upstream.isCancelled)
    _ = upstream.send(1)
    upstream.send(completion: .finished)
    expectEqual(seen, ["value(1)", "finished"])
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  @Test func keepsRunningWhenTheCancellableIsDropped() {
    let upstream = ExtUpstream()
    var seen: [Int] = []
    _ = TrustedUpstream(upstream: upstream)
      .handleEvents(receiveOutput: { seen.append($0) })
      .preventCancellation()
      .sinkSingle { _ in }
    _ = upstream.send(1)
    expectEqual(seen, [1])
    #expect(!upstream.isCancelled)
  }

  @Test func letsGoOfUpstreamOnceItCompletes() {
    for cancelFirst in [false, true] {
      weak var weakUpstreamSubscription: AnyObject?
      weak var weakSubscriber: TestSubscriber<Int, ExtTestError>?
      do {
        let upstream = ExtUpstream()
        let subscriber = TestSubscriber<Int, ExtTestError>()
        weakSubscriber = subscriber
        TrustedUpstream(upstream: upstream).preventCancellation().subscribe(subscriber)
        weakUpstreamSubscription = upstream.subscriptions.last
        if cancelFirst { subscriber.cancel() }
        upstream.send(completion: .finished)
        upstream.releaseSubscribers()
      }
      #expect(weakUpstreamSubscription == nil)
      #expect(weakSubscriber == nil)
    }
  }

  @Test func keepsTheTraitOfUpstream() {
    let _: AnySinglePublisher<Int, Never> = Just(1).preventCancellation().eraseToAnySinglePublisher()
    let _: AnyMaybePublisher<Int, Never> = Empty().preventCancellation().eraseToAnyMaybePublisher()
    let publisher = TraitPublishers.PreventCancellation(upstream: Just(2))
    expectEqual(publisher.upstream.output, 2)
  }

  @Test func keepsTheContract() {
    expectContract("preventCancellation") { Just(1).preventCancellation() }
  }

  @Test func fireAndForgetRunsToCompletion() {
    let upstream = TestPublisher<Int, Never>()
    upstream.ignoreOutput().fireAndForget()
    expectEqual(upstream.requestedDemands.first, .unlimited)
    #expect(!upstream.isCancelled)
    _ = upstream.send(1)
    upstream.send(completion: .finished)

    let failing = ExtUpstream()
    var completions: [String] = []
    failing.handleEvents(receiveCompletion: { completions.append("\($0)") }).ignoreOutput()
      .fireAndForgetIgnoringFailure()
    #expect(!failing.isCancelled)
    failing.send(completion: .failure(.upstream))
    expectEqual(completions, ["failure(RillExtTests.ExtTestError.upstream)"])
  }

  @Test func fireAndForgetLetsGoOnceDone() {
    weak var weakUpstreamSubscription: AnyObject?
    do {
      let upstream = TestPublisher<Int, Never>()
      upstream.ignoreOutput().fireAndForget()
      weakUpstreamSubscription = upstream.subscriptions.last
      upstream.send(completion: .finished)
      upstream.releaseSubscribers()
    }
    #expect(weakUpstreamSubscription == nil)
  }
}
