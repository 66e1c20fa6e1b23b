import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ConcatenateTests {
  typealias Source = TestPublisher<Int, CombiningError>

  private struct Pipeline {
    let prefix = Source()
    let suffix = Source()
    let recorder: TestSubscriber<Int, CombiningError>

    init(demand: Subscribers.Demand = .unlimited) {
      recorder = TestSubscriber(initialDemand: demand)
      prefix.append(suffix).subscribe(recorder)
    }
  }

  @Test func republishesThePrefixThenTheSuffix() {
    let pipe = Pipeline()
    expectEqual(pipe.suffix.subscriberCount, 0)
    pipe.prefix.send(1)
    pipe.prefix.send(2)
    pipe.prefix.send(completion: .finished)
    expectEqual(pipe.suffix.subscriberCount, 1)
    pipe.suffix.send(3)
    #expect(pipe.recorder.completions.isEmpty)
    pipe.suffix.send(completion: .finished)
    expectEqual(pipe.recorder.values, [1, 2, 3])
    expectEqual(pipe.recorder.completion, .finished)
  }

  @Test func prefixFailureFailsWithoutSubscribingTheSuffix() {
    let pipe = Pipeline()
    pipe.prefix.send(completion: .failure(.boom))
    expectEqual(pipe.recorder.completion, .failure(.boom))
    expectEqual(pipe.suffix.subscriberCount, 0)
  }

  @Test func suffixFailureFails() {
    let pipe = Pipeline()
    pipe.prefix.send(completion: .finished)
    pipe.suffix.send(completion: .failure(.boom))
    expectEqual(pipe.recorder.completion, .failure(.boom))
  }

  @Test func outstandingDemandCarriesOverToTheSuffix() {
    let pipe = Pipeline(demand: .max(3))
    expectEqual(pipe.prefix.requestedDemands, [.max(3)])
    pipe.prefix.send(1)
    pipe.recorder.request(.max(2))
    expectEqual(pipe.prefix.requestedDemands, [.max(3), .max(2)])
    pipe.prefix.send(completion: .finished)
    expectEqual(pipe.suffix.requestedDemands, [.max(4)])
  }

  /// Combine forwards a request for `.none` to the running publisher as it is.
  @Test func requestForNoneGoesUpstream() {
    let pipe = Pipeline(demand: .max(10))
    pipe.recorder.onValue = { _, value in .max(value) }
    pipe.recorder.subscription?.request(.none)
    expectEqual(pipe.prefix.send(3), .max(3))
    expectEqual(pipe.prefix.requestedDemands, [.max(10), .none])
    pipe.prefix.send(completion: .finished)
    expectEqual(pipe.suffix.requestedDemands, [.max(12)])
    pipe.recorder.request(.unlimited)
    pipe.suffix.send(completion: .finished)
    pipe.recorder.request(.max(42))
    expectEqual(pipe.prefix.requestedDemands, [.max(10), .none])
    expectEqual(pipe.suffix.requestedDemands, [.max(12), .unlimited])
  }

  @Test func noOutstandingDemandNoRequest() {
    let pipe = Pipeline(demand: .max(1))
    pipe.prefix.send(1)
    pipe.prefix.send(completion: .finished)
    #expect(pipe.suffix.requestedDemands.isEmpty)
    pipe.recorder.request(.max(1))
    expectEqual(pipe.suffix.requestedDemands, [.max(1)])
  }

  @Test func additionalDemandIsReturnedUpstream() {
    let pipe = Pipeline(demand: .max(1))
    pipe.recorder.onValue = { _, _ in .max(2) }
    expectEqual(pipe.prefix.send(1), .max(2))
    pipe.prefix.send(completion: .finished)
    expectEqual(pipe.suffix.requestedDemands, [.max(2)])
  }

  @Test func cancelCancelsTheCurrentUpstreamAndSilences() {
    let pipe = Pipeline()
    pipe.prefix.send(completion: .finished)
    pipe.recorder.cancel()
    #expect(pipe.suffix.isCancelled)
    pipe.suffix.send(1)
    pipe.suffix.send(completion: .finished)
    #expect(pipe.recorder.values.isEmpty)
    #expect(pipe.recorder.completions.isEmpty)
  }

  @Test func cancelDuringThePrefixNeverSubscribesTheSuffix() {
    let pipe = Pipeline()
    pipe.recorder.cancel()
    #expect(pipe.prefix.isCancelled)
    pipe.prefix.send(completion: .finished)
    expectEqual(pipe.suffix.subscriberCount, 0)
  }

  @Test func reentrantRequestAndCancel() {
    let pipe = Pipeline(demand: .max(1))
    let recorder = pipe.recorder
    // The hook gets the recorder as its argument: capturing it would make a cycle that outlives the test.
    pipe.recorder.onValue = { recorder, value in
      if value == 1 { recorder.request(.max(1)) }
      if value == 3 { recorder.cancel() }
      return .none
    }
    pipe.prefix.send(1)
    expectEqual(pipe.prefix.requestedDemands, [.max(1), .max(1)])
    pipe.prefix.send(2)
    pipe.prefix.send(completion: .finished)
    recorder.request(.max(5))
    pipe.suffix.send(3)
    pipe.suffix.send(4)
    expectEqual(recorder.values, [1, 2, 3])
    #expect(pipe.suffix.isCancelled)
  }

  @Test func sendFromInsideReceiveKeepsOrder() {
    let pipe = Pipeline()
    let (prefix, suffix) = (pipe.prefix, pipe.suffix)
    pipe.recorder.onValue = { _, value in
      if value == 1 { prefix.send(2) }
      if value == 3 { suffix.send(4) }
      return .none
    }
    pipe.prefix.send(1)
    pipe.prefix.send(completion: .finished)
    pipe.suffix.send(3)
    pipe.suffix.send(completion: .finished)
    #expect(
      pipe.recorder.eventDescriptions == ["subscription", "value(1)", "value(2)", "value(3)", "value(4)", "finished"]
    )
  }

  @Test func appendAndPrependValuesSequencesAndPublishers() {
    func values<P: Publisher>(_ publisher: P) -> [Int] where P.Output == Int, P.Failure == Never {
      let recorder = TestSubscriber<Int, Never>()
      publisher.subscribe(recorder)
      expectEqual(recorder.completion, .finished)
      return recorder.values
    }
    let upstream = [1, 2].publisher
    expectEqual(values(upstream.append(3, 4)), [1, 2, 3, 4])
    expectEqual(values(upstream.append(3...4)), [1, 2, 3, 4])
    expectEqual(values(upstream.append(Just(3))), [1, 2, 3])
    expectEqual(values(upstream.prepend(0)), [0, 1, 2])
    expectEqual(values(upstream.prepend(-1...0)), [-1, 0, 1, 2])
    expectEqual(values(upstream.prepend(Just(0))), [0, 1, 2])
    let typed: Publishers.Concatenate<Just<Int>, Publishers.Sequence<[Int], Never>> = Just(1).append(2, 3)
    expectEqual(typed.prefix, Just(1))
    expectEqual(typed.suffix.sequence, [2, 3])
  }

  @Test func limitedDemandAcrossSynchronousParts() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(3))
    [1, 2].publisher.append([3, 4].publisher).subscribe(recorder)
    expectEqual(recorder.values, [1, 2, 3])
    recorder.request(.max(1))
    expectEqual(recorder.values, [1, 2, 3, 4])
    expectEqual(recorder.completion, .finished)
  }

  @Test func equatable() {
    expectEqual(Just(1).append(Just(2)), Publishers.Concatenate(prefix: Just(1), suffix: Just(2)))
    #expect(Just(1).append(Just(2)) != Publishers.Concatenate(prefix: Just(1), suffix: Just(3)))
  }

  @Test func releasesThePipelineAfterCompletionAndCancel() {
    weak var finished: TestSubscriber<Int, CombiningError>?
    weak var cancelled: TestSubscriber<Int, CombiningError>?
    do {
      let pipe = Pipeline()
      finished = pipe.recorder
      pipe.prefix.send(completion: .finished)
      pipe.suffix.send(completion: .finished)
      pipe.prefix.releaseSubscribers()
      pipe.suffix.releaseSubscribers()
    }
    do {
      let pipe = Pipeline()
      cancelled = pipe.recorder
      pipe.recorder.cancel()
      pipe.prefix.releaseSubscribers()
    }
    #expect(finished == nil)
    #expect(cancelled == nil)
  }
}

