import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct FlatMapTests {
  typealias Source = TestPublisher<Int, CombiningError>
  typealias Child = TestPublisher<String, CombiningError>

  /// An upstream of child indices and the children they map to.
  private struct Pipeline {
    let upstream = Source()
    let children = (0..<4).map { _ in Child() }
    let recorder: TestSubscriber<String, CombiningError>

    init(maxPublishers: Subscribers.Demand = .unlimited, demand: Subscribers.Demand = .unlimited) {
      recorder = TestSubscriber(initialDemand: demand)
      let children = self.children
      upstream.flatMap(maxPublishers: maxPublishers) { children[$0] }.subscribe(recorder)
    }
  }

  @Test func valuesInterleaveAndFinishAfterUpstreamAndEveryChild() {
    let pipe = Pipeline()
    pipe.upstream.send(0)
    pipe.children[0].send("a1")
    pipe.upstream.send(1)
    pipe.children[1].send("b1")
    pipe.children[0].send("a2")
    pipe.children[0].send(completion: .finished)
    pipe.children[1].send("b2")
    pipe.upstream.send(completion: .finished)
    #expect(pipe.recorder.completions.isEmpty)
    pipe.children[1].send(completion: .finished)
    expectEqual(pipe.recorder.values, ["a1", "b1", "a2", "b2"])
    expectEqual(pipe.recorder.completion, .finished)
  }

  @Test func finishesWhenTheLastChildFinishesAfterUpstream() {
    let pipe = Pipeline()
    pipe.upstream.send(0)
    pipe.upstream.send(completion: .finished)
    #expect(pipe.recorder.completions.isEmpty)
    pipe.children[0].send(completion: .finished)
    expectEqual(pipe.recorder.completion, .finished)
  }

  @Test func finishesRightAwayWhenUpstreamFinishesWithNoChildren() {
    let pipe = Pipeline()
    pipe.upstream.send(completion: .finished)
    expectEqual(pipe.recorder.completion, .finished)
  }

  @Test func childCompletionsAreSwallowed() {
    let pipe = Pipeline()
    pipe.upstream.send(0)
    pipe.children[0].send(completion: .finished)
    pipe.upstream.send(1)
    pipe.children[1].send("b")
    expectEqual(pipe.recorder.values, ["b"])
    #expect(pipe.recorder.completions.isEmpty)
  }

  /// A child's failure cancels the other children and, unlike Combine, the upstream (an upstream left running can
  /// keep itself alive); as in Combine, a value a child still sends afterwards reaches downstream while there is
  /// demand.
  @Test func childFailureFailsAndCancelsTheOtherChildrenAndUpstream() {
    let pipe = Pipeline()
    pipe.upstream.send(0)
    pipe.upstream.send(1)
    pipe.children[1].send(completion: .failure(.boom))
    expectEqual(pipe.recorder.completion, .failure(.boom))
    #expect(pipe.children[0].isCancelled)
    #expect(!pipe.children[1].isCancelled)
    #expect(pipe.upstream.isCancelled)
    pipe.children[0].send("late")
    pipe.children[0].send(completion: .failure(.other))
    pipe.upstream.send(2)
    expectEqual(pipe.recorder.values, ["late"])
    expectEqual(pipe.recorder.completions.count, 1)
    expectEqual(pipe.children[2].subscriberCount, 0)
  }

  @Test func upstreamFailureFailsAndCancelsEveryChild() {
    let pipe = Pipeline()
    pipe.upstream.send(0)
    pipe.upstream.send(1)
    pipe.upstream.send(completion: .failure(.boom))
    expectEqual(pipe.recorder.completion, .failure(.boom))
    #expect(pipe.children[0].isCancelled)
    #expect(pipe.children[1].isCancelled)
    #expect(!pipe.upstream.isCancelled)
  }

  @Test func unlimitedMaxPublishersRequestsUnlimitedUpstream() {
    let pipe = Pipeline()
    expectEqual(pipe.upstream.requestedDemands, [.unlimited])
  }

  @Test func maxPublishersExertsBackpressure() {
    let pipe = Pipeline(maxPublishers: .max(2))
    expectEqual(pipe.upstream.requestedDemands, [.max(2)])
    expectEqual(pipe.upstream.send(0), .none)
    expectEqual(pipe.upstream.send(1), .none)
    expectEqual(pipe.upstream.requestedDemands, [.max(2)])
    pipe.children[1].send("b")
    pipe.children[1].send(completion: .finished)
    expectEqual(pipe.upstream.requestedDemands, [.max(2), .max(1)])
  }

  @Test func maxOnePublisherSerializesChildren() {
    let pipe = Pipeline(maxPublishers: .max(1))
    pipe.upstream.send(0)
    pipe.children[0].send("a")
    expectEqual(pipe.upstream.requestedDemands, [.max(1)])
    pipe.children[0].send(completion: .finished)
    expectEqual(pipe.upstream.requestedDemands, [.max(1), .max(1)])
    pipe.upstream.send(1)
    pipe.children[1].send("b")
    expectEqual(pipe.recorder.values, ["a", "b"])
  }

  @Test func maxOnePublisherKeepsSequenceOrder() {
    let recorder = TestSubscriber<Int, Never>()
    [3, 1, 2].publisher
      .flatMap(maxPublishers: .max(1)) { (1...$0).publisher }
      .subscribe(recorder)
    expectEqual(recorder.values, [1, 2, 3, 1, 1, 2])
    expectEqual(recorder.completion, .finished)
  }

  @Test func childrenAreAskedForOneValueAtATimeUnderFiniteDemand() {
    let pipe = Pipeline(demand: .max(1))
    pipe.upstream.send(0)
    expectEqual(pipe.children[0].requestedDemands, [.max(1)])
    expectEqual(pipe.children[0].send("a1"), .max(1))
    expectEqual(pipe.children[0].send("a2"), .none)
    expectEqual(pipe.recorder.values, ["a1"])
    pipe.recorder.request(.max(1))
    expectEqual(pipe.recorder.values, ["a1", "a2"])
    expectEqual(pipe.children[0].requestedDemands, [.max(1), .max(1)])
  }

  @Test func queuedValuesFromSeveralChildrenDrainInArrivalOrder() {
    let pipe = Pipeline(demand: .none)
    pipe.upstream.send(0)
    pipe.upstream.send(1)
    pipe.children[1].send("b1")
    pipe.children[0].send("a1")
    pipe.children[0].send(completion: .finished)
    pipe.upstream.send(completion: .finished)
    #expect(pipe.recorder.values.isEmpty)
    pipe.recorder.request(.max(1))
    expectEqual(pipe.recorder.values, ["b1"])
    expectEqual(pipe.children[1].requestedDemands, [.max(1), .max(1)])
    pipe.recorder.request(.max(5))
    expectEqual(pipe.recorder.values, ["b1", "a1"])
    #expect(pipe.recorder.completions.isEmpty)
    pipe.children[1].send(completion: .finished)
    expectEqual(pipe.recorder.completion, .finished)
  }

  @Test func unlimitedDownstreamDemandUpgradesChildren() {
    let pipe = Pipeline(demand: .max(1))
    pipe.upstream.send(0)
    pipe.recorder.request(.unlimited)
    expectEqual(pipe.children[0].requestedDemands, [.max(1), .unlimited])
    pipe.upstream.send(1)
    expectEqual(pipe.children[1].requestedDemands, [.unlimited])
    expectEqual(pipe.children[1].send("b"), .none)
  }

  @Test func queuedValuesReachDownstreamBeforeTheChildrenAreAskedForUnlimitedDemand() {
    let pipe = Pipeline(demand: .none)
    let children = pipe.children
    var demandsSeenOnDelivery: [[Subscribers.Demand]] = []
    pipe.recorder.onValue = { _, _ in
      demandsSeenOnDelivery.append(children[0].requestedDemands)
      return .none
    }
    pipe.upstream.send(0)
    pipe.children[0].send("a1")
    pipe.recorder.request(.unlimited)
    expectEqual(pipe.recorder.values, ["a1"])
    expectEqual(demandsSeenOnDelivery, [[.max(1)]])
    expectEqual(pipe.children[0].requestedDemands, [.max(1), .unlimited])
  }

  @Test func cancelOnAQueuedValueLeavesTheChildrenUnaskedForUnlimitedDemand() {
    let pipe = Pipeline(demand: .none)
    let recorder = pipe.recorder
    pipe.recorder.onValue = { _, _ in
      recorder.cancel()
      return .none
    }
    pipe.upstream.send(0)
    pipe.children[0].send("a1")
    recorder.request(.unlimited)
    expectEqual(recorder.values, ["a1"])
    #expect(pipe.children[0].isCancelled)
    expectEqual(pipe.children[0].requestedDemands, [.max(1)])
  }

  @Test func aSubscriberThatStopsAtAQueuedValueDoesNotDrainASynchronousChild() {
    final class Counter: @unchecked Sendable {
      // SAFETY: single-threaded test only.
      var produced = 0
    }
    let counter = Counter()
    let upstream = TestPublisher<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .none,
      onValue: { subscriber, _ in
        subscriber.cancel()
        return .none
      }
    )
    upstream.flatMap { _ in
      (1...1000).publisher.handleEvents(receiveOutput: { _ in counter.produced += 1 })
    }.subscribe(recorder)
    upstream.send(0)
    expectEqual(counter.produced, 1)
    recorder.request(.unlimited)
    expectEqual(recorder.values, [1])
    expectEqual(counter.produced, 1)
  }

  @Test func cancelCancelsUpstreamAndChildrenAndSilencesDownstream() {
    let pipe = Pipeline()
    pipe.upstream.send(0)
    pipe.upstream.send(1)
    pipe.recorder.cancel()
    #expect(pipe.upstream.isCancelled)
    #expect(pipe.children[0].isCancelled)
    #expect(pipe.children[1].isCancelled)
    pipe.children[0].send("late")
    pipe.upstream.send(2)
    pipe.children[1].send(completion: .failure(.boom))
    pipe.upstream.send(completion: .finished)
    #expect(pipe.recorder.values.isEmpty)
    #expect(pipe.recorder.completions.isEmpty)
    expectEqual(pipe.children[2].subscriberCount, 0)
  }

  @Test func secondUpstreamSubscriptionIsCancelled() {
    let extra = TestSubscription()
    let recorder = TestSubscriber<String, CombiningError>()
    TwiceSubscribingPublisher(extra: extra).flatMap { _ in Child() }.subscribe(recorder)
    #expect(extra.isCancelled)
    #expect(recorder.completions.isEmpty)
  }

  @Test func requestFromInsideReceiveDeliversQueuedValuesInOrder() {
    let pipe = Pipeline(demand: .max(1))
    pipe.recorder.onValue = { _, _ in .max(1) }
    pipe.upstream.send(0)
    pipe.upstream.send(1)
    pipe.children[0].send("a")
    pipe.children[1].send("b")
    expectEqual(pipe.recorder.values, ["a", "b"])
  }

  @Test func cancelFromInsideReceiveStopsEverything() {
    let pipe = Pipeline(demand: .none)
    let recorder = pipe.recorder
    pipe.recorder.onValue = { _, _ in
      recorder.cancel()
      return .max(5)
    }
    pipe.upstream.send(0)
    pipe.upstream.send(1)
    pipe.children[0].send("a")
    pipe.children[1].send("b")
    recorder.request(.max(2))
    expectEqual(recorder.values, ["a"])
    #expect(pipe.children[1].isCancelled)
    #expect(pipe.upstream.isCancelled)
    #expect(recorder.completions.isEmpty)
  }

  /// As in Combine, a value sent from inside `receive(_:)` that finds demand is delivered at once, nested in that
  /// call.
  @Test func sendFromInsideReceiveIsDeliveredNested() {
    let pipe = Pipeline()
    let children = pipe.children
    var log: [String] = []
    pipe.recorder.onValue = { _, value in
      log.append("enter \(value)")
      if value == "a1" { children[1].send("b1") }
      if value == "b1" { children[0].send("a2") }
      log.append("leave \(value)")
      return .none
    }
    pipe.upstream.send(0)
    pipe.upstream.send(1)
    pipe.children[0].send("a1")
    expectEqual(pipe.recorder.values, ["a1", "b1", "a2"])
    expectEqual(log, ["enter a1", "enter b1", "enter a2", "leave a2", "leave b1", "leave a1"])
    expectEqual(pipe.recorder.overlappingDeliveries, 2)
  }

  /// As in Combine, a failure from inside `receive(_:)` is delivered at once, nested in that call, after the other
  /// children and the upstream are cancelled.
  @Test func failureFromInsideReceiveIsDeliveredNested() {
    let pipe = Pipeline()
    let children = pipe.children
    var log: [String] = []
    pipe.recorder.onValue = { _, value in
      children[1].send(completion: .failure(.boom))
      log.append("leave \(value)")
      return .none
    }
    pipe.recorder.onCompletion = { _, _ in log.append("failure") }
    pipe.upstream.send(0)
    pipe.upstream.send(1)
    pipe.children[0].send("a")
    expectEqual(log, ["failure", "leave a"])
    expectEqual(pipe.recorder.values, ["a"])
    expectEqual(pipe.recorder.completion, .failure(.boom))
    #expect(pipe.children[0].isCancelled)
    #expect(pipe.upstream.isCancelled)
  }

  @Test func synchronousChildren() {
    let recorder = TestSubscriber<Int, Never>()
    (1...3).publisher.flatMap { Just($0 * 10) }.subscribe(recorder)
    expectEqual(recorder.values, [10, 20, 30])
    expectEqual(recorder.completion, .finished)
  }

  @Test func synchronousChildrenUnderLimitedDemand() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(2))
    (1...3).publisher.flatMap { (0..<$0).publisher }.subscribe(recorder)
    expectEqual(recorder.values, [0, 0])
    recorder.request(.max(10))
    expectEqual(recorder.values, [0, 0, 1, 0, 1, 2])
    expectEqual(recorder.completion, .finished)
  }

  @Test func everyFailureCombinationTypeChecks() {
    let never = PassthroughSubject<Int, Never>()
    let failing = PassthroughSubject<Int, CombiningError>()
    let bothNever: Publishers.FlatMap<Just<Int>, PassthroughSubject<Int, Never>> = never.flatMap { Just($0) }
    let same: Publishers.FlatMap<Fail<Int, CombiningError>, PassthroughSubject<Int, CombiningError>> =
      failing.flatMap { _ in Fail<Int, CombiningError>(error: .boom) }
    let upstreamNever:
      Publishers.FlatMap<
        Fail<Int, CombiningError>, Publishers.SetFailureType<PassthroughSubject<Int, Never>, CombiningError>
      > = never.flatMap(maxPublishers: .max(2)) { _ in Fail<Int, CombiningError>(error: .boom) }
    let innerNever:
      Publishers.FlatMap<
        Publishers.SetFailureType<Just<Int>, CombiningError>, PassthroughSubject<Int, CombiningError>
      > = failing.flatMap { Just($0) }
    expectEqual(bothNever.maxPublishers, .unlimited)
    expectEqual(same.maxPublishers, .unlimited)
    expectEqual(upstreamNever.maxPublishers, .max(2))
    expectEqual(innerNever.maxPublishers, .unlimited)
  }

  @Test func upstreamThatNeverFailsWithFailingChildren() {
    let upstream = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, CombiningError>()
    upstream.flatMap { value -> AnyPublisher<Int, CombiningError> in
      value < 0
        ? Fail(error: .boom).eraseToAnyPublisher()
        : Just(value).setFailureType(to: CombiningError.self)
          .eraseToAnyPublisher()
    }.subscribe(recorder)
    upstream.send(1)
    upstream.send(-1)
    upstream.send(2)
    expectEqual(recorder.values, [1])
    expectEqual(recorder.completion, .failure(.boom))
  }

  @Test func childrenThatNeverFailUnderAFailingUpstream() {
    let upstream = PassthroughSubject<Int, CombiningError>()
    let recorder = TestSubscriber<Int, CombiningError>()
    upstream.flatMap { Just($0 * 2) }.subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(.other))
    expectEqual(recorder.values, [2])
    expectEqual(recorder.completion, .failure(.other))
  }

  @Test func releasesThePipelineAfterCompletion() {
    weak var weakRecorder: TestSubscriber<String, CombiningError>?
    weak var weakChild: Child?
    do {
      let upstream = Source()
      let child = Child()
      let recorder = TestSubscriber<String, CombiningError>()
      weakRecorder = recorder
      weakChild = child
      upstream.flatMap { _ in child }.subscribe(recorder)
      upstream.send(0)
      child.send("a")
      child.send(completion: .finished)
      upstream.send(completion: .finished)
      child.releaseSubscribers()
      upstream.releaseSubscribers()
    }
    #expect(weakRecorder == nil)
    #expect(weakChild == nil)
  }

  @Test func releasesThePipelineAfterCancel() {
    weak var weakRecorder: TestSubscriber<String, CombiningError>?
    weak var weakSubscription: AnyObject?
    do {
      let upstream = Source()
      let child = Child()
      let recorder = TestSubscriber<String, CombiningError>()
      weakRecorder = recorder
      upstream.flatMap { _ in child }.subscribe(recorder)
      weakSubscription = recorder.subscription as AnyObject?
      upstream.send(0)
      recorder.cancel()
      child.releaseSubscribers()
      upstream.releaseSubscribers()
    }
    #expect(weakRecorder == nil)
    #expect(weakSubscription == nil)
  }

  @Test(.tags(.stress)) func concurrentChildrenLoseNothingAndNeverOverlap() {
    let producers = 4
    let perProducer = 2_000
    let upstream = PassthroughSubject<Int, Never>()
    let children = (0..<producers).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = TestSubscriber<Int, Never>()
    upstream.flatMap { children[$0] }.subscribe(recorder)
    for index in 0..<producers { upstream.send(index) }
    combiningConcurrently(producers) { producer in
      for value in 0..<perProducer { children[producer].send(producer * 1_000_000 + value) }
    }
    expectEqual(recorder.overlappingDeliveries, 0)
    expectEqual(recorder.values.count, producers * perProducer)
    for producer in 0..<producers {
      let mine = recorder.values.filter { $0 / 1_000_000 == producer }.map { $0 % 1_000_000 }
      expectEqual(mine, Array(0..<perProducer))
    }
  }

  /// Children sending from several threads while one of them fails: downstream is never called twice at
  /// once, sees the one failure, never more values than it asked for, and each child's values in order.
  @Test(.tags(.stress)) func childFailureRacingWithValuesFromManyThreads() {
    for _ in 0..<20 {
      let upstream = PassthroughSubject<Int, CombiningError>()
      let children = (0..<4).map { _ in PassthroughSubject<Int, CombiningError>() }
      let recorder = TestSubscriber<Int, CombiningError>(initialDemand: .max(300))
      upstream.flatMap { children[$0] }.subscribe(recorder)
      for index in 0..<4 { upstream.send(index) }
      combiningConcurrently(4) { producer in
        for value in 0..<200 {
          if producer == 0, value == 100 { children[0].send(completion: .failure(.boom)) }
          children[producer].send(producer * 1_000_000 + value)
        }
      }
      expectEqual(recorder.overlappingDeliveries, 0)
      expectEqual(recorder.completions, [.failure(.boom)])
      #expect(recorder.values.count <= 300)
      for producer in 0..<4 {
        let mine = recorder.values.filter { $0 / 1_000_000 == producer }
        expectEqual(mine, mine.sorted())
      }
    }
  }
}

