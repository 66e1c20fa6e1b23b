import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct SwitchToLatestTests {
  typealias Child = TestPublisher<String, CombiningError>
  typealias Source = TestPublisher<Child, CombiningError>

  private struct Pipeline {
    let upstream = Source()
    let children = (0..<3).map { _ in Child() }
    let recorder: TestSubscriber<String, CombiningError>

    init(demand: Subscribers.Demand = .unlimited) {
      recorder = TestSubscriber(initialDemand: demand)
      upstream.switchToLatest().subscribe(recorder)
    }

    func switchTo(_ index: Int) { upstream.send(children[index]) }
  }

  @Test func republishesOnlyTheLatestChild() {
    let pipe = Pipeline()
    pipe.switchTo(0)
    pipe.children[0].send("a1")
    pipe.switchTo(1)
    #expect(pipe.children[0].isCancelled)
    pipe.children[0].send("a2")
    pipe.children[1].send("b1")
    expectEqual(pipe.recorder.values, ["a1", "b1"])
  }

  @Test func finishesWhenUpstreamAndTheCurrentChildHaveFinished() {
    let pipe = Pipeline()
    pipe.switchTo(0)
    pipe.children[0].send(completion: .finished)
    #expect(pipe.recorder.completions.isEmpty)
    pipe.switchTo(1)
    pipe.upstream.send(completion: .finished)
    #expect(pipe.recorder.completions.isEmpty)
    pipe.children[1].send(completion: .finished)
    expectEqual(pipe.recorder.completion, .finished)
  }

  @Test func finishesRightAwayWhenUpstreamFinishesWithoutAChild() {
    let pipe = Pipeline()
    pipe.upstream.send(completion: .finished)
    expectEqual(pipe.recorder.completion, .finished)
  }

  @Test func aReplacedChildsCompletionIsIgnored() {
    let pipe = Pipeline()
    pipe.switchTo(0)
    pipe.switchTo(1)
    pipe.upstream.send(completion: .finished)
    pipe.children[0].send(completion: .failure(.boom))
    pipe.children[0].send(completion: .finished)
    #expect(pipe.recorder.completions.isEmpty)
  }

  @Test func childFailureFailsAndCancelsUpstream() {
    let pipe = Pipeline()
    pipe.switchTo(0)
    pipe.children[0].send(completion: .failure(.boom))
    expectEqual(pipe.recorder.completion, .failure(.boom))
    #expect(pipe.upstream.isCancelled)
  }

  /// As in Combine, the child stays current after the upstream fails: a value it still sends reaches
  /// downstream while there is demand, and its completions are ignored.
  @Test func upstreamFailureFailsAndCancelsTheChild() {
    let pipe = Pipeline()
    pipe.switchTo(0)
    pipe.upstream.send(completion: .failure(.boom))
    expectEqual(pipe.recorder.completion, .failure(.boom))
    #expect(pipe.children[0].isCancelled)
    pipe.children[0].send("late")
    pipe.children[0].send(completion: .finished)
    pipe.children[0].send(completion: .failure(.other))
    expectEqual(pipe.recorder.values, ["late"])
    expectEqual(pipe.recorder.completions, [.failure(.boom)])
  }

  @Test func requestsUnlimitedUpstreamAndForwardsDemandToTheChild() {
    let pipe = Pipeline(demand: .max(2))
    expectEqual(pipe.upstream.requestedDemands, [.unlimited])
    pipe.switchTo(0)
    expectEqual(pipe.children[0].requestedDemands, [.max(2)])
    pipe.recorder.request(.max(3))
    expectEqual(pipe.children[0].requestedDemands, [.max(2), .max(3)])
  }

  @Test func outstandingDemandCarriesOverToTheNextChild() {
    let pipe = Pipeline(demand: .max(3))
    pipe.switchTo(0)
    pipe.children[0].send("a1")
    pipe.switchTo(1)
    expectEqual(pipe.children[1].requestedDemands, [.max(2)])
  }

  @Test func noDemandNoRequest() {
    let pipe = Pipeline(demand: .none)
    pipe.switchTo(0)
    #expect(pipe.children[0].requestedDemands.isEmpty)
    pipe.recorder.request(.max(1))
    expectEqual(pipe.children[0].requestedDemands, [.max(1)])
  }

  @Test func additionalDemandIsReturnedToTheChild() {
    let pipe = Pipeline(demand: .max(1))
    pipe.recorder.onValue = { _, _ in .max(2) }
    pipe.switchTo(0)
    expectEqual(pipe.children[0].send("a"), .max(2))
  }

  @Test func cancelCancelsUpstreamAndChildAndSilences() {
    let pipe = Pipeline()
    pipe.switchTo(0)
    pipe.recorder.cancel()
    #expect(pipe.upstream.isCancelled)
    #expect(pipe.children[0].isCancelled)
    pipe.children[0].send("late")
    pipe.switchTo(1)
    pipe.upstream.send(completion: .finished)
    #expect(pipe.recorder.values.isEmpty)
    #expect(pipe.recorder.completions.isEmpty)
    expectEqual(pipe.children[1].subscriberCount, 0)
  }

  /// As in Combine, a switch and a new child's value from inside `receive(_:)` are handled at once: the value is
  /// delivered nested in that call, and the replaced child's value is dropped.
  @Test func switchingFromInsideReceive() {
    let pipe = Pipeline()
    let upstream = pipe.upstream
    let children = pipe.children
    var log: [String] = []
    pipe.recorder.onValue = { _, value in
      log.append("enter \(value)")
      if value == "a1" {
        upstream.send(children[1])
        children[1].send("b1")
        children[0].send("a2")
      }
      log.append("leave \(value)")
      return .none
    }
    pipe.switchTo(0)
    pipe.children[0].send("a1")
    expectEqual(pipe.recorder.values, ["a1", "b1"])
    expectEqual(log, ["enter a1", "enter b1", "leave b1", "leave a1"])
    expectEqual(pipe.recorder.overlappingDeliveries, 1)
  }

  @Test func requestAndCancelFromInsideReceive() {
    let pipe = Pipeline(demand: .max(1))
    let recorder = pipe.recorder
    pipe.recorder.onValue = { _, value in
      if value == "a1" { recorder.request(.max(1)) }
      if value == "a2" { recorder.cancel() }
      return .none
    }
    pipe.switchTo(0)
    pipe.children[0].send("a1")
    expectEqual(pipe.children[0].requestedDemands, [.max(1), .max(1)])
    pipe.children[0].send("a2")
    pipe.children[0].send("a3")
    expectEqual(recorder.values, ["a1", "a2"])
    #expect(pipe.children[0].isCancelled)
    #expect(pipe.upstream.isCancelled)
  }

  @Test func synchronousChildren() {
    let recorder = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.map { (0..<$0).publisher }.switchToLatest().subscribe(recorder)
    expectEqual(recorder.values, [0, 0, 1, 0, 1, 2])
    expectEqual(recorder.completion, .finished)
  }

  @Test func everyFailureCombinationTypeChecks() {
    let never = PassthroughSubject<Just<Int>, Never>()
    let failing = PassthroughSubject<Fail<Int, CombiningError>, CombiningError>()
    let neverFailing = PassthroughSubject<Fail<Int, CombiningError>, Never>()
    let innerNever = PassthroughSubject<Just<Int>, CombiningError>()
    let a: Publishers.SwitchToLatest<Just<Int>, PassthroughSubject<Just<Int>, Never>> = never.switchToLatest()
    let b:
      Publishers.SwitchToLatest<
        Fail<Int, CombiningError>, PassthroughSubject<Fail<Int, CombiningError>, CombiningError>
      > =
        failing.switchToLatest()
    let c:
      Publishers.SwitchToLatest<
        Fail<Int, CombiningError>,
        Publishers.SetFailureType<PassthroughSubject<Fail<Int, CombiningError>, Never>, CombiningError>
      > = neverFailing.switchToLatest()
    let d:
      Publishers.SwitchToLatest<
        Publishers.SetFailureType<Just<Int>, CombiningError>,
        Publishers.Map<
          PassthroughSubject<Just<Int>, CombiningError>, Publishers.SetFailureType<Just<Int>, CombiningError>
        >
      > = innerNever.switchToLatest()
    let recorder = TestSubscriber<Int, CombiningError>()
    d.subscribe(recorder)
    innerNever.send(Just(7))
    innerNever.send(completion: .failure(.boom))
    expectEqual(recorder.values, [7])
    expectEqual(recorder.completion, .failure(.boom))
    let failed = TestSubscriber<Int, CombiningError>()
    c.subscribe(failed)
    neverFailing.send(Fail(error: .other))
    expectEqual(failed.completion, .failure(.other))
    _ = (a, b)
  }

  @Test func releasesThePipelineAfterCompletion() {
    weak var weakRecorder: TestSubscriber<String, CombiningError>?
    weak var weakSubscription: AnyObject?
    do {
      let pipe = Pipeline()
      weakRecorder = pipe.recorder
      weakSubscription = pipe.recorder.subscription as AnyObject?
      pipe.switchTo(0)
      pipe.children[0].send(completion: .finished)
      pipe.upstream.send(completion: .finished)
      pipe.upstream.releaseSubscribers()
      pipe.children[0].releaseSubscribers()
    }
    #expect(weakRecorder == nil)
    #expect(weakSubscription == nil)
  }

  @Test func releasesThePipelineAfterCancel() {
    weak var weakRecorder: TestSubscriber<String, CombiningError>?
    weak var weakSubscription: AnyObject?
    do {
      let pipe = Pipeline()
      weakRecorder = pipe.recorder
      weakSubscription = pipe.recorder.subscription as AnyObject?
      pipe.switchTo(0)
      pipe.recorder.cancel()
      pipe.upstream.releaseSubscribers()
      pipe.children[0].releaseSubscribers()
    }
    #expect(weakRecorder == nil)
    #expect(weakSubscription == nil)
  }

  @Test(.tags(.stress)) func concurrentSwitchingNeverOverlapsDownstream() {
    let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let children = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = TestSubscriber<Int, Never>()
    upstream.switchToLatest().subscribe(recorder)
    let lock = NSLock()
    combiningConcurrently(4) { producer in
      for value in 0..<1_000 {
        if value % 100 == 0 { lock.withLock { upstream.send(children[producer]) } }
        children[producer].send(producer * 1_000_000 + value)
      }
    }
    expectEqual(recorder.overlappingDeliveries, 0)
    for producer in 0..<4 {
      let mine = recorder.values.filter { $0 / 1_000_000 == producer }
      expectEqual(mine, mine.sorted())
    }
  }

  /// As in Combine, the upstream's finish counts before its subscription.
  @Test func upstreamFinishBeforeSubscriptionFinishes() throws {
    let outer = SubscriberHolder<Child, CombiningError>()
    let recorder = TestSubscriber<String, CombiningError>()
    outer.switchToLatest().subscribe(recorder)
    try #require(outer.subscriber).receive(completion: .finished)
    expectEqual(recorder.completions, [.finished])
  }

  /// As in Combine, each completion of the upstream is passed on.
  @Test func everyUpstreamCompletionIsPassedOn() {
    let pipe = Pipeline(demand: .none)
    pipe.upstream.send(completion: .finished)
    pipe.upstream.send(completion: .failure(.boom))
    pipe.upstream.send(completion: .finished)
    expectEqual(pipe.recorder.completions, [.finished, .failure(.boom), .finished])
  }

  /// As in Combine, a child that hands over its subscription after the upstream failed is asked for the
  /// outstanding demand, and a value it sends before its subscription returns downstream's demand to it.
  @Test func lateChildSubscriptionAfterUpstreamFailureIsAskedForDemand() throws {
    let outer = TestPublisher<SubscriberHolder<String, CombiningError>, CombiningError>()
    let child = SubscriberHolder<String, CombiningError>()
    let recorder = TestSubscriber<String, CombiningError>(initialDemand: .unlimited, demandPerValue: .max(42))
    outer.switchToLatest().subscribe(recorder)
    outer.send(child)
    #expect(try #require(child.subscriber).receive("a") == .max(42))
    outer.send(completion: .failure(.boom))
    let late = TestSubscription()
    try #require(child.subscriber).receive(subscription: late)
    expectEqual(late.requestedDemands, [.unlimited])
    #expect(!late.isCancelled)
    expectEqual(recorder.values, ["a"])
    expectEqual(recorder.completions, [.failure(.boom)])
  }

  /// As in Combine, a child that has finished stays current until the next one: a subscription it hands
  /// over afterwards is kept, and the finished child's subscription is let go.
  @Test func finishedChildsLateSubscriptionIsKept() throws {
    let outer = TestPublisher<SubscriberHolder<String, CombiningError>, CombiningError>()
    let child = SubscriberHolder<String, CombiningError>()
    let recorder = TestSubscriber<String, CombiningError>(initialDemand: .none)
    outer.switchToLatest().subscribe(recorder)
    outer.send(child)
    weak var weakFirst: TestSubscription?
    do {
      let first = TestSubscription()
      weakFirst = first
      try #require(child.subscriber).receive(subscription: first)
      try #require(child.subscriber).receive(completion: .finished)
      #expect(first.requestedDemands.isEmpty)
      #expect(!first.isCancelled)
    }
    #expect(weakFirst == nil)
    let late = TestSubscription()
    try #require(child.subscriber).receive(subscription: late)
    #expect(!late.isCancelled)
    #expect(late.requestedDemands.isEmpty)
  }
}
