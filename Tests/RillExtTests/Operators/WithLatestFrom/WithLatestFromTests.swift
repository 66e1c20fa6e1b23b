import RillExt
import RillTestSupport
import RillTesting
import Testing

/// Plays hot marble diagrams on one scheduler through `transform` and renders what comes out.
private func hotMarbles<P: Publisher>(
  _ diagrams: [String],
  _ transform: ([AnyPublisher<String, MarbleError>]) -> P
) -> String {
  let scheduler = TestScheduler()
  do {
    let sources = try diagrams.map { (diagram) throws(MarbleSyntaxError) in
      try scheduler.marblePublisher(diagram, hot: true, as: String.self)
    }
    let subscriber = TestSubscriber<P.Output, P.Failure>(scheduler: scheduler)
    transform(sources).subscribe(subscriber)
    scheduler.run()
    return subscriber.marbles()
  } catch {
    return error.description
  }
}

private typealias Other = TestPublisher<String, ExtTestError>

@Suite struct WithLatestFromTests {
  @Test func docMarbles() {
    #expect(
      TestScheduler.marbles("-1---2---3-|", "---a---b-----|", hot: true) {
        (upstream: AnyPublisher<Int, MarbleError>, other: AnyPublisher<String, MarbleError>) in
        upstream.withLatestFrom(other) { "\($0)\($1)" }
      } == "-----'2a'---'3b'-|"
    )
    #expect(
      hotMarbles(["-1---2---3-|", "---a---b-----|"]) { $0[0].withLatestFrom($0[1]) } == "-----a---b-|"
    )
    let two = ["-1-----2---3-|", "---a-----b-----|", "-----x---------|"]
    #expect(
      hotMarbles(two) { $0[0].withLatestFrom($0[1], $0[2]) { "\($0)\($1.0)\($1.1)" } } == "-------'2ax'---'3bx'-|"
    )
    #expect(hotMarbles(two) { $0[0].withLatestFrom($0[1], $0[2]).map { "\($0)\($1)" } } == "-------'ax'---'bx'-|")
    let three = two + ["----p----------|"]
    #expect(
      hotMarbles(three) { $0[0].withLatestFrom($0[1], $0[2], $0[3]) { "\($0)\($1.0)\($1.1)\($1.2)" } }
        == "-------'2axp'---'3bxp'-|"
    )
    #expect(
      hotMarbles(three) { $0[0].withLatestFrom($0[1], $0[2], $0[3]).map { "\($0)\($1)\($2)" } }
        == "-------'axp'---'bxp'-|"
    )
  }

  @Test func combinesEachValueWithTheLatestOther() {
    let upstream = PassthroughSubject<Int, Never>()
    let other = PassthroughSubject<String, Never>()
    let subscriber = TestSubscriber<String, Never>()
    upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    other.send("bar")
    upstream.send(3)
    other.send("foo")
    other.send("qux")
    upstream.send(4)
    upstream.send(5)
    expectEqual(subscriber.values, ["3bar", "4qux", "5qux"])
    other.send(completion: .finished)
    upstream.send(6)
    #expect(!subscriber.isCompleted && subscriber.values.last == "6qux")
    upstream.send(completion: .finished)
    #expect(subscriber.isFinished)
  }

  @Test func upstreamIsSubscribedOnTheOthersFirstValue() {
    let other = Other()
    let upstream = ExtUpstream()
    let subscriber = TestSubscriber<String, ExtTestError>(initialDemand: .max(2))
    upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(subscriber)
    expectEqual(other.requestedDemands, [.unlimited])
    expectEqual(upstream.subscriberCount, 0)
    subscriber.request(.max(3))
    other.send("a")
    other.send("b")
    expectEqual(upstream.subscriberCount, 1)
    // What downstream asked for meanwhile goes up in one request.
    expectEqual(upstream.requestedDemands, [.max(5)])
    subscriber.request(.max(1))
    expectEqual(upstream.requestedDemands, [.max(5), .max(1)])
    upstream.send(1)
    expectEqual(subscriber.values, ["1b"])

    // A cold upstream runs once the other publisher has a value, with the values the other sent before.
    let trigger = PassthroughSubject<String, Never>()
    let cold = TestSubscriber<String, Never>()
    Just(1).withLatestFrom(trigger) { "\($0)\($1)" }.subscribe(cold)
    expectEqual(cold.eventDescriptions, ["subscription"])
    trigger.send("x")
    expectEqual(cold.eventDescriptions, ["subscription", "value(1x)", "finished"])

    // No demand yet: upstream is subscribed but asked for nothing.
    let idleOther = Other()
    let idleUpstream = ExtUpstream()
    idleUpstream.withLatestFrom(idleOther).subscribe(TestSubscriber<String, ExtTestError>(initialDemand: .none))
    idleOther.send("a")
    #expect(idleUpstream.subscriberCount == 1 && idleUpstream.requestedDemands.isEmpty)
  }

  @Test func demandFromEachValueGoesUpstream() {
    let other = Other()
    let upstream = ExtUpstream()
    let subscriber = TestSubscriber<String, ExtTestError>(initialDemand: .max(1), demandPerValue: .max(2))
    upstream.withLatestFrom(other).subscribe(subscriber)
    other.send("a")
    expectEqual(upstream.send(1), .max(2))
    expectEqual(other.send("b"), .none)
  }

  @Test func theOthersCompletionAndFailureAreIgnored() {
    let other = Other()
    let (upstream, subscriber) = extSubscribe { $0.withLatestFrom(other) }
    other.send("a")
    other.send(completion: .failure(.other))
    upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(a)"])

    // Completing without a value leaves upstream unsubscribed, and the stream never ends.
    let silent = Other()
    let silentUpstream = ExtUpstream()
    let waiting = TestSubscriber<String, ExtTestError>()
    silentUpstream.withLatestFrom(silent).subscribe(waiting)
    silent.send(completion: .finished)
    expectEqual(silentUpstream.subscriberCount, 0)
    expectEqual(waiting.eventDescriptions, ["subscription"])
  }

  @Test func upstreamsCompletionEndsTheStreamAndCancelsTheOther() {
    for completion in [Subscribers.Completion<ExtTestError>.finished, .failure(.upstream)] {
      let other = Other()
      let (upstream, subscriber) = extSubscribe { $0.withLatestFrom(other) }
      other.send("a")
      upstream.send(1)
      upstream.send(completion: completion)
      expectEqual(subscriber.completion, completion)
      expectEqual(other.cancelCount, 1)
      expectEqual(upstream.cancelCount, 0)
      other.send("b")
      upstream.send(2)
      #expect(subscriber.values == ["a"] && subscriber.completionCount == 1)
    }
  }

  @Test func cancellation() {
    // Before the other's first value: upstream is never subscribed.
    let other = Other()
    let upstream = ExtUpstream()
    let subscriber = TestSubscriber<String, ExtTestError>()
    upstream.withLatestFrom(other).subscribe(subscriber)
    subscriber.cancel()
    expectEqual(other.cancelCount, 1)
    other.send("a")
    expectEqual(upstream.subscriberCount, 0)

    // Afterwards: both are cancelled and nothing more arrives.
    let other2 = Other()
    let (upstream2, subscriber2) = extSubscribe { $0.withLatestFrom(other2) }
    other2.send("a")
    subscriber2.cancel()
    #expect(other2.cancelCount == 1 && upstream2.cancelCount == 1)
    upstream2.send(1)
    upstream2.send(completion: .finished)
    expectEqual(subscriber2.eventDescriptions, ["subscription"])

    // Cancelling inside receive(subscription:) subscribes nothing.
    let other3 = Other()
    let early = TestSubscriber<String, ExtTestError>(onSubscription: { subscriber, _ in subscriber.cancel() })
    ExtUpstream().withLatestFrom(other3).subscribe(early)
    expectEqual(other3.subscriberCount, 0)
  }

  @Test func reentrancy() {
    // A synchronous other and a synchronous upstream.
    let current = CurrentValueSubject<String, Never>("x")
    let subscriber = TestSubscriber<String, Never>()
    [1, 2, 3].publisher.withLatestFrom(current) { "\($0)\($1)" }.subscribe(subscriber)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1x)", "value(2x)", "value(3x)", "finished"])

    // Downstream makes the other send, and cancels, from inside a value.
    let other = PassthroughSubject<String, Never>()
    let upstream = PassthroughSubject<Int, Never>()
    let reacting = TestSubscriber<String, Never>(onValue: { subscriber, value in
      if value == "1a" { other.send("b") }
      if value == "2b" { subscriber.cancel() }
      return .none
    })
    upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(reacting)
    other.send("a")
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    expectEqual(reacting.values, ["1a", "2b"])
  }

  /// As in CombineExt: the subscription keeps both publishers alive until it ends, so a relay that finishes when it is
  /// freed does not end the stream while the subscription lasts.
  @Test func theSubscriptionKeepsItsPublishersAliveUntilItEnds() {
    final class Payload: Sendable {}
    weak var payload: Payload?
    weak var weakUpstream: PassthroughRelay<Int>?
    weak var weakOther: PassthroughRelay<Payload>?
    let subscriber = TestSubscriber<Payload, Never>()
    do {
      let upstream = PassthroughRelay<Int>()
      let other = PassthroughRelay<Payload>()
      weakUpstream = upstream
      weakOther = other
      upstream.withLatestFrom(other).subscribe(subscriber)
      let made = Payload()
      payload = made
      other.accept(made)
    }
    #expect(weakUpstream != nil && weakOther != nil)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    subscriber.cancel()
    #expect(weakUpstream == nil && weakOther == nil && payload == nil)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  @Test func memory() {
    weak var inner: AnyObject?
    weak var weakUpstream: PassthroughSubject<Int, Never>?
    weak var weakOther: PassthroughSubject<String, Never>?
    do {
      let upstream = PassthroughSubject<Int, Never>()
      let other = PassthroughSubject<String, Never>()
      weakUpstream = upstream
      weakOther = other
      let subscriber = TestSubscriber<String, Never>()
      upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(subscriber)
      inner = subscriber.subscription as AnyObject?
      other.send("a")
      upstream.send(1)
      subscriber.cancel()
    }
    #expect(inner == nil && weakUpstream == nil && weakOther == nil)

    // Cancelled before the other's first value: the unsubscribed upstream is let go of too.
    do {
      let upstream = PassthroughSubject<Int, Never>()
      weakUpstream = upstream
      let subscriber = TestSubscriber<Int, Never>()
      upstream.withLatestFrom(Empty<Int, Never>(completeImmediately: false)).subscribe(subscriber)
      inner = subscriber.subscription as AnyObject?
      subscriber.cancel()
    }
    #expect(inner == nil && weakUpstream == nil)

    // After completion.
    do {
      let upstream = PassthroughSubject<Int, Never>()
      let other = CurrentValueSubject<String, Never>("a")
      weakOther = nil
      let subscriber = TestSubscriber<String, Never>()
      upstream.withLatestFrom(other).subscribe(subscriber)
      inner = subscriber.subscription as AnyObject?
      upstream.send(1)
      upstream.send(completion: .finished)
      #expect(subscriber.isFinished)
    }
    #expect(inner == nil)
  }

  @Test func contract() {
    expectContract("withLatestFrom, sequence") { [1, 2, 3].publisher.withLatestFrom(Just("a")) { "\($0)\($1)" } }
    expectContract("withLatestFrom2") {
      Record<Int, ExtTestError>(output: [1, 2], completion: .failure(.upstream))
        .withLatestFrom(
          Just("a").setFailureType(to: ExtTestError.self),
          Just(true).setFailureType(to: ExtTestError.self)
        )
        .map { "\($0.0)\($0.1)" }
    }
    for demand in ContractDemand.standard {
      let upstream = PassthroughSubject<Int, ExtTestError>()
      let other = PassthroughSubject<String, ExtTestError>()
      let report = PublisherContract.check(upstream.withLatestFrom(other), demand: demand) { checker in
        upstream.send(0)
        other.send("a")
        upstream.send(1)
        checker.request(.max(1))
        other.send("b")
        upstream.send(2)
        upstream.send(completion: .finished)
      }
      #expect(report.isSatisfied, "\(demand): \(report)")
    }
  }

  @Test func publicSurface() {
    let just = Just(1)
    let one: Publishers.WithLatestFrom<Just<Int>, Just<String>, String> = just.withLatestFrom(Just("a"))
    let selected: Publishers.WithLatestFrom<Just<Int>, Just<String>, Int> = just.withLatestFrom(Just("a")) {
      $0 + $1.count
    }
    let two: Publishers.WithLatestFrom<Just<Int>, AnyPublisher<(String, Bool), Never>, (String, Bool)> =
      just.withLatestFrom(Just("a"), Just(true))
    let three: Publishers.WithLatestFrom<Just<Int>, AnyPublisher<(String, Bool, Int), Never>, Int> =
      just.withLatestFrom(Just("a"), Just(true), Just(2)) { $0 + $1.2 }
    let selector: Publishers.WithLatestFrom<Just<Int>, Just<String>, Int>.ResultSelector = { $0 + $1.count }
    expectEqual(selector(1, "ab"), 3)
    var outputs: [String] = []
    _ = one.sink { outputs.append($0) }
    _ = selected.sink { outputs.append("\($0)") }
    _ = two.sink { outputs.append("\($0.0)\($0.1)") }
    _ = three.sink { outputs.append("\($0)") }
    expectEqual(outputs, ["a", "2", "atrue", "3"])
    let subscriber = TestSubscriber<String, Never>()
    PassthroughSubject<Int, Never>().withLatestFrom(Just("a")).subscribe(subscriber)
    #expect(subscriber.subscription.map { String(describing: $0) } == "WithLatestFrom.Subscription<String, Never>")
  }
}