/// A publisher that hands its subscriber two subscriptions, the second of which must be cancelled.
private struct TwiceSubscribingPublisher: Publisher {
  typealias Output = Int
  typealias Failure = CombiningError

  let extra: TestSubscription

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == CombiningError {
    subscriber.receive(subscription: TestSubscription())
    subscriber.receive(subscription: extra)
  }
}

@Suite struct FlatMapCombineFidelityTests {
  /// As in Combine, `maxPublishers: .none` is requested from upstream as it is.
  @Test func maxPublishersOfNoneIsRequested() {
    let upstream = TestPublisher<Int, Never>()
    upstream.flatMap(maxPublishers: .none) { Just($0) }.subscribe(TestSubscriber<Int, Never>(initialDemand: .none))
    expectEqual(upstream.requestedDemands, [.none])
  }

  /// As the flatMap pages say: with `maxPublishers: .max(0)`, an upstream that accepts a request of `.none` sends
  /// nothing, so no new publisher is ever created or subscribed, and the result neither publishes nor finishes.
  @Test func maxPublishersOfZeroStalls() {
    var transformed = 0
    let recorder = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.flatMap(maxPublishers: .max(0)) { value -> Just<Int> in
      transformed += 1
      return Just(value)
    }.subscribe(recorder)
    expectEqual(transformed, 0)
    expectEqual(recorder.eventDescriptions, ["subscription"])
  }

