import Foundation
import RillTestSupport
import RillTesting
import Synchronization
import Testing

@testable import RillCore

/// What one subscriber saw, in order: `begin X` and `end X` around each value, the completion, and the thread each
/// arrived on.
private final class ZipDeliveryLog: @unchecked Sendable {
  // SAFETY: all mutable state is in `state`.
  private let state = StressLocked<[(event: String, thread: ObjectIdentifier)]>([])
  private let subscriptionBox = StressLocked<(any Subscription)?>(nil)

  /// The subscription the subscriber received.
  var subscription: (any Subscription)? { subscriptionBox.withLock { $0 } }

  func record(_ event: String) {
    state.withLock { $0.append((event, ObjectIdentifier(Thread.current))) }
  }

  var events: [String] { state.withLock { $0.map(\.event) } }

  func thread(of event: String) -> ObjectIdentifier? {
    state.withLock { entries in entries.first { $0.event == event }?.thread }
  }

  /// A subscriber that logs each value between `begin` and `end`, runs `body` in between, and returns what it
  /// returns.
  func subscriber<Value: CustomStringConvertible>(
    initialDemand: Subscribers.Demand = .unlimited,
    _ body: @escaping (Value) -> Subscribers.Demand = { _ in .none }
  ) -> AnySubscriber<Value, CombiningError> {
    AnySubscriber(
      receiveSubscription: { subscription in
        self.subscriptionBox.withLock { $0 = subscription }
        subscription.request(initialDemand)
      },
      receiveValue: { value in
        self.record("begin \(value)")
        let more = body(value)
        self.record("end \(value)")
        return more
      },
      receiveCompletion: { completion in
        switch completion {
        case .finished: self.record("finished")
        case .failure(let error): self.record("failure(\(error))")
        }
      }
    )
  }
}

/// Runs `body` on a new thread; `wait()` on the result waits until it has returned.
@discardableResult private func onZipThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
  let done = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    body()
    done.signal()
  }
  return done
}

private typealias Numbers = TestPublisher<Int, CombiningError>
private typealias Letters = TestPublisher<String, CombiningError>

/// A pair as the logs show it: "1a".
private struct Pair: CustomStringConvertible {
  let number: Int
  let letter: String
  var description: String { "\(number)\(letter)" }
}