extension ConcatenateTests {
  /// As in Combine, values beyond downstream's demand, and events before a side's subscription, are
  /// dropped, and downstream gets its subscription once the prefix has sent one.
  @Test func dropsWhatArrivesBeyondDemandOrBeforeTheSubscription() throws {
    let prefix = SubscriberHolder<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .max(3),
      onValue: { _, value in
        _ = prefix.subscriber?.receive(value + 1)
        return .none
      }
    )
    prefix.append(Empty()).subscribe(recorder)
    #expect(recorder.events.isEmpty)
    let upstream = try #require(prefix.subscriber)
    expectEqual(upstream.receive(0), .none)
    upstream.receive(completion: .finished)
    #expect(recorder.events.isEmpty)
    upstream.receive(subscription: TestSubscription())
    expectEqual(recorder.events, [.subscription])
    expectEqual(upstream.receive(1), .none)
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3)])
  }

  /// As in Combine, the subscribers given to the prefix and the suffix are of different types, share the
  /// subscription's identifier and description, and have empty mirrors; a cancel releases the suffix.
  @Test func sidesLookLikeTheSubscriptionAndCancelReleasesTheSuffix() throws {
    let prefix = SubscriberHolder<Int, Never>()
    let suffix = SubscriberHolder<Int, Never>()
    weak var weakSuffix = suffix
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    prefix.append(suffix).subscribe(recorder)
    try #require(prefix.subscriber).receive(subscription: TestSubscription())
    try #require(prefix.subscriber).receive(completion: .finished)
    let prefixSide = try #require(prefix.rawSubscriber as? any Subscriber)
    let suffixSide = try #require(suffix.rawSubscriber as? any Subscriber)
    let subscription = try #require(recorder.subscription)
    #expect(type(of: prefixSide) != type(of: suffixSide))
    for side in [prefixSide, suffixSide] {
      expectEqual(side.combineIdentifier, subscription.combineIdentifier)
      expectEqual((side as? any CustomStringConvertible)?.description, "Concatenate")
      expectEqual((side as? any CustomReflectable)?.customMirror.children.isEmpty, true)
    }

    let other = TestSubscriber<Int, Never>(initialDemand: .none)
    do {
      let held = SubscriberHolder<Int, Never>()
      weakSuffix = held
      Just(1).append(held).subscribe(other)
    }
    #expect(weakSuffix != nil)
    other.cancel()
    #expect(weakSuffix == nil)
  }
}
