import RillExt
import RillTestSupport
import RillTesting
import Testing

private typealias Inner = TestPublisher<String, ExtTestError>

@Suite struct FlatMapVariantsTests {
  @Test func docMarbles() {
    let scheduler = TestScheduler()
    func inner(_ value: String) -> AnyPublisher<String, MarbleError> {
      (try! scheduler.marblePublisher("-1--2|", as: String.self)).map { "\(value)\($0)" }.eraseToAnyPublisher()
    }
    #expect(
      scheduler.marbles("-a--b-----|") { (source: AnyPublisher<String, MarbleError>) in source.flatMapLatest(inner) }
        == "--'a1'--'b1'--'b2'-|"
    )
    #expect(
      scheduler.marbles("-a--b---c-----|") { (source: AnyPublisher<String, MarbleError>) in source.flatMapFirst(inner) }
        == "--'a1'--'a2'---'c1'--'c2'-|"
    )
    let batches = TestScheduler()
    let sources = ["-1---|", "--3|", "-5|"].map { try! batches.marblePublisher($0, as: Int.self) }
    let subscriber = TestSubscriber<[Int], MarbleError>(scheduler: batches)
    sources.flatMapBatches(of: 2).subscribe(subscriber)
    batches.run()
    expectEqual(subscriber.marbles(), "--'[1, 3]'-'[5]'|")
  }

  // MARK: flatMapLatest

  @Test func flatMapLatestSwitchesAndCancelsThePrevious() {
    let inners = [Inner(), Inner()]
    let (upstream, subscriber) = extSubscribe { $0.flatMapLatest { inners[$0] } }
    upstream.send(0)
    inners[0].send("a")
    upstream.send(1)
    expectEqual(inners[0].cancelCount, 1)
    inners[0].send("stale")
    inners[1].send("b")
    upstream.send(completion: .finished)
    #expect(!subscriber.isCompleted)
    inners[1].send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(a)", "value(b)", "finished"])

    // A failure of the latest inner publisher, or of upstream, ends the stream.
    let failing = Inner()
    let (upstream2, failed2) = extSubscribe { $0.flatMapLatest { _ in failing } }
    upstream2.send(0)
    failing.send(completion: .failure(.other))
    expectEqual(failed2.completion, .failure(.other))
    let (upstream3, failed3) = extSubscribe { $0.flatMapLatest { _ in Inner() } }
    upstream3.send(0)
    upstream3.send(completion: .failure(.upstream))
    expectEqual(failed3.completion, .failure(.upstream))
  }

  @Test func flatMapLatestDemand() {
    let inner = Inner()
    let (upstream, subscriber) = extSubscribe({ $0.flatMapLatest { _ in inner } }, initialDemand: .max(2))
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(0)
    expectEqual(inner.requestedDemands, [.max(2)])
    subscriber.request(.max(1))
    expectEqual(inner.requestedDemands, [.max(2), .max(1)])
  }

  @Test func flatMapLatestCancellationReentrancyAndMemory() {
    let inner = Inner()
    let (upstream, subscriber) = extSubscribe(
      { $0.flatMapLatest { _ in inner } },
      onValue: { subscriber, _ in
        subscriber.cancel()
        return .none
      }
    )
    upstream.send(0)
    inner.send("a")
    inner.send("b")
    #expect(subscriber.values == ["a"] && upstream.isCancelled && inner.isCancelled)
    let make = { (upstream: ExtUpstream) in
      upstream.flatMapLatest { Just("\($0)").setFailureType(to: ExtTestError.self) }
    }
    #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }))
  }

  // MARK: flatMapFirst

  @Test func flatMapFirstIgnoresValuesWhileAnInnerRuns() {
    let inners = [Inner(), Inner(), Inner()]
    var transformed: [Int] = []
    let (upstream, subscriber) = extSubscribe { upstream in
      upstream.flatMapFirst { value -> Inner in
        transformed.append(value)
        return inners[value]
      }
    }
    upstream.send(0)
    inners[0].send("a")
    upstream.send(1)
    inners[0].send("b")
    inners[0].send(completion: .finished)
    upstream.send(2)
    inners[2].send("c")
    expectEqual(transformed, [0, 2])
    #expect(inners[1].subscriberCount == 0 && inners[0].cancelCount == 0)
    upstream.send(completion: .finished)
    #expect(!subscriber.isCompleted)
    inners[2].send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(a)", "value(b)", "value(c)", "finished"])

    // Failures end the stream.
    let failing = Inner()
    let (upstream2, failed) = extSubscribe { $0.flatMapFirst { _ in failing } }
    upstream2.send(0)
    failing.send(completion: .failure(.other))
    expectEqual(failed.completion, .failure(.other))
    let (upstream3, failed3) = extSubscribe { $0.flatMapFirst { _ in Inner() } }
    upstream3.send(completion: .failure(.upstream))
    expectEqual(failed3.completion, .failure(.upstream))

    // An inner publisher subscribed later runs from the value that made it.
    let scheduler = TestScheduler()
    let delayed = Inner()
    var made = 0
    let (source, late) = extSubscribe { upstream in
      upstream.flatMapFirst { _ -> Publishers.SubscribeOn<Inner, RillTesting.TestScheduler> in
        made += 1
        return delayed.subscribe(on: scheduler)
      }
    }
    source.send(0)
    source.send(1)
    scheduler.run()
    delayed.send("x")
    #expect(made == 1 && late.values == ["x"])

    // Synchronous inner publishers each run to the end, so none is skipped.
    let all = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.flatMapFirst { Just($0 * 10) }.subscribe(all)
    expectEqual(all.eventDescriptions, ["subscription", "value(10)", "value(20)", "value(30)", "finished"])
  }

  @Test func flatMapFirstDemand() {
    let inner = Inner()
    let (upstream, subscriber) = extSubscribe({ $0.flatMapFirst { _ in inner } }, initialDemand: .max(2))
    expectEqual(upstream.requestedDemands, [.unlimited])
    // Combine's flatMap asks each inner publisher for one value at a time.
    upstream.send(0)
    expectEqual(inner.requestedDemands, [.max(1)])
    inner.send("a")
    inner.send("b")
    expectEqual(subscriber.values, ["a", "b"])
  }

  @Test func flatMapFirstCancellationReentrancyAndMemory() {
    // Cancelling the running inner publisher (by cancelling everything) lets the flag go.
    let inner = Inner()
    let subscriber = TestSubscriber<String, ExtTestError>()
    let subject = PassthroughSubject<Int, ExtTestError>()
    let shared = subject.flatMapFirst { _ in inner }
    shared.subscribe(subscriber)
    subject.send(0)
    subscriber.cancel()
    #expect(inner.isCancelled)
    let again = TestSubscriber<String, ExtTestError>()
    shared.subscribe(again)
    subject.send(1)
    expectEqual(inner.subscriberCount, 2)

    // A value sent upstream from inside a delivery, while the inner publisher runs, is ignored.
    let running = Inner()
    let source = PassthroughSubject<Int, ExtTestError>()
    let reacting = TestSubscriber<String, ExtTestError>(onValue: { _, _ in
      source.send(99)
      return .none
    })
    var transformed: [Int] = []
    source.flatMapFirst { value -> Inner in
      transformed.append(value)
      return running
    }
    .subscribe(reacting)
    source.send(0)
    running.send("a")
    #expect(transformed == [0] && reacting.values == ["a"])

    let make = { (upstream: ExtUpstream) in
      upstream.flatMapFirst { Just("\($0)").setFailureType(to: ExtTestError.self) }
    }
    #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }))
  }

  // MARK: flatMapBatches

  @Test func flatMapBatchesSubscribesBatchAfterBatch() {
    let sources = (0..<5).map { _ in TestPublisher<Int, ExtTestError>() }
    let subscriber = TestSubscriber<[Int], ExtTestError>()
    sources.flatMapBatches(of: 2).subscribe(subscriber)
    expectEqual(sources.map(\.subscriberCount), [1, 1, 0, 0, 0])
    sources[1].send(2)
    sources[0].send(1)
    sources[0].send(completion: .finished)
    expectEqual(sources.map(\.subscriberCount), [1, 1, 1, 1, 0])
    sources[2].send(3)
    sources[3].send(4)
    sources[3].send(completion: .finished)
    sources[4].send(5)
    sources[4].send(completion: .finished)
    #expect(
      subscriber.eventDescriptions == ["subscription", "value([1, 2])", "value([3, 4])", "value([5])", "finished"]
    )

    // A failure ends everything; later batches are never subscribed.
    let failing = (0..<4).map { _ in TestPublisher<Int, ExtTestError>() }
    let failed = TestSubscriber<[Int], ExtTestError>()
    failing.flatMapBatches(of: 2).subscribe(failed)
    failing[1].send(completion: .failure(.other))
    expectEqual(failed.eventDescriptions, ["subscription", "failure(other)"])
    #expect(failing[0].cancelCount == 1 && failing[2].subscriberCount == 0)

    // An empty collection finishes without a value; a size beyond the count makes one batch.
    let empty = TestSubscriber<[Int], Never>()
    [Just<Int>]().flatMapBatches(of: 3).subscribe(empty)
    expectEqual(empty.eventDescriptions, ["subscription", "finished"])
    let one = TestSubscriber<[Int], Never>()
    [Just(1), Just(2)].flatMapBatches(of: 5).subscribe(one)
    expectEqual(one.eventDescriptions, ["subscription", "value([1, 2])", "finished"])
  }

  @Test func flatMapBatchesDemandCancellationAndMemory() {
    let sources = (0..<2).map { _ in TestPublisher<Int, ExtTestError>() }
    let subscriber = TestSubscriber<[Int], ExtTestError>(initialDemand: .max(1))
    sources.flatMapBatches(of: 2).subscribe(subscriber)
    #expect(sources[0].requestedDemands == [.max(1)] && sources[1].requestedDemands == [.max(1)])
    subscriber.cancel()
    #expect(sources.allSatisfy { $0.cancelCount == 1 })

    weak var inner: AnyObject?
    do {
      let sources = (0..<3).map { _ in TestPublisher<Int, ExtTestError>() }
      let subscriber = TestSubscriber<[Int], ExtTestError>()
      sources.flatMapBatches(of: 2).subscribe(subscriber)
      inner = subscriber.subscription as AnyObject?
      subscriber.cancel()
      for source in sources { source.releaseSubscribers() }
    }
    #expect(inner == nil)
    do {
      let subscriber = TestSubscriber<[Int], Never>()
      [Just(1), Just(2), Just(3)].flatMapBatches(of: 2).subscribe(subscriber)
      inner = subscriber.subscription as AnyObject?
      #expect(subscriber.isFinished)
    }
    #expect(inner == nil)
  }

  @Test func contract() {
    expectContract("flatMapLatest") { [1, 2, 3].publisher.flatMapLatest { Just($0) } }
    expectContract("flatMapFirst") { [1, 2, 3].publisher.flatMapFirst { [$0, $0].publisher } }
    expectContract("flatMapBatches") { [Just(1), Just(2), Just(3)].flatMapBatches(of: 2) }
  }

  @Test func publicSurface() {
    let just = Just(1)
    let _: Publishers.SwitchToLatest<Just<String>, Publishers.Map<Just<Int>, Just<String>>> = just.flatMapLatest {
      Just("\($0)")
    }
    let _: Publishers.FlatMap<Publishers.HandleEvents<Just<String>>, Publishers.Filter<Just<Int>>> =
      just.flatMapFirst { Just("\($0)") }
    let _: AnyPublisher<[Int], Never> = [just].flatMapBatches(of: 1)
  }
}