  /// As in Combine, the subscriber given to the upstream shares the subscription's identifier and empty
  /// mirror, and each child's subscriber names it as its parent.
  @Test func outerSubscriberIsTheSubscriptionsFace() throws {
    let outer = SubscriberHolder<Int, Never>()
    let child = SubscriberHolder<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    outer.flatMap { _ in child }.subscribe(recorder)
    try #require(outer.subscriber).receive(subscription: TestSubscription())
    _ = try #require(outer.subscriber).receive(0)
    let outerSubscriber = try #require(outer.rawSubscriber as? any Subscriber)
    let subscription = try #require(recorder.subscription)
    expectEqual(outerSubscriber.combineIdentifier, subscription.combineIdentifier)
    expectEqual((outerSubscriber as? any CustomReflectable)?.customMirror.children.isEmpty, true)
    #expect(Mirror(reflecting: subscription).children.isEmpty)
    let childMirror = (child.rawSubscriber! as? any CustomReflectable)?.customMirror
    expectEqual(childMirror?.children.first?.label, "parentSubscription")
    expectEqual(childMirror?.children.first?.value as? CombineIdentifier, outerSubscriber.combineIdentifier)
  }

  /// As in Combine, a value another child sends while one is being delivered, and that demand covers, is
  /// delivered nested and its child gets `.max(1)` back, and is not asked again later.
  @Test func valueSentDuringADeliveryIsDeliveredNestedAndPaidForAtOnce() {
    let upstream = TestPublisher<Int, CombiningError>()
    let children = (0..<2).map { _ in TestPublisher<String, CombiningError>() }
    let recorder = TestSubscriber<String, CombiningError>(initialDemand: .max(2))
    upstream.flatMap { children[$0] }.subscribe(recorder)
    upstream.send(0)
    upstream.send(1)
    recorder.onValue = { _, value in
      if value == "a" { #expect(children[1].send("b") == .max(1)) }
      return .none
    }
    expectEqual(children[0].send("a"), .max(1))
    expectEqual(recorder.values, ["a", "b"])
    expectEqual(recorder.overlappingDeliveries, 1)
    expectEqual(children[0].requestedDemands, [.max(1)])
    expectEqual(children[1].requestedDemands, [.max(1)])
  }

  /// As in Combine, a value a child sends from inside downstream's failure handler is delivered after the
  /// failure while demand remains, and the child is neither cancelled nor asked for more (the outer upstream is
  /// cancelled, unlike in Combine).
  @Test func valueSentFromTheFailureHandlerIsDeliveredAfterIt() {
    let upstream = TestPublisher<Int, OpsMiscError>()
    let child = TestPublisher<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, OpsMiscError>(
      initialDemand: .max(5),
      onCompletion: { _, _ in child.send(1) }
    )
    upstream.flatMap(maxPublishers: .max(1)) { _ in child }.subscribe(recorder)
    upstream.send(0)
    child.send(completion: .failure(OpsMiscError()))
    expectEqual(recorder.events, [.subscription, .completion(.failure(OpsMiscError(1))), .value(1)])
    expectEqual(upstream.requestedDemands, [.max(1)])
    #expect(upstream.isCancelled)
    expectEqual(child.requestedDemands, [.max(1)])
    #expect(!child.isCancelled)
  }

  /// After the completion, a child's value reaches downstream only within the demand left; as in Combine, a
  /// request after the completion adds none.
  @Test func valuesAfterTheCompletionNeedDemand() {
    let upstream = TestPublisher<Int, OpsMiscError>()
    let child = TestPublisher<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .max(1))
    upstream.flatMap { _ in child }.subscribe(recorder)
    let subscription = recorder.subscription
    upstream.send(0)
    upstream.send(completion: .failure(OpsMiscError()))
    expectEqual(child.send(1), .max(1))
    expectEqual(child.send(2), .none)
    subscription?.request(.max(1))
    expectEqual(child.send(3), .none)
    expectEqual(recorder.events, [.subscription, .completion(.failure(OpsMiscError(1))), .value(1)])
  }

