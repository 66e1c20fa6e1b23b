import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct PrefixUntilOutputTests {
  private func subscribe(
    initialDemand: Subscribers.Demand = .unlimited
  ) -> (TransformUpstream, TestPublisher<String, Never>, TestSubscriber<Int, TransformTestError>) {
    let upstream = TransformUpstream()
    let other = TestPublisher<String, Never>()
    let subscriber = TestSubscriber<Int, TransformTestError>(initialDemand: initialDemand)
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    return (upstream, other, subscriber)
  }

  @Test func republishesUntilTheOtherPublisherEmits() {
    let (upstream, other, subscriber) = subscribe()
    upstream.send(1)
    other.send("stop")
    upstream.send(2)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
    #expect(upstream.isCancelled)
    expectEqual(other.requestedDemands, [.max(1)])
    // Unlike Combine, which lets go of it without a cancel, the other publisher's subscription is cancelled once it
    // delivered: a subject's subscription would keep the subject alive.
    expectEqual(other.cancelCount, 1)
  }

  /// As in Combine, an upstream completion before the upstream subscription cancels the other publisher
  /// and reaches nobody; a subscription after it is cancelled.
  @Test func completionBeforeTheSubscriptionCancelsTheOther() throws {
    let upstream = SubscriberHolder<Int, TransformTestError>()
    let other = TestPublisher<String, Never>()
    let subscriber = TestSubscriber<Int, TransformTestError>()
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    try #require(upstream.subscriber).receive(completion: .finished)
    #expect(other.isCancelled)
    expectEqual(subscriber.eventDescriptions, [])
    let late = TestSubscription()
    try #require(upstream.subscriber).receive(subscription: late)
    #expect(late.isCancelled)
  }

  /// As in Combine (`PrefixUntilOutputTests.testTerminatorEmitsValueBeforeUpstreamSendsSubscription` of its
  /// behaviour suite), a value from the other publisher before upstream's subscription finishes downstream at once,
  /// without a subscription, and cancels the other publisher (Combine lets go of it without a cancel); the upstream
  /// subscription that arrives afterwards is cancelled and downstream hears nothing more.
  @Test func otherValueBeforeTheUpstreamSubscriptionFinishesAtOnceWithoutASubscription() throws {
    let upstream = SubscriberHolder<Int, TransformTestError>()
    let other = TestPublisher<String, Never>()
    let subscriber = TestSubscriber<Int, TransformTestError>()
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    expectEqual(subscriber.eventDescriptions, [])
    other.send("stop")
    expectEqual(subscriber.eventDescriptions, ["finished"])
    #expect(other.isCancelled)
    let late = TestSubscription()
    upstream.send(subscription: late)
    #expect(late.isCancelled && late.requestedDemands.isEmpty)
    expectEqual(subscriber.eventDescriptions, ["finished"])
  }

  /// A `sink` hears the completion that arrives before any subscription, as Combine's does.
  @Test func aSinkHearsTheCompletionThatComesWithoutASubscription() {
    let upstream = SubscriberHolder<Int, TransformTestError>()
    var completions: [Subscribers.Completion<TransformTestError>] = []
    let cancellable = upstream.prefix(untilOutputFrom: Just(())).sink(
      receiveCompletion: { completions.append($0) },
      receiveValue: { _ in }
    )
    expectEqual(completions, [.finished])
    let late = TestSubscription()
    upstream.send(subscription: late)
    #expect(late.isCancelled)
    withExtendedLifetime(cancellable) {}
  }

  /// As in Combine, the operator's subscribers do not customise their description or mirror, and the one
  /// given to the other publisher shares the subscription's identifier.
  @Test func subscribersKeepTheDefaultDescriptionAndShareAnIdentifier() throws {
    let upstream = SubscriberHolder<Int, TransformTestError>()
    let other = SubscriberHolder<String, Never>()
    upstream.prefix(untilOutputFrom: other).subscribe(TestSubscriber<Int, TransformTestError>())
    let inner = try #require(upstream.rawSubscriber as? any Subscriber)
    let trigger = try #require(other.rawSubscriber as? any Subscriber)
    expectEqual(inner.combineIdentifier, trigger.combineIdentifier)
    for subscriber in [inner, trigger] {
      #expect(!(subscriber is any CustomStringConvertible))
      #expect(!(subscriber is any CustomReflectable))
      #expect(!(subscriber is any CustomPlaygroundDisplayConvertible))
    }
    #expect(String(describing: inner).contains("PrefixUntilOutput"))
  }

  /// Combine forwards a request for `.none` upstream as it is.
  @Test func requestForNoneGoesUpstream() throws {
    let (upstream, _, subscriber) = subscribe(initialDemand: .none)
    try #require(subscriber.subscription).request(.none)
    expectEqual(upstream.requestedDemands, [.none])
  }

  @Test func otherCompletingLetsUpstreamContinue() {
    let (upstream, other, subscriber) = subscribe()
    other.send(completion: .finished)
    upstream.send(1)
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "failure(upstream)"])
    #expect(!upstream.isCancelled)
  }

  @Test func upstreamCompletionCancelsTheOther() {
    let (upstream, other, subscriber) = subscribe()
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished"])
    #expect(other.isCancelled)
  }

  @Test func forwardsDemandExactly() {
    let (upstream, _, subscriber) = subscribe(initialDemand: .max(2))
    expectEqual(upstream.requestedDemands, [.max(2)])
    subscriber.request(.max(3))
    expectEqual(upstream.requestedDemands, [.max(2), .max(3)])
  }

  @Test func anOtherPublisherThatEmitsAtOnceFinishesAtOnce() {
    let upstream = TransformUpstream()
    let subscriber = TestSubscriber<Int, TransformTestError>()
    upstream.prefix(untilOutputFrom: Just(())).subscribe(subscriber)
    upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["finished"])
    #expect(upstream.isCancelled)
  }

  @Test func subscribesToTheOtherPublisherFirst() {
    var order: [String] = []
    let upstream = Deferred { () -> TransformUpstream in
      order.append("upstream")
      return TransformUpstream()
    }
    let other = Deferred { () -> TestPublisher<String, Never> in
      order.append("other")
      return TestPublisher()
    }
    upstream.prefix(untilOutputFrom: other).subscribe(TestSubscriber<Int, TransformTestError>())
    expectEqual(order, ["other", "upstream"])
  }

  @Test func cancelCancelsBoth() {
    let (upstream, other, subscriber) = subscribe()
    subscriber.cancel()
    #expect(upstream.isCancelled && other.isCancelled)
    other.send("late")
    upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  @Test func contract() {
    transformContract { $0.prefix(untilOutputFrom: Empty<Int, Never>()) }
  }

  @Test func memoryWithAPendingOther() {
    weak var weakSubscriber: TestSubscriber<Int, TransformTestError>?
    weak var weakSubscription: AnyObject?
    do {
      let (upstream, _, subscriber) = subscribe()
      weakSubscriber = subscriber
      weakSubscription = subscriber.subscription.map { $0 as AnyObject }
      subscriber.cancel()
      _ = upstream
    }
    #expect(weakSubscriber == nil)
    #expect(weakSubscription == nil)
  }

  /// Whatever ends the stream lets go of downstream and of the other publisher's subscription, so a
  /// downstream that leads back to the other publisher is not kept alive by it (the leak that reverted 424ae8e).
  @Test func pipelineIsFreedAfterTheTrigger() {
    expectUntilOutputPipelineFreed(.prefix) { upstream, other, subscriber in
      upstream.send(1)
      other.send(0)
      expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
      #expect(upstream.isCancelled)
      #expect(other.isCancelled)
    }
  }

  @Test func pipelineIsFreedAfterUpstreamCompletes() {
    expectUntilOutputPipelineFreed(.prefix) { upstream, other, subscriber in
      upstream.send(completion: .finished)
      expectEqual(subscriber.eventDescriptions, ["subscription", "finished"])
      #expect(other.isCancelled)
    }
  }

  @Test func pipelineIsFreedAfterTheOtherFinishesAndUpstreamFails() {
    expectUntilOutputPipelineFreed(.prefix) { upstream, other, subscriber in
      other.send(completion: .finished)
      upstream.send(completion: .failure(.upstream))
      expectEqual(subscriber.eventDescriptions, ["subscription", "failure(upstream)"])
      #expect(!other.isCancelled)
    }
  }

  @Test func pipelineIsFreedAfterCancel() {
    expectUntilOutputPipelineFreed(.prefix) { upstream, other, subscriber in
      subscriber.cancel()
      #expect(upstream.isCancelled && other.isCancelled)
    }
  }

  @Test func pipelineIsFreedAfterCancelOnceTheOtherFinished() {
    expectUntilOutputPipelineFreed(.prefix) { upstream, other, subscriber in
      other.send(completion: .failure(.thrown))
      subscriber.cancel()
      #expect(upstream.isCancelled)
      #expect(!other.isCancelled)
    }
  }

  @Test func docMarble() {
    let diagram = TestScheduler.marbles("-1-2-3-4-|", "------x") {
      (upstream: AnyPublisher<Int, MarbleError>, other: AnyPublisher<String, MarbleError>) in
      upstream.prefix(untilOutputFrom: other)
    }
    expectEqual(diagram, "-1-2-3|")
  }

  /// When the other publisher's value comes while downstream is receiving a value on another thread, `.finished`
  /// waits until that `receive(_:)` has returned, then the other publisher's thread delivers it: downstream is never
  /// called from two threads at once.
  @Test(.timeLimit(.minutes(1))) func theTriggerWaitsForAValueInsideReceiveOnAnotherThread() {
    let upstream = TestPublisher<Int, Never>()
    let other = TestPublisher<String, Never>()
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let events = PrefixUntilOutputEvents()
    upstream.prefix(untilOutputFrom: other).subscribe(
      AnySubscriber(
        receiveSubscription: { $0.request(.unlimited) },
        receiveValue: { value in
          events.append("value \(value)")
          inReceive.signal()
          release.wait()
          events.append("returned \(value)")
          return .none
        },
        receiveCompletion: { _ in events.append("finished") }
      )
    )
    let valueSent = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      upstream.send(1)
      valueSent.signal()
    }
    inReceive.wait()
    let triggerSent = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      events.recordTriggerThread()
      other.send("stop")
      triggerSent.signal()
    }
    // The trigger has ended the upstream subscription and waits for downstream to return.
    while !upstream.isCancelled { sched_yield() }
    expectEqual(events.all, ["value 1"])
    release.signal()
    valueSent.wait()
    triggerSent.wait()
    expectEqual(events.all, ["value 1", "returned 1", "finished"])
    #expect(events.finishedOnTheTriggerThread)
  }

  /// When downstream makes the other publisher emit from inside `receive(_:)`, `.finished` arrives at once, nested
  /// in that call, as in Combine; nothing follows it.
  @Test func theTriggerFromInsideReceiveFinishesNestedAndNothingFollows() {
    let upstream = TestPublisher<Int, Never>()
    let other = TestPublisher<String, Never>()
    var events: [String] = []
    upstream.prefix(untilOutputFrom: other).subscribe(
      AnySubscriber(
        receiveSubscription: { $0.request(.unlimited) },
        receiveValue: { value in
          events.append("value \(value)")
          other.send("stop")
          events.append("returned \(value)")
          return .max(1)
        },
        receiveCompletion: { _ in events.append("finished") }
      )
    )
    upstream.send(1)
    upstream.send(2)
    expectEqual(events, ["value 1", "finished", "returned 1"])
  }
}

/// What a subscriber saw, recorded from several threads, and the thread that delivered `.finished`.
private final class PrefixUntilOutputEvents: @unchecked Sendable {
  // SAFETY: all mutable state is touched with `lock` held.
  private let lock = NSLock()
  private var events: [String] = []
  private var finishedThread: Thread?
  private var triggerThread: Thread?

  var all: [String] { lock.withLock { events } }

  var finishedOnTheTriggerThread: Bool {
    lock.withLock { finishedThread != nil && finishedThread === triggerThread }
  }

  func append(_ event: String) {
    lock.withLock {
      events.append(event)
      if event == "finished" { finishedThread = Thread.current }
    }
  }

  /// Notes the calling thread as the one that sends the other publisher's value.
  func recordTriggerThread() {
    lock.withLock { triggerThread = Thread.current }
  }
}
