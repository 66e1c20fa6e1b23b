import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct CollectByCountTests {
  private typealias Upstream = TestPublisher<Int, ReducingTestError>

  @Test func marble() {
    let events = reducingRun({ $0.collect(2) }, inputs: [1, 2, 3, 4, 5])
    expectEqual(events, ["value([1, 2])", "value([3, 4])", "value([5])", "finished"])
  }

  @Test func exactMultipleHasNoTrailingArray() {
    #expect(reducingRun({ $0.collect(2) }, inputs: [1, 2]) == ["value([1, 2])", "finished"])
    #expect(reducingRun({ $0.collect(2) }, inputs: []) == ["finished"])
  }

  @Test func failureDropsPartialArray() {
    let events = reducingRun({ $0.collect(2) }, inputs: [1, 2, 3], completion: .failure(.oops))
    expectEqual(events, ["value([1, 2])", "failure(oops)"])
  }

  @Test func requestsCountTimesDemand() {
    let upstream = Upstream()
    let recorder = TestSubscriber<[Int], ReducingTestError>(initialDemand: .none, demandPerValue: .max(2))
    upstream.collect(3).subscribe(recorder)
    expectEqual(upstream.requestedDemands, [])
    expectEqual(upstream.cancelCount, 0)
    recorder.request(.max(1))
    expectEqual(upstream.requestedDemands, [.max(3)])
    expectEqual(upstream.cancelCount, 0)
    expectEqual(upstream.send(1), .none)
    expectEqual(upstream.send(2), .none)
    expectEqual(upstream.send(3), .max(6))
    recorder.request(.unlimited)
    expectEqual(upstream.requestedDemands, [.max(3), .unlimited])
    expectEqual(upstream.cancelCount, 0)
    expectEqual(recorder.events, [.subscription, .value([1, 2, 3])])
  }

  /// A count below one never fills an array, as in Combine: with unlimited demand everything comes in one array at
  /// the finish, like `collect()`.
  @Test func aCountBelowOneCollectsEverythingUntilTheFinish() {
    #expect(reducingRun({ $0.collect(0) }, inputs: [1, 2, 3]) == ["value([1, 2, 3])", "finished"])
    #expect(reducingRun({ $0.collect(-1) }, inputs: [1, 2]) == ["value([1, 2])", "finished"])
    #expect(reducingRun({ $0.collect(0) }, inputs: [1], completion: .failure(.oops)) == ["failure(oops)"])
  }

  /// A limited request cannot be turned into a request upstream when the count is below one: it traps, naming the
  /// count, where Combine passes upstream a demand of zero or a negative one.
  @Test func aCountBelowOneWithALimitedRequestTrapsNamingTheCount() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let recorder = TestSubscriber<[Int], Never>(initialDemand: .max(1))
      [1, 2, 3].publisher.collect(0).subscribe(recorder)
    }.map { result in
      let text = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(text.contains("collect(_:): count is 0; it must be greater than zero for a limited demand (max(1))"))
    }
  }

  @Test func zeroDemandRequestTraps() async {
    await #expect(processExitsWith: .failure) {
      let recorder = TestSubscriber<[Int], Never>(initialDemand: .none)
      PassthroughSubject<Int, Never>().collect(2).subscribe(recorder)
      recorder.subscription?.request(.none)
    }
  }

  @Test func cancel() {
    let upstream = Upstream()
    let recorder = TestSubscriber<[Int], ReducingTestError>(initialDemand: .max(1))
    upstream.collect(2).subscribe(recorder)
    upstream.send(1)
    let subscription = recorder.subscription
    recorder.cancel()
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.cancelCount, 1)
    expectEqual(upstream.send(2), .none)
    upstream.send(completion: .finished)
    subscription?.request(.max(1))
    subscription?.cancel()
    // As in Combine, the buffered element is dropped at the cancel but upstream's completion still arrives.
    expectEqual(recorder.events, [.subscription, .completion(.finished)])
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.cancelCount, 1)
  }

  /// As in Combine, every completion is passed on, also after an earlier one, while elements after a completion are
  /// dropped.
  @Test func everyCompletionIsPassedOnButNoElementAfterIt() {
    let upstream = Upstream()
    let recorder = TestSubscriber<[Int], ReducingTestError>(initialDemand: .unlimited)
    upstream.collect(2).subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(.oops))
    upstream.send(completion: .finished)
    expectEqual(upstream.send(2), .none)
    expectEqual(upstream.send(3), .none)
    upstream.send(completion: .finished)
    #expect(
      recorder.events == [.subscription, .completion(.failure(.oops)), .completion(.finished), .completion(.finished)]
    )
  }

  @Test func reentrancy() {
    var upstreamRef: Upstream?
    let upstream = Upstream()
    upstreamRef = upstream
    let recorder = TestSubscriber<[Int], ReducingTestError>(
      initialDemand: .max(1),
      onValue: { recorder, value in
        if value == [1, 2] {
          recorder.subscription?.request(.max(1))
          upstreamRef?.send(3)
          upstreamRef?.send(4)
        } else {
          recorder.subscription?.cancel()
          upstreamRef?.send(5)
        }
        return .none
      }
    )
    upstream.collect(2).subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    upstreamRef = nil
    expectEqual(recorder.events, [.subscription, .value([1, 2]), .value([3, 4])])
    expectEqual(upstream.requestedDemands, [.max(2), .max(2)])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func secondSubscriptionIsCancelled() {
    let upstream = Upstream()
    let recorder = TestSubscriber<[Int], ReducingTestError>(initialDemand: .max(1))
    upstream.collect(2).subscribe(recorder)
    let second = TestSubscription()
    upstream.send(subscription: second)
    expectEqual(second.requestedDemands, [])
    expectEqual(second.cancelCount, 1)
    reducingSend([1, 2], then: .finished, from: upstream)
    expectEqual(recorder.events, [.subscription, .value([1, 2]), .completion(.finished)])
  }

  @Test func memory() {
    weak var inner: AnyObject?
    weak var upstreamSubscription: AnyObject?
    do {
      let upstream = Upstream()
      let recorder = TestSubscriber<[Int], ReducingTestError>()
      upstream.collect(2).subscribe(recorder)
      inner = recorder.subscription as AnyObject?
      upstreamSubscription = upstream.subscriptions.last
      reducingSend([1, 2, 3], then: .finished, from: upstream)
      upstream.releaseSubscribers()
    }
    #expect(inner == nil)
    #expect(upstreamSubscription == nil)
    do {
      let upstream = Upstream()
      let recorder = TestSubscriber<[Int], ReducingTestError>()
      upstream.collect(2).subscribe(recorder)
      inner = recorder.subscription as AnyObject?
      upstreamSubscription = upstream.subscriptions.last
      recorder.cancel()
      upstream.releaseSubscribers()
    }
    #expect(inner == nil)
    #expect(upstreamSubscription == nil)
  }

  @Test func publicSurface() {
    let collect: Publishers.CollectByCount<Just<Int>> = Just(1).collect(3)
    expectEqual(collect.upstream, Just(1))
    expectEqual(collect.count, 3)
    expectEqual(collect, Publishers.CollectByCount(upstream: Just(1), count: 3))
    #expect(collect != Publishers.CollectByCount(upstream: Just(1), count: 4))
  }
}