/// Combine's delivery model for `zip`: a tuple goes downstream on the thread whose value completed it, before that
/// value's `receive` returns; an event from another thread waits for a delivery in progress; a value sent from
/// inside downstream is handled at once, nested.
@Suite(.timeLimit(.minutes(1))) struct ZipDeliveryTests {
  private struct Pipeline {
    let numbers = Numbers()
    let letters = Letters()
    let log = ZipDeliveryLog()

    init(_ body: @escaping (Pair) -> Subscribers.Demand = { _ in .none }) {
      numbers.zip(letters).map { Pair(number: $0, letter: $1) }.subscribe(log.subscriber(body))
    }
  }

  @Test func aTupleArrivesOnTheThreadWhoseValueCompletedItBeforeThatValueReturns() {
    let pipe = Pipeline()
    let seen = StressLocked<(ObjectIdentifier?, [String])>((nil, []))
    onZipThread { pipe.numbers.send(1) }.wait()
    onZipThread {
      pipe.letters.send("a")
      seen.withLock { $0 = (ObjectIdentifier(Thread.current), pipe.log.events) }
    }.wait()
    let (thread, eventsWhenReturned) = seen.withLock { $0 }
    expectEqual(eventsWhenReturned, ["begin 1a", "end 1a"])
    expectEqual(pipe.log.thread(of: "begin 1a"), thread)
  }

  @Test func aValueFromInsideDownstreamThatCompletesATupleIsDeliveredNested() {
    let box = StressLocked<Pipeline?>(nil)
    let pipe = Pipeline { pair in
      guard pair.number == 1, let pipe = box.withLock({ $0 }) else { return .none }
      pipe.numbers.send(2)
      pipe.letters.send("b")
      // When the send returns, its tuple has been delivered.
      pipe.log.record("sent b")
      return .none
    }
    box.withLock { $0 = pipe }
    pipe.numbers.send(1)
    pipe.letters.send("a")
    expectEqual(pipe.log.events, ["begin 1a", "begin 2b", "end 2b", "sent b", "end 1a"])
  }

  @Test func aFinishFromInsideDownstreamFollowsTheDeliveryInProgress() {
    let box = StressLocked<Pipeline?>(nil)
    let pipe = Pipeline { _ in
      box.withLock { $0 }?.numbers.send(completion: .finished)
      return .none
    }
    box.withLock { $0 = pipe }
    pipe.numbers.send(1)
    pipe.letters.send("a")
    expectEqual(pipe.log.events, ["begin 1a", "end 1a", "finished"])
    #expect(pipe.letters.isCancelled)
  }

  @Test func aFailureFromInsideDownstreamIsDeliveredNestedAndNothingFollows() {
    let box = StressLocked<Pipeline?>(nil)
    let pipe = Pipeline { _ in
      guard let pipe = box.withLock({ $0 }) else { return .none }
      pipe.numbers.send(completion: .failure(.boom))
      pipe.numbers.send(2)
      pipe.letters.send("b")
      return .max(1)
    }
    box.withLock { $0 = pipe }
    pipe.numbers.send(1)
    expectEqual(pipe.letters.send("a"), .none)
    expectEqual(pipe.log.events, ["begin 1a", "failure(boom)", "end 1a"])
    #expect(pipe.numbers.isCancelled && pipe.letters.isCancelled)
  }

  @Test func aCompletionFromAnotherThreadWaitsForTheDeliveryInProgressThenArrivesOnItsOwnThread() {
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let pipe = Pipeline { _ in
      inReceive.signal()
      release.wait()
      return .none
    }
    pipe.numbers.send(1)
    let delivering = onZipThread { pipe.letters.send("a") }
    inReceive.wait()
    let entered = Atomic<Bool>(false)
    let failingThread = StressLocked<ObjectIdentifier?>(nil)
    let seenWhenReturned = StressLocked<[String]>([])
    let numbers = StressUnchecked(pipe.numbers.subscribers[0])
    let failing = onZipThread {
      failingThread.withLock { $0 = ObjectIdentifier(Thread.current) }
      entered.store(true, ordering: .sequentiallyConsistent)
      numbers.value.receive(completion: .failure(.boom))
      seenWhenReturned.withLock { $0 = pipe.log.events }
    }
    #expect(waitUntil { entered.load(ordering: .sequentiallyConsistent) })
    release.signal()
    delivering.wait()
    failing.wait()
    expectEqual(pipe.log.events, ["begin 1a", "end 1a", "failure(boom)"])
    #expect(seenWhenReturned.withLock { $0 } == pipe.log.events)
    #expect(pipe.log.thread(of: "failure(boom)") == failingThread.withLock { $0 })
  }

  @Test func aValueFromAnotherThreadWaitsForTheDeliveryInProgress() {
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let pipe = Pipeline { pair in
      guard pair.number == 1 else { return .none }
      inReceive.signal()
      release.wait()
      return .none
    }
    pipe.numbers.send(1)
    let delivering = onZipThread { pipe.letters.send("a") }
    inReceive.wait()
    let seenWhenReturned = StressLocked<[String]>([])
    let entered = Atomic<Bool>(false)
    let sending = onZipThread {
      entered.store(true, ordering: .sequentiallyConsistent)
      pipe.numbers.send(2)
      seenWhenReturned.withLock { $0 = pipe.log.events }
    }
    #expect(waitUntil { entered.load(ordering: .sequentiallyConsistent) })
    release.signal()
    delivering.wait()
    sending.wait()
    // The value's `receive` returned only after the delivery in progress.
    #expect(seenWhenReturned.withLock { $0 } == ["begin 1a", "end 1a"])
    pipe.letters.send("b")
    expectEqual(pipe.log.events, ["begin 1a", "end 1a", "begin 2b", "end 2b"])
  }

  @Test(.tags(.stress)) func concurrentUpstreamsNeverOverlapAndEachTupleArrivesOnAThreadThatSentIt() {
    let count = StressThreads.scaled(5_000)
    let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    let threads = StressLocked<[ObjectIdentifier]>([])
    let recorder = TestSubscriber<(Int, Int, Int), Never>()
    let arrivals = StressLocked<[ObjectIdentifier]>([])
    subjects[0].zip(subjects[1], subjects[2]).handleEvents(receiveOutput: { _ in
      arrivals.withLock { $0.append(ObjectIdentifier(Thread.current)) }
    }).subscribe(recorder)
    #expect(
      StressThreads.run(3) { producer in
        threads.withLock { $0.append(ObjectIdentifier(Thread.current)) }
        for value in 0..<count { subjects[producer].send(value) }
      }
    )
    expectEqual(recorder.overlappingDeliveries, 0)
    expectEqual(recorder.values.map(\.0), Array(0..<count))
    expectEqual(recorder.values.map(\.2), Array(0..<count))
    let producers = Set(threads.withLock { $0 })
    #expect(arrivals.withLock { $0 }.allSatisfy { producers.contains($0) })
  }
}

