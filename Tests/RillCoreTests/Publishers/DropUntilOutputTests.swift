import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct DropUntilOutputTests {
  private func subscribe(
    initialDemand: Subscribers.Demand = .unlimited
  ) -> (TransformUpstream, TransformUpstream, TestSubscriber<Int, TransformTestError>) {
    let upstream = TransformUpstream()
    let other = TransformUpstream()
    let subscriber = TestSubscriber<Int, TransformTestError>(initialDemand: initialDemand)
    upstream.drop(untilOutputFrom: other).subscribe(subscriber)
    return (upstream, other, subscriber)
  }

  @Test func dropsUntilTheOtherPublisherEmits() {
    let (upstream, other, subscriber) = subscribe()
    upstream.send(1)
    other.send(0)
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(2)", "finished"])
    expectEqual(other.requestedDemands, [.max(1)])
    // Unlike Combine, which lets go of it without a cancel, the other publisher's subscription is cancelled once it
    // delivered: a subject's subscription would keep the subject alive.
    expectEqual(other.cancelCount, 1)
  }

  /// As in Combine, once the other publisher has delivered, its subscriber takes a new subscription (and
  /// asks it for one value); a second one while the first is live is cancelled.
  @Test func theOtherSubscriberTakesANewSubscriptionAfterTheTrigger() throws {
    let other = SubscriberHolder<Int, TransformTestError>()
    let subscriber = TestSubscriber<Int, TransformTestError>()
    TransformUpstream().drop(untilOutputFrom: other).subscribe(subscriber)
    let first = TestSubscription()
    let second = TestSubscription()
    let third = TestSubscription()
    let trigger = try #require(other.subscriber)
    trigger.receive(subscription: first)
    trigger.receive(subscription: second)
    #expect(second.isCancelled)
    expectEqual(trigger.receive(0), .none)
    trigger.receive(subscription: third)
    expectEqual(third.requestedDemands, [.max(1)])
    subscriber.cancel()
    #expect(third.isCancelled)
    expectEqual(first.requestedDemands, [.max(1)])
    expectEqual(first.cancelCount, 1)
  }

  /// As in Combine, the subscriber given to the other publisher shares the subscription's identifier,
  /// description and (empty) mirror.
  @Test func theOtherSubscriberLooksLikeTheSubscription() throws {
    let upstream = SubscriberHolder<Int, TransformTestError>()
    let other = SubscriberHolder<Int, TransformTestError>()
    upstream.drop(untilOutputFrom: other).subscribe(TestSubscriber<Int, TransformTestError>())
    let inner = try #require(upstream.rawSubscriber as? any Subscriber)
    let trigger = try #require(other.rawSubscriber as? any Subscriber)
    expectEqual(inner.combineIdentifier, trigger.combineIdentifier)
    for subscriber in [inner, trigger] {
      expectEqual((subscriber as? any CustomStringConvertible)?.description, "DropUntilOutput")
      #expect(
        (subscriber as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "DropUntilOutput"
      )
      expectEqual((subscriber as? any CustomReflectable)?.customMirror.children.isEmpty, true)
    }
  }

  @Test func upstreamFailurePassesAndCancelsTheOther() {
    let (upstream, other, subscriber) = subscribe()
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(upstream)"])
    #expect(other.isCancelled)
  }

  @Test func otherCompletingFirstEndsTheStream() {
    let (upstream, other, subscriber) = subscribe()
    other.send(completion: .failure(.thrown))
    upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(thrown)"])
    #expect(upstream.isCancelled)
    let (upstream2, other2, subscriber2) = subscribe()
    other2.send(completion: .finished)
    expectEqual(subscriber2.eventDescriptions, ["subscription", "finished"])
    #expect(upstream2.isCancelled)
  }

  @Test func otherCompletingAfterTheTriggerChangesNothing() {
    let (upstream, other, subscriber) = subscribe()
    other.send(0)
    other.send(completion: .failure(.thrown))
    upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)"])
  }

  @Test func droppedElementsUseUpDemand() {
    let (upstream, other, subscriber) = subscribe(initialDemand: .max(2))
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .none)
    other.send(0)
    upstream.send(2)
    subscriber.request(.max(3))
    expectEqual(upstream.requestedDemands, [.max(2), .max(3)])
  }

  @Test func subscribesToTheOtherPublisherFirst() {
    var order: [String] = []
    let upstream = Deferred { () -> TransformUpstream in
      order.append("upstream")
      return TransformUpstream()
    }
    let other = Deferred { () -> TransformUpstream in
      order.append("other")
      return TransformUpstream()
    }
    upstream.drop(untilOutputFrom: other).subscribe(TestSubscriber<Int, TransformTestError>())
    expectEqual(order, ["other", "upstream"])
  }

  @Test func cancelCancelsBoth() {
    let (upstream, other, subscriber) = subscribe()
    subscriber.cancel()
    #expect(upstream.isCancelled && other.isCancelled)
    other.send(0)
    upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  /// Combine accepts a request for `.none`, here made before the upstream has subscribed and added to what it is
  /// asked for once it does.
  @Test func requestForNoneBeforeTheUpstreamSubscribesIsAccepted() {
    let upstream = SubscriberHolder<Int, TransformTestError>()
    let subscriber = TestSubscriber<Int, TransformTestError>(
      initialDemand: .none,
      onSubscription: { _, subscription in
        subscription.request(.max(10))
        subscription.request(.max(4))
        subscription.request(.none)
      }
    )
    upstream.drop(untilOutputFrom: Empty<Int, TransformTestError>(completeImmediately: false)).subscribe(subscriber)
    let late = TestSubscription()
    upstream.send(subscription: late)
    expectEqual(late.requestedDemands, [.max(14)])
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  /// When the other publisher finishes before the upstream has subscribed, a late upstream subscription
  /// is still asked for the demand requested so far, as in Combine (`DropUntilOutputTests.testLateSubscription` of
  /// its behaviour suite), while downstream, which already has its completion, hears nothing more; a cancel still
  /// reaches the subscription, and a second one is cancelled.
  @Test func lateUpstreamSubscriptionAfterTheOtherFinishedGetsThePendingDemand() throws {
    let upstream = SubscriberHolder<Int, TransformTestError>()
    let subscriber = TestSubscriber<Int, TransformTestError>(
      initialDemand: .none,
      onSubscription: { _, subscription in
        subscription.request(.max(10))
        subscription.request(.max(4))
        subscription.request(.none)
      }
    )
    upstream.drop(untilOutputFrom: Empty<Int, TransformTestError>()).subscribe(subscriber)
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished"])
    let late = TestSubscription()
    upstream.send(subscription: late)
    expectEqual(late.requestedDemands, [.max(14)])
    #expect(!late.isCancelled)
    let second = TestSubscription()
    upstream.send(subscription: second)
    #expect(second.isCancelled && second.requestedDemands.isEmpty)
    try #require(upstream.subscriberAsSubscription).cancel()
    #expect(late.isCancelled)
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished"])
  }

  /// As in Combine, the two publishers are followed apart: once the other publisher has finished the stream, a late
  /// upstream's values are still dropped (no trigger came), but its completion reaches downstream too.
  @Test func lateUpstreamCompletionAfterTheOtherFinishedReachesDownstream() {
    let upstream = SubscriberHolder<Int, TransformTestError>()
    let subscriber = TestSubscriber<Int, TransformTestError>()
    upstream.drop(untilOutputFrom: Empty<Int, TransformTestError>()).subscribe(subscriber)
    upstream.send(subscription: TestSubscription())
    expectEqual(upstream.send(1), .none)
    upstream.send(completion: .failure(.upstream))
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished", "failure(upstream)"])
  }

  /// As in Combine (`DropUntilOutputTests.testOtherCompletesBeforeTriggering` of its behaviour suite): each completion
  /// of the other publisher before its value reaches downstream, upstream is cancelled once, and a value from the
  /// other publisher even after its completion opens the gate for upstream's values.
  @Test func otherCompletionsBeforeTheTriggerEachReachDownstream() {
    let upstream = TestPublisher<Int, TransformTestError>()
    let other = TestPublisher<Int, TransformTestError>()
    let subscriber = TestSubscriber<Int, TransformTestError>(initialDemand: .max(100), demandPerValue: .max(5))
    upstream.drop(untilOutputFrom: other).subscribe(subscriber)
    expectEqual(upstream.send(1), .none)
    other.send(completion: .finished)
    other.send(completion: .failure(.thrown))
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished", "failure(thrown)"])
    expectEqual(upstream.requestedDemands, [.max(100)])
    expectEqual(upstream.cancelCount, 1)
    #expect(other.requestedDemands == [.max(1)] && !other.isCancelled)
    expectEqual(upstream.send(2), .none)
    expectEqual(other.send(0), .none)
    expectEqual(upstream.send(3), .max(5))
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished", "failure(thrown)", "value(3)"])
    expectEqual(upstream.cancelCount, 1)
    #expect(!other.isCancelled)
  }

  /// As in Combine (`testDropUntilOutputReceiveCompletionBeforeSubscription`): when the other publisher finishes at
  /// once, an upstream completion before upstream's subscription still reaches downstream; only the first one does.
  @Test func upstreamCompletionBeforeItsSubscriptionAfterTheOtherFinishedReachesDownstream() {
    let upstream = SubscriberHolder<Int, TransformTestError>()
    let subscriber = TestSubscriber<Int, TransformTestError>()
    upstream.drop(untilOutputFrom: Empty<Int, TransformTestError>()).subscribe(subscriber)
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished", "finished"])
    let late = TestSubscription()
    upstream.send(subscription: late)
    #expect(late.isCancelled && late.requestedDemands.isEmpty)
  }

  /// As in Combine (`testDropUntilOutputOtherReceiveCompletionBeforeSubscription`): once upstream has finished the
  /// stream, a completion from the other publisher, even before its subscription, still reaches downstream.
  @Test func otherCompletionAfterUpstreamFinishedReachesDownstream() throws {
    let other = SubscriberHolder<Int, TransformTestError>()
    let subscriber = TestSubscriber<Int, TransformTestError>()
    Empty<Int, TransformTestError>().drop(untilOutputFrom: other).subscribe(subscriber)
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished"])
    try #require(other.subscriber).receive(completion: .failure(.thrown))
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished", "failure(thrown)"])
  }

  /// After a cancel nothing reaches downstream, from either publisher; upstream's completion is passed on once.
  @Test func nothingReachesDownstreamAfterACancel() throws {
    let upstream = TestPublisher<Int, TransformTestError>()
    let other = TestPublisher<Int, TransformTestError>()
    let subscriber = TestSubscriber<Int, TransformTestError>()
    upstream.drop(untilOutputFrom: other).subscribe(subscriber)
    other.send(0)
    try #require(subscriber.subscription).cancel()
    expectEqual(upstream.send(1), .none)
    other.send(completion: .finished)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    let upstream2 = TestPublisher<Int, TransformTestError>()
    let other2 = TestPublisher<Int, TransformTestError>()
    let subscriber2 = TestSubscriber<Int, TransformTestError>()
    upstream2.drop(untilOutputFrom: other2).subscribe(subscriber2)
    other2.send(0)
    upstream2.send(completion: .finished)
    upstream2.send(completion: .finished)
    expectEqual(subscriber2.eventDescriptions, ["subscription", "finished"])
  }

  /// What reaches downstream after the end of the stream does so only while something else keeps downstream: the
  /// operator holds it weakly from then on.
  @Test func afterTheEndDownstreamIsReachedOnlyWhileSomethingElseKeepsIt() {
    let upstream = TestPublisher<Int, TransformTestError>()
    let other = TestPublisher<Int, TransformTestError>()
    weak var weakSubscriber: TestSubscriber<Int, TransformTestError>?
    do {
      let subscriber = TestSubscriber<Int, TransformTestError>()
      upstream.drop(untilOutputFrom: other).subscribe(subscriber)
      weakSubscriber = subscriber
      other.send(completion: .finished)
      expectEqual(subscriber.eventDescriptions, ["subscription", "finished"])
    }
    #expect(weakSubscriber == nil)
    other.send(0)
    expectEqual(upstream.send(1), .none)
    upstream.send(completion: .finished)
  }

  /// A completion from upstream before its subscription reaches downstream, which has its subscription
  /// already, as in Combine, and ends the stream: the other publisher is cancelled and a later subscription too.
  @Test func upstreamCompletionBeforeItsSubscriptionEndsTheStream() throws {
    let upstream = SubscriberHolder<Int, TransformTestError>()
    let other = TransformUpstream()
    let subscriber = TestSubscriber<Int, TransformTestError>()
    upstream.drop(untilOutputFrom: other).subscribe(subscriber)
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(upstream)"])
    #expect(other.isCancelled)
    let late = TestSubscription()
    upstream.send(subscription: late)
    #expect(late.isCancelled && late.requestedDemands.isEmpty)
  }

  @Test func isEquatable() {
    let publisher = Publishers.DropUntilOutput(upstream: Just(1), other: Just(2))
    expectEqual(publisher, Publishers.DropUntilOutput(upstream: Just(1), other: Just(2)))
    #expect(publisher != Publishers.DropUntilOutput(upstream: Just(1), other: Just(3)))
  }

  @Test func contract() {
    transformContract { $0.drop(untilOutputFrom: Just(0).setFailureType(to: TransformTestError.self)) }
  }

  @Test func memoryWithAPendingOther() {
    weak var weakSubscriber: TestSubscriber<Int, TransformTestError>?
    do {
      let (upstream, _, subscriber) = subscribe()
      weakSubscriber = subscriber
      upstream.send(completion: .finished)
    }
    #expect(weakSubscriber == nil)
  }

  /// Whatever ends the stream lets go of downstream and of the other publisher's subscription, so a
  /// downstream that leads back to the other publisher is not kept alive by it (the leak that reverted 424ae8e).
  @Test func pipelineIsFreedAfterTheTriggerAndUpstreamsCompletion() {
    expectUntilOutputPipelineFreed(.drop) { upstream, other, subscriber in
      other.send(0)
      upstream.send(1)
      upstream.send(completion: .finished)
      expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
      #expect(other.isCancelled)
    }
  }

  @Test func pipelineIsFreedAfterUpstreamFailsBeforeTheTrigger() {
    expectUntilOutputPipelineFreed(.drop) { upstream, _, subscriber in
      upstream.send(completion: .failure(.upstream))
      expectEqual(subscriber.eventDescriptions, ["subscription", "failure(upstream)"])
    }
  }

  @Test func pipelineIsFreedAfterTheOtherPublisherFails() {
    expectUntilOutputPipelineFreed(.drop) { upstream, other, subscriber in
      other.send(completion: .failure(.thrown))
      expectEqual(subscriber.eventDescriptions, ["subscription", "failure(thrown)"])
      #expect(upstream.isCancelled)
    }
  }

  @Test func pipelineIsFreedAfterCancelAfterTheTrigger() {
    expectUntilOutputPipelineFreed(.drop) { upstream, other, subscriber in
      other.send(0)
      subscriber.cancel()
      #expect(upstream.isCancelled)
      expectEqual(other.cancelCount, 1)
    }
  }

  @Test func pipelineIsFreedAfterCancelBeforeTheTrigger() {
    expectUntilOutputPipelineFreed(.drop) { upstream, other, subscriber in
      subscriber.cancel()
      #expect(upstream.isCancelled && other.isCancelled)
    }
  }

  /// The upstream subscription that arrives after the other publisher finished is asked for demand but
  /// not retained, so an upstream that keeps it (and the operator's subscriber with it) frees the pipeline.
  @Test func pipelineIsFreedWhenUpstreamSubscribesAfterTheOtherFinished() {
    weak var weakSubscriber: TestSubscriber<Int, TransformTestError>?
    weak var weakUpstream: TransformUpstream?
    weak var weakUpstreamSubscription: TestSubscription?
    do {
      let upstream = TransformUpstream()
      let subscriber = TestSubscriber<Int, TransformTestError>(
        initialDemand: .max(3),
        onCompletion: { _, _ in withExtendedLifetime(upstream) {} }
      )
      upstream.drop(untilOutputFrom: Empty<Int, TransformTestError>()).subscribe(subscriber)
      expectEqual(subscriber.eventDescriptions, ["subscription", "finished"])
      expectEqual(upstream.requestedDemands, [.max(3)])
      #expect(!upstream.isCancelled)
      weakSubscriber = subscriber
      weakUpstream = upstream
      weakUpstreamSubscription = upstream.subscriptions.first
    }
    #expect(weakSubscriber == nil)
    #expect(weakUpstream == nil)
    #expect(weakUpstreamSubscription == nil)
  }

  @Test func docMarble() {
    let diagram = TestScheduler.marbles("-1-2-3-4-|", "----x") {
      (upstream: AnyPublisher<Int, MarbleError>, other: AnyPublisher<String, MarbleError>) in
      upstream.drop(untilOutputFrom: other)
    }
    expectEqual(diagram, "-----3-4-|")
  }

  /// A completion that arrives on another thread while downstream is receiving a value (from an upstream that
  /// breaks the contract) waits for that call to return, as in Combine, which holds a lock around downstream.
  @Test(.timeLimit(.minutes(1))) func aCompletionOnAnotherThreadWaitsForTheValueInsideReceive() {
    let upstream = TestPublisher<Int, Never>()
    let other = TestPublisher<Int, Never>()
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let events = StressLocked<[String]>([])
    upstream.drop(untilOutputFrom: other).subscribe(
      AnySubscriber(
        receiveSubscription: { $0.request(.unlimited) },
        receiveValue: { value in
          events.withLock { $0.append("value \(value)") }
          inReceive.signal()
          release.wait()
          events.withLock { $0.append("returned \(value)") }
          return .none
        },
        receiveCompletion: { _ in events.withLock { $0.append("finished") } }
      )
    )
    other.send(0)
    let valueSent = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      upstream.send(1)
      valueSent.signal()
    }
    inReceive.wait()
    let completed = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      started.signal()
      upstream.send(completion: .finished)
      completed.signal()
    }
    started.wait()
    #expect(events.withLock { $0 } == ["value 1"])
    release.signal()
    valueSent.wait()
    completed.wait()
    #expect(events.withLock { $0 } == ["value 1", "returned 1", "finished"])
  }
}