extension CollectByCountTests {
  /// As in Combine, a cancel before the upstream subscription arrives changes nothing: the subscription
  /// is neither cancelled nor asked for anything until downstream asks.
  @Test func cancelBeforeTheSubscriptionDoesNothing() throws {
    let upstream = SubscriberHolder<Int, Never>()
    upstream.collect(19).subscribe(TestSubscriber<[Int], Never>(initialDemand: .none))
    upstream.subscriberAsSubscription?.cancel()
    let subscription = TestSubscription()
    try #require(upstream.subscriber).receive(subscription: subscription)
    expectEqual(subscription.requestedDemands, [])
    #expect(!subscription.isCancelled)
  }

  /// As in Combine, a completion that arrives before the upstream subscription is passed on; it ends the
  /// link, so a subscription that comes after it is cancelled.
  @Test func aCompletionBeforeTheSubscriptionIsPassedOn() throws {
    let upstream = SubscriberHolder<Int, Never>()
    let recorder = TestSubscriber<[Int], Never>(initialDemand: .none)
    upstream.collect(19).subscribe(recorder)
    try #require(upstream.subscriber).receive(completion: .finished)
    let subscription = TestSubscription()
    try #require(upstream.subscriber).receive(subscription: subscription)
    expectEqual(recorder.events, [.completion(.finished)])
    #expect(subscription.isCancelled)
  }

  /// The mirror names downstream, the upstream subscription, the buffer and the count, as Combine's.
  @Test func mirrorChildren() {
    let upstream = SubscriberHolder<Int, Never>()
    upstream.collect(53).subscribe(TestSubscriber<[Int], Never>(initialDemand: .none))
    let mirror = (upstream.rawSubscriber! as? any CustomReflectable)?.customMirror
    expectEqual(mirror?.children.map(\.label), ["downstream", "upstreamSubscription", "buffer", "count"])
    #expect(mirror?.children.map { String(describing: $0.value) }.suffix(2) == ["[]", "53"])
  }
}