  /// As in Combine, each finish of a child asks a bounded outer upstream for one more publisher, also a
  /// finish the child repeats.
  @Test func repeatedChildFinishAsksTheBoundedOuterForMore() {
    let upstream = TestPublisher<Int, OpsMiscError>()
    let child = TestPublisher<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .none)
    upstream.flatMap(maxPublishers: .max(1)) { _ in child }.subscribe(recorder)
    upstream.send(0)
    child.send(completion: .finished)
    child.send(completion: .finished)
    expectEqual(upstream.requestedDemands, [.max(1), .max(1), .max(1)])
    expectEqual(recorder.events, [.subscription])
  }

  /// As in Combine, the outer upstream's finish counts before its subscription; a subscription that
  /// follows is cancelled.
  @Test func outerFinishBeforeSubscriptionFinishes() throws {
    let outer = SubscriberHolder<Int, Never>()
    let recorder = TestSubscriber<Int, Never>()
    outer.flatMap { Just($0) }.subscribe(recorder)
    try #require(outer.subscriber).receive(completion: .finished)
    expectEqual(recorder.events, [.subscription, .completion(.finished)])
    let late = TestSubscription()
    try #require(outer.subscriber).receive(subscription: late)
    #expect(late.isCancelled)
  }

  /// A child's failure cancels the upstream, so the pipeline is freed although the upstream lives on and never
  /// completes.
  @Test func releasedAfterAChildFailsWhileTheUpstreamLivesOn() {
    let upstream = PassthroughSubject<Int, CombiningError>()
    weak var weakRecorder: TestSubscriber<String, CombiningError>?
    weak var weakSubscription: AnyObject?
    do {
      let child = PassthroughSubject<String, CombiningError>()
      let recorder = TestSubscriber<String, CombiningError>()
      weakRecorder = recorder
      upstream.flatMap { _ in child }.subscribe(recorder)
      weakSubscription = recorder.subscription as AnyObject?
      upstream.send(0)
      child.send(completion: .failure(.boom))
      expectEqual(recorder.completions, [.failure(.boom)])
    }
    #expect(weakRecorder == nil)
    #expect(weakSubscription == nil)
  }
}
