import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct BufferTests {
  typealias Upstream = TestPublisher<Int, OpsMiscError>
  typealias Recorder = TestSubscriber<Int, OpsMiscError>

  @Test func keepFullRequestsSizeBeforeDownstreamSubscribes() {
    let recorder = Recorder(initialDemand: .none)
    var eventsAtRequest: [Recorder.Event]?
    let upstream = Upstream(onRequest: { _, _ in eventsAtRequest = recorder.events })
    upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
    expectEqual(upstream.requestedDemands, [.max(3)])
    expectEqual(eventsAtRequest, [])
    expectEqual(recorder.events, [.subscription])
  }

  @Test func byRequestRequestsUnlimitedOnce() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .max(1))
    upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
    expectEqual(upstream.send(1), .none)
    recorder.request(.max(5))
    expectEqual(upstream.send(2), .none)
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(recorder.values, [1, 2])
  }

  @Test func keepFullRefillsWhatItDelivers() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .none)
    upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
    expectEqual(upstream.send(1), .none)
    expectEqual(upstream.send(2), .none)
    recorder.request(.max(1))
    expectEqual(recorder.values, [1])
    expectEqual(upstream.requestedDemands, [.max(3), .max(1)])
    recorder.request(.max(2))
    expectEqual(recorder.values, [1, 2])
    expectEqual(upstream.requestedDemands, [.max(3), .max(1), .max(1)])
    expectEqual(upstream.send(3), .max(1))
    expectEqual(recorder.values, [1, 2, 3])
  }

  @Test func buffersWhileDownstreamHasNoDemand() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .none)
    upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
    for value in 1...4 { upstream.send(value) }
    #expect(recorder.values.isEmpty)
    recorder.request(.max(3))
    expectEqual(recorder.values, [1, 2, 3])
    upstream.send(completion: .finished)
    expectEqual(recorder.events.last, .value(3))
    recorder.request(.max(1))
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .value(4)])
    recorder.request(.max(1))
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
  }

  @Test func dropNewestKeepsTheFirstValues() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .none)
    upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
    for value in 1...5 { upstream.send(value) }
    recorder.request(.max(5))
    expectEqual(recorder.values, [1, 2, 3])
  }

  @Test func dropOldestKeepsTheLastValues() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .none)
    upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
    for value in 1...5 { upstream.send(value) }
    recorder.request(.max(5))
    expectEqual(recorder.values, [3, 4, 5])
  }

  @Test func customErrorCancelsUpstreamAndFailsAfterRequestedValues() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .none)
    upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .customError { OpsMiscError(9) }).subscribe(recorder)
    for value in 1...5 { upstream.send(value) }
    #expect(upstream.isCancelled)
    expectEqual(recorder.events, [.subscription])
    recorder.request(.max(3))
    #expect(
      recorder.events == [.subscription, .value(1), .value(2), .value(3), .completion(.failure(OpsMiscError(9)))]
    )
  }

  @Test func upstreamFailureIsNotHeldBackByMissingDemand() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .none)
    upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(OpsMiscError(2)))
    expectEqual(recorder.events, [.subscription, .completion(.failure(OpsMiscError(2)))])
  }

  @Test func finishesAtOnceWhenEmptyWithDemand() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .max(1))
    upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
    upstream.send(completion: .finished)
    expectEqual(recorder.events, [.subscription, .completion(.finished)])
  }

  /// As in Combine, `.finished` with an empty buffer and no outstanding demand waits for the next
  /// request, under both prefetch strategies, also when the last buffered value used up the demand.
  @Test(arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest])
  func finishWithAnEmptyBufferWaitsForDemand(prefetch: Publishers.PrefetchStrategy) {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .max(2))
    upstream.buffer(size: 3, prefetch: prefetch, whenFull: .dropNewest).subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    expectEqual(recorder.values, [1, 2])
    upstream.send(completion: .finished)
    expectEqual(recorder.events, [.subscription, .value(1), .value(2)])
    recorder.request(.max(1))
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
  }

  /// With values still buffered, `.finished` waits for them, and then for a request with nothing left to deliver.
  @Test(arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest])
  func finishWithValuesBufferedWaitsUntilTheyAreDelivered(prefetch: Publishers.PrefetchStrategy) {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .none)
    upstream.buffer(size: 3, prefetch: prefetch, whenFull: .dropNewest).subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(recorder.events, [.subscription])
    recorder.request(.max(1))
    expectEqual(recorder.events, [.subscription, .value(1)])
    recorder.request(.max(1))
    expectEqual(recorder.events, [.subscription, .value(1), .value(2)])
    recorder.request(.max(1))
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
  }

  /// As in Combine, values that a finished upstream still sends are buffered and delivered before the
  /// finish; after a failure they are ignored.
  @Test func valuesAfterFinishedAreStillBuffered() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .none)
    upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(OpsMiscError(1)))
    expectEqual(upstream.send(1), .none)
    expectEqual(upstream.send(2), .none)
    expectEqual(recorder.events, [.subscription])
    recorder.request(.max(2))
    expectEqual(recorder.events, [.subscription, .value(1), .value(2)])
    recorder.request(.max(1))
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])

    let failing = Upstream()
    let other = Recorder(initialDemand: .none)
    failing.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest).subscribe(other)
    let otherSubscription = other.subscription
    failing.send(completion: .failure(OpsMiscError(1)))
    failing.send(1)
    otherSubscription?.request(.max(2))
    expectEqual(other.events, [.subscription, .completion(.failure(OpsMiscError(1)))])
  }

  /// As in Combine, a failure that arrives while buffered values are being delivered goes out before
  /// the next one, and the values that the demand already covered follow it.
  @Test func failureDuringDeliveryGoesFirstAndTheCoveredValuesFollow() {
    let upstream = Upstream()
    let recorder = Recorder(
      initialDemand: .none,
      onValue: { _, _ in
        upstream.send(completion: .failure(OpsMiscError(1)))
        return .max(5)
      }
    )
    upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
    let subscription = recorder.subscription
    for value in 1...5 { upstream.send(value) }
    recorder.request(.max(3))
    #expect(
      recorder.events == [.subscription, .value(1), .completion(.failure(OpsMiscError(1))), .value(2), .value(3)]
    )
    subscription?.request(.max(3))
    #expect(
      recorder.events == [.subscription, .value(1), .completion(.failure(OpsMiscError(1))), .value(2), .value(3)]
    )
  }

  /// As in Combine, a cancel before the upstream subscription arrives changes nothing: the subscription
  /// is asked for the prefetch demand, not cancelled.
  @Test(arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest])
  func cancelBeforeTheSubscriptionDoesNothing(prefetch: Publishers.PrefetchStrategy) {
    let upstream = SubscriberHolder<Int, OpsMiscError>()
    upstream.buffer(size: 2, prefetch: prefetch, whenFull: .dropNewest).subscribe(Recorder(initialDemand: .none))
    upstream.subscriberAsSubscription?.cancel()
    let subscription = TestSubscription()
    upstream.subscriber?.receive(subscription: subscription)
    expectEqual(subscription.requestedDemands, [prefetch == .keepFull ? .max(2) : .unlimited])
    #expect(!subscription.isCancelled)
  }

  @Test func synchronousSequenceIsDeliveredInOrder() {
    let recorder = TestSubscriber<Int, Never>()
    (1...10).publisher.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
    expectEqual(recorder.values, Array(1...10))
    expectEqual(recorder.events.last, .completion(.finished))
  }

  @Test func strategiesAreEquatable() {
    expectEqual(Publishers.PrefetchStrategy.keepFull, .keepFull)
    #expect(Publishers.PrefetchStrategy.keepFull != .byRequest)
    expectEqual(Set([Publishers.PrefetchStrategy.keepFull, .byRequest, .keepFull]).count, 2)
    let buffer = Just(1).buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest)
    expectEqual(buffer.size, 4)
    expectEqual(buffer.prefetch, .byRequest)
  }

  @Test func cancelCancelsUpstreamAndSilences() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .none)
    upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
    upstream.send(1)
    let subscription = recorder.subscription
    recorder.cancel()
    #expect(upstream.isCancelled)
    subscription?.request(.max(1))
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(recorder.events, [.subscription])
  }

  @Test func secondSubscriptionIsCancelled() {
    let upstream = Upstream()
    let recorder = Recorder()
    upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
    let extra = TestSubscription()
    upstream.send(subscription: extra)
    #expect(extra.isCancelled)
  }

  @Test func requestAndCancelFromInsideReceive() {
    let other = Upstream()
    let buffered = Recorder(
      initialDemand: .none,
      onValue: { buffered, value in
        if value < 3 { buffered.request(.max(1)) } else { buffered.cancel() }
        return .none
      }
    )
    other.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(buffered)
    for value in 1...5 { other.send(value) }
    buffered.request(.max(1))
    expectEqual(buffered.values, [1, 2, 3])
    #expect(other.isCancelled)
    expectEqual(other.requestedDemands, [.max(5)])
  }

  private static func whenFull(_ index: Int) -> Publishers.BufferingStrategy<OpsMiscError> {
    [.dropNewest, .dropOldest, .customError { OpsMiscError(9) }][index]
  }

  /// Combine accepts a request for `.none`, as the first request or from inside `receive(_:)`.
  @Test(arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest], 0..<3)
  func requestingNoneIsAccepted(prefetch: Publishers.PrefetchStrategy, whenFull: Int) {
    let upstream = Upstream()
    let recorder = Recorder(
      initialDemand: .none,
      onValue: { recorder, _ in
        recorder.request(.max(1))
        recorder.subscription?.request(.none)
        return .none
      }
    )
    upstream.buffer(size: 5, prefetch: prefetch, whenFull: Self.whenFull(whenFull)).subscribe(recorder)
    recorder.subscription?.request(.none)
    recorder.request(.max(3))
    for value in 0..<10 {
      expectEqual(upstream.send(value), (prefetch == .keepFull ? .max(1) : .none))
    }
    expectEqual(recorder.values, Array(0..<10))
    expectEqual(upstream.requestedDemands, [prefetch == .keepFull ? .max(5) : .unlimited])
  }

  /// After an overflow with a custom error, the drain that delivers the failure still refills the cancelled
  /// upstream with what it delivered, as Combine does.
  @Test func keepFullOverflowRefillsTheCancelledUpstreamOnce() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .none)
    upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .customError { OpsMiscError(9) }).subscribe(recorder)
    for value in 0..<10 { #expect(upstream.send(value) == .none) }
    expectEqual(upstream.cancelCount, 1)
    recorder.request(.max(3))
    recorder.request(.max(1))
    #expect(
      recorder.events == [.subscription, .value(0), .value(1), .value(2), .completion(.failure(OpsMiscError(9)))]
    )
    expectEqual(upstream.requestedDemands, [.max(5), .max(3)])
  }

  /// As in Combine, the subscription keeps its downstream after delivering the completion, also when
  /// cancelled afterwards.
  @Test func downstreamIsKeptAfterCompletion() {
    weak var weakRecorder: Recorder?
    var subscription: (any Subscription)?
    let upstream = Upstream()
    do {
      let recorder = Recorder(initialDemand: .unlimited)
      weakRecorder = recorder
      upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
      subscription = recorder.subscription
      upstream.send(completion: .failure(OpsMiscError(1)))
    }
    #expect(weakRecorder != nil)
    subscription?.cancel()
    #expect(weakRecorder != nil)
  }

  @Test func mirrorShowsValuesStateDemandAndTerminal() {
    let upstream = Upstream()
    let recorder = Recorder(initialDemand: .none)
    upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
    upstream.send(7)
    let mirror = Mirror(reflecting: recorder.subscription!)
    expectEqual(mirror.children.map(\.label), ["values", "state", "downstreamDemand", "terminal"])
    #expect(mirror.children.map { String(describing: $0.value) }[0] == "[7]")
    #expect(mirror.children.map { String(describing: $0.value) }[2] == "max(0)")
    #expect(mirror.children.map { String(describing: $0.value) }[3] == "nil")
  }

  @Test func sendFromInsideReceiveKeepsOrder() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .none,
      onValue: { _, value in
        if value == 1 { subject.send(3) }
        return .max(1)
      }
    )
    subject.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
    subject.send(1)
    subject.send(2)
    recorder.request(.max(1))
    expectEqual(recorder.values, [1, 2, 3])
  }

  @Test func releasedAfterCompletionAndAfterCancel() {
    let subject = PassthroughSubject<Int, Never>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        let subscription = recorder.subscription! as AnyObject
        recorder.request(.max(2))
        // The subscription keeps its downstream after the completion, as Combine's does; a subscriber that lets go
        // of its subscription on completion, as `sink` and TestSubscriber do, frees both.
        return [recorder, subscription]
      }
    )
    let other = PassthroughSubject<Int, Never>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
        other.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        other.send(1)
        let subscription = recorder.subscription! as AnyObject
        recorder.cancel()
        return [recorder, subscription]
      }
    )
  }

  /// A buffer of size 0 that keeps itself full asks its upstream for nothing, so an upstream that traps on a request
  /// for `.none`, such as `Just`, is never asked for one.
  @Test func aKeepFullBufferOfSizeZeroAsksForNothing() {
    let upstream = Upstream()
    let recorder = Recorder()
    upstream.buffer(size: 0, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
    #expect(upstream.requestedDemands.isEmpty)
    let cancellable = Just(1).buffer(size: 0, prefetch: .keepFull, whenFull: .dropNewest).sink { _ in }
    cancellable.cancel()
  }

  /// A negative size with `.keepFull` traps naming `size`, not blaming a subscriber's demand.
  @Test func negativeKeepFullSizeTrapsNamingTheSize() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let cancellable = [1, 2, 3].publisher.buffer(size: -1, prefetch: .keepFull, whenFull: .dropNewest).sink { _ in }
      cancellable.cancel()
    }.map { result in
      let text = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(text.contains("buffer(size:prefetch:whenFull:): size is -1"))
      #expect(!text.contains("a subscriber requested"))
    }
  }
}