/// Combine's delivery model for `combineLatest`: a combination goes downstream on the thread whose value made it,
/// before that value's `receive` returns; a value that arrives while a combination is being delivered, from any
/// thread, becomes its upstream's latest without being emitted, and its `receive` returns at once.
@Suite(.timeLimit(.minutes(1))) struct CombineLatestDeliveryTests {
  private struct Pipeline {
    let numbers = Numbers()
    let letters = Letters()
    let log = ZipDeliveryLog()

    init(demand: Subscribers.Demand = .unlimited, _ body: @escaping (Pair) -> Subscribers.Demand = { _ in .none }) {
      numbers.combineLatest(letters).map { Pair(number: $0, letter: $1) }.subscribe(
        log.subscriber(initialDemand: demand, body)
      )
    }
  }

  @Test func aCombinationArrivesOnTheThreadWhoseValueMadeItBeforeThatValueReturns() {
    let pipe = Pipeline()
    pipe.numbers.send(1)
    let seen = StressLocked<(ObjectIdentifier?, [String])>((nil, []))
    onZipThread {
      pipe.letters.send("a")
      seen.withLock { $0 = (ObjectIdentifier(Thread.current), pipe.log.events) }
    }.wait()
    let (thread, eventsWhenReturned) = seen.withLock { $0 }
    expectEqual(eventsWhenReturned, ["begin 1a", "end 1a"])
    expectEqual(pipe.log.thread(of: "begin 1a"), thread)
  }

  /// As in Combine: the value is kept as the latest, and the next combination uses it.
  @Test func aValueFromInsideDownstreamIsKeptButNotEmitted() {
    let box = StressLocked<Pipeline?>(nil)
    let pipe = Pipeline { pair in
      if pair.number == 1 { #expect(box.withLock { $0 }?.numbers.send(2) == Subscribers.Demand.none) }
      return .none
    }
    box.withLock { $0 = pipe }
    pipe.numbers.send(1)
    pipe.letters.send("a")
    pipe.letters.send("b")
    expectEqual(pipe.log.events, ["begin 1a", "end 1a", "begin 2b", "end 2b"])
  }

  /// As in Combine, the value does not wait for the busy subscriber: it is kept as the latest, and not emitted
  /// although downstream has demand.
  @Test func aValueFromAnotherThreadDuringADeliveryReturnsAtOnceWithoutBeingEmitted() {
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let pipe = Pipeline { pair in
      guard pair.number == 1 else { return .none }
      inReceive.signal()
      release.wait()
      return .none
    }
    pipe.numbers.send(1)
    let delivering = onZipThread { pipe.letters.send("a") }
    inReceive.wait()
    // Returns while "1a" is still being delivered.
    onZipThread { pipe.numbers.send(2) }.wait()
    release.signal()
    delivering.wait()
    expectEqual(pipe.log.events, ["begin 1a", "end 1a"])
    pipe.letters.send("b")
    expectEqual(pipe.log.events, ["begin 1a", "end 1a", "begin 2b", "end 2b"])
  }

  @Test func demandIsJudgedWhenTheValueArrives() {
    let pipe = Pipeline(demand: .max(1))
    pipe.numbers.send(1)
    pipe.letters.send("a")
    pipe.letters.send("b")
    // "1b" found no demand: demand that comes later does not bring it back.
    pipe.log.subscription?.request(.max(1))
    expectEqual(pipe.log.events, ["begin 1a", "end 1a"])
    pipe.numbers.send(2)
    expectEqual(pipe.log.events, ["begin 1a", "end 1a", "begin 2b", "end 2b"])
  }

  @Test func aFinishFromInsideDownstreamIsDeliveredNested() {
    let box = StressLocked<Pipeline?>(nil)
    let pipe = Pipeline { _ in
      guard let pipe = box.withLock({ $0 }) else { return .none }
      pipe.numbers.send(completion: .finished)
      pipe.letters.send(completion: .finished)
      return .none
    }
    box.withLock { $0 = pipe }
    pipe.numbers.send(1)
    pipe.letters.send("a")
    expectEqual(pipe.log.events, ["begin 1a", "finished", "end 1a"])
  }

  @Test func aFailureFromAnotherThreadWaitsForTheDeliveryInProgressThenArrivesOnItsOwnThread() {
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let pipe = Pipeline { _ in
      inReceive.signal()
      release.wait()
      return .none
    }
    pipe.numbers.send(1)
    let delivering = onZipThread { pipe.letters.send("a") }
    inReceive.wait()
    let entered = Atomic<Bool>(false)
    let failingThread = StressLocked<ObjectIdentifier?>(nil)
    let seenWhenReturned = StressLocked<[String]>([])
    let numbers = StressUnchecked(pipe.numbers.subscribers[0])
    let failing = onZipThread {
      failingThread.withLock { $0 = ObjectIdentifier(Thread.current) }
      entered.store(true, ordering: .sequentiallyConsistent)
      numbers.value.receive(completion: .failure(.boom))
      seenWhenReturned.withLock { $0 = pipe.log.events }
    }
    #expect(waitUntil { entered.load(ordering: .sequentiallyConsistent) })
    release.signal()
    delivering.wait()
    failing.wait()
    expectEqual(pipe.log.events, ["begin 1a", "end 1a", "failure(boom)"])
    #expect(seenWhenReturned.withLock { $0 } == pipe.log.events)
    #expect(pipe.log.thread(of: "failure(boom)") == failingThread.withLock { $0 })
    #expect(pipe.letters.isCancelled)
  }

  @Test(.tags(.stress)) func concurrentUpstreamsNeverOverlapAndNoCombinationFollowsTheCompletion() {
    let count = StressThreads.scaled(5_000)
    let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = TestSubscriber<(Int, Int, Int), Never>()
    subjects[0].combineLatest(subjects[1], subjects[2]).subscribe(recorder)
    for subject in subjects { subject.send(-1) }
    #expect(
      StressThreads.run(3) { producer in
        for value in 0..<count { subjects[producer].send(value) }
        subjects[producer].send(completion: .finished)
      }
    )
    expectEqual(recorder.overlappingDeliveries, 0)
    expectEqual(recorder.completions, [.finished])
    expectEqual(recorder.eventDescriptions.last, "finished")
    let values = recorder.values
    #expect(!values.isEmpty && values.count <= 1 + 3 * count)
    for column in [values.map(\.0), values.map(\.1), values.map(\.2)] { #expect(column == column.sorted()) }
  }
}
