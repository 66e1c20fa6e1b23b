import Foundation
import RillExt
import RillTestSupport
import RillTesting
import Synchronization
import Testing

private typealias Source = TestPublisher<Int, ExtTestError>

/// Plays cold marble diagrams on one scheduler through `transform` and renders what comes out.
private func marbles<P: Publisher>(
  _ diagrams: [String],
  _ transform: ([AnyPublisher<String, MarbleError>]) -> P
) -> String {
  let scheduler = TestScheduler()
  let sources = diagrams.map { try! scheduler.marblePublisher($0, as: String.self) }
  let subscriber = TestSubscriber<P.Output, P.Failure>(scheduler: scheduler)
  transform(sources).subscribe(subscriber)
  scheduler.run()
  return subscriber.marbles()
}

@Suite struct ManyPublishersTests {
  @Test func docMarbles() {
    #expect(
      marbles(["-1---2---|", "--a-b------|"]) { $0[0].zip(with: [$0[1]]).map { $0.joined() } } == "--'1a'--'2b'---|"
    )
    #expect(
      marbles(["-1---2---|", "--a-b------|", "---x---y-----|"]) { $0[0].zip(with: $0[1], $0[2]).map { $0.joined() } }
        == "---'1ax'---'2by'-|"
    )
    #expect(marbles(["-1---2---|", "--x-y------|"]) { $0.zip().map { $0.joined() } } == "--'1x'--'2y'---|")
    #expect(
      marbles(["-1---2-----|", "--a----b-----|"]) { $0[0].combineLatest(with: [$0[1]]).map { $0.joined() } }
        == "--'1a'--'2a'-'2b'-----|"
    )
    #expect(
      marbles(["-1-------2---|", "--a----------|", "----x--y-------|"]) {
        $0[0].combineLatest(with: $0[1], $0[2]).map { $0.joined() }
      } == "----'1ax'--'1ay'-'2ay'-----|"
    )
    #expect(
      marbles(["-1---2-----|", "--x----y-----|"]) { $0.combineLatest().map { $0.joined() } }
        == "--'1x'--'2x'-'2y'-----|"
    )
    #expect(marbles(["-1---2-|", "--x-y----|"]) { $0.merge() } == "-1x-y2---|")
  }

  @Test func zip() {
    let sources = [Source(), Source(), Source()]
    let subscriber = TestSubscriber<[Int], ExtTestError>()
    sources.zip().subscribe(subscriber)
    sources[2].send(3)
    sources[0].send(1)
    sources[1].send(2)
    sources[0].send(4)
    expectEqual(subscriber.values, [[1, 2, 3]])
    sources[1].send(completion: .finished)
    expectEqual(subscriber.completion, .finished)

    let (upstream, failed) = extSubscribe { $0.zip(with: Source(), Source()) }
    upstream.send(completion: .failure(.upstream))
    expectEqual(failed.completion, .failure(.upstream))

    // Empty: finished without a value, as in CombineExt. One: each value alone.
    let empty = TestSubscriber<[Int], ExtTestError>()
    [Source]().zip().subscribe(empty)
    expectEqual(empty.eventDescriptions, ["subscription", "finished"])
    let (single, alone) = extSubscribe { [$0].zip() }
    single.send(1)
    expectEqual(alone.values, [[1]])
  }

  @Test func combineLatest() {
    let sources = [Source(), Source(), Source()]
    let subscriber = TestSubscriber<[Int], ExtTestError>()
    sources.combineLatest().subscribe(subscriber)
    sources[0].send(1)
    sources[1].send(2)
    sources[2].send(3)
    sources[1].send(5)
    expectEqual(subscriber.values, [[1, 2, 3], [1, 5, 3]])
    for source in sources.dropLast() { source.send(completion: .finished) }
    #expect(!subscriber.isCompleted)
    sources[2].send(completion: .finished)
    expectEqual(subscriber.completion, .finished)

    let other = Source()
    let (upstream, failed) = extSubscribe { $0.combineLatest(with: other) }
    upstream.send(1)
    other.send(completion: .failure(.other))
    expectEqual(failed.eventDescriptions, ["subscription", "failure(other)"])

    let empty = TestSubscriber<[Int], ExtTestError>()
    [Source]().combineLatest().subscribe(empty)
    expectEqual(empty.eventDescriptions, ["subscription", "finished"])
  }

  /// A collection of any size is one subscription, not a chain of nested ones that would overflow the stack.
  @Test func aHundredThousandPublishers() {
    let count = 100_001
    let justs = Array(repeating: Just(2), count: count)
    let everyTwo = Array(repeating: 2, count: count)
    var zipped: [[Int]] = []
    var zipFinished = false
    _ = justs.zip().sink(receiveCompletion: { _ in zipFinished = true }, receiveValue: { zipped.append($0) })
    #expect(zipped == [everyTwo] && zipFinished)
    var combined: [[Int]] = []
    var combineFinished = false
    _ = justs.combineLatest().sink(
      receiveCompletion: { _ in combineFinished = true },
      receiveValue: { combined.append($0) }
    )
    #expect(combined == [everyTwo] && combineFinished)
    var zippedWith: [[Int]] = []
    _ = Just(1).zip(with: justs).sink { zippedWith.append($0) }
    expectEqual(zippedWith, [[1] + everyTwo])
    var combinedWith: [[Int]] = []
    _ = Just(1).combineLatest(with: justs).sink { combinedWith.append($0) }
    expectEqual(combinedWith, [[1] + everyTwo])
  }

  /// As Combine's zip does: an array arrives on the thread whose value completed it, before that value's `receive`
  /// returns, and one completed from inside downstream arrives nested.
  @Test func zipDeliversOnTheCompletingThreadAndNestsReentrantValues() {
    let sources = [Source(), Source(), Source()]
    let events = Mutex<[String]>([])
    let threads = Mutex<[String: ObjectIdentifier]>([:])
    let cancellable = sources.zip().sink(
      receiveCompletion: { _ in },
      receiveValue: { values in
        let name = values.map(String.init).joined()
        events.withLock { $0.append("begin \(name)") }
        threads.withLock { $0[name] = ObjectIdentifier(Thread.current) }
        if values == [1, 2, 3] {
          sources[0].send(4)
          sources[1].send(5)
          sources[2].send(6)
        }
        events.withLock { $0.append("end \(name)") }
      }
    )
    sources[0].send(1)
    sources[1].send(2)
    let sender = Mutex<ObjectIdentifier?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      sources[2].send(3)
      sender.withLock { $0 = ObjectIdentifier(Thread.current) }
      done.signal()
    }
    done.wait()
    #expect(events.withLock { $0 } == ["begin 123", "begin 456", "end 456", "end 123"])
    #expect(threads.withLock { $0["123"] } == sender.withLock { $0 })
    #expect(threads.withLock { $0["456"] } == sender.withLock { $0 })
    cancellable.cancel()
  }

  /// As Combine's combineLatest does: a value sent from inside downstream becomes its publisher's latest without
  /// being emitted.
  @Test func combineLatestKeepsAReentrantValueWithoutEmittingIt() {
    let sources = [Source(), Source()]
    let subscriber = TestSubscriber<[Int], ExtTestError>(onValue: { _, values in
      if values == [1, 2] { sources[0].send(3) }
      return .none
    })
    sources.combineLatest().subscribe(subscriber)
    sources[0].send(1)
    sources[1].send(2)
    sources[1].send(4)
    expectEqual(subscriber.values, [[1, 2], [3, 4]])
    expectEqual(subscriber.overlappingDeliveries, 0)
  }

  @Test func merge() {
    let sources = [Source(), Source()]
    let subscriber = TestSubscriber<Int, ExtTestError>()
    sources.merge().subscribe(subscriber)
    sources[1].send(2)
    sources[0].send(1)
    sources[0].send(completion: .finished)
    #expect(subscriber.values == [2, 1] && !subscriber.isCompleted)
    sources[1].send(completion: .failure(.other))
    expectEqual(subscriber.completion, .failure(.other))
    let empty = TestSubscriber<Int, ExtTestError>()
    [Source]().merge().subscribe(empty)
    expectEqual(empty.eventDescriptions, ["subscription", "finished"])
  }

  @Test func demand() {
    let sources = [Source(), Source()]
    let zipped = TestSubscriber<[Int], ExtTestError>(initialDemand: .max(2))
    sources.zip().subscribe(zipped)
    #expect(sources.allSatisfy { $0.requestedDemands == [.max(2)] })
    // Each request goes to every publisher, as with Combine's zip and combineLatest; so does the demand a delivery
    // returns.
    let combineSources = [Source(), Source(), Source()]
    let combined = TestSubscriber<[Int], ExtTestError>(initialDemand: .max(1), demandPerValue: .max(1))
    combineSources[0].combineLatest(with: combineSources.dropFirst()).subscribe(combined)
    for (index, source) in combineSources.enumerated() { source.send(index) }
    expectEqual(combined.values, [[0, 1, 2]])
    #expect(combineSources.allSatisfy { $0.totalDemand == .max(2) })
    combined.request(.max(3))
    #expect(combineSources.allSatisfy { $0.totalDemand == .max(5) })
    let merged = TestSubscriber<Int, ExtTestError>(initialDemand: .max(2))
    let mergeSources = [Source(), Source()]
    mergeSources.merge().subscribe(merged)
    // As Combine's MergeMany does, one value at a time from each.
    expectEqual(mergeSources.map(\.requestedDemands), [[.max(1)], [.max(1)]])
  }

  @Test func cancellationReentrancyAndMemory() {
    let sources = [Source(), Source()]
    let subscriber = TestSubscriber<[Int], ExtTestError>(onValue: { subscriber, _ in
      subscriber.cancel()
      return .none
    })
    sources.combineLatest().subscribe(subscriber)
    sources[0].send(1)
    sources[1].send(2)
    sources[1].send(3)
    expectEqual(subscriber.values, [[1, 2]])
    #expect(sources.allSatisfy { $0.cancelCount == 1 })

    for make in [
      { (upstream: ExtUpstream) in upstream.zip(with: Just(0).setFailureType(to: ExtTestError.self)) },
      { (upstream: ExtUpstream) in upstream.combineLatest(with: Just(0).setFailureType(to: ExtTestError.self)) },
      { (upstream: ExtUpstream) in
        [upstream.eraseToAnyPublisher(), Empty().eraseToAnyPublisher()].merge().map { [$0] }.eraseToAnyPublisher()
      },
    ] {
      #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(completion: .finished) }))
      #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }))
    }
  }

  @Test func contract() {
    expectContract("zip") { [[1, 2].publisher, [3, 4, 5].publisher].zip() }
    expectContract("combineLatest") { [[1, 2].publisher, [3, 4, 5].publisher].combineLatest() }
    expectContract("merge") { [[1, 2].publisher, [3, 4, 5].publisher].merge() }
  }

  @Test func publicSurface() {
    let just = Just(1)
    let _: AnyPublisher<[Int], Never> = just.zip(with: [Just(2)])
    let _: AnyPublisher<[Int], Never> = just.zip(with: Just(2), Just(3))
    let _: AnyPublisher<[Int], Never> = [just].zip()
    let _: AnyPublisher<[Int], Never> = just.combineLatest(with: [Just(2)])
    let _: AnyPublisher<[Int], Never> = just.combineLatest(with: Just(2), Just(3))
    let _: AnyPublisher<[Int], Never> = [just].combineLatest()
    let _: AnyPublisher<Int, Never> = [just].merge()
    // Combine's own zip and combineLatest still resolve.
    let _: Publishers.Zip<Just<Int>, Just<Int>> = just.zip(Just(2))
    let _: Publishers.CombineLatest<Just<Int>, Just<Int>> = just.combineLatest(Just(2))
  }
}
