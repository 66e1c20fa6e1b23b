import Foundation
import RillTestSupport
import RillTesting
import Synchronization
import Testing

@testable import RillCore

/// Combine's delivery model: a send is delivered on the sending thread before `send` returns, to each subscriber
/// that has demand at that moment; a send from another thread waits while the subscriber is busy; a send from
/// inside a subscriber is delivered at once, nested.
@Suite(.timeLimit(.minutes(1))) struct SubjectDeliveryTests {
  /// What one subscriber saw: each value, the thread it arrived on, and whether a call overlapped another.
  final class Log: @unchecked Sendable {
    private let state = StressLocked<[(value: String, thread: ObjectIdentifier)]>([])
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)

    func record(_ value: String) {
      if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 { overlaps.add(1, ordering: .relaxed) }
      state.withLock { $0.append((value, ObjectIdentifier(Thread.current))) }
      inside.subtract(1, ordering: .sequentiallyConsistent)
    }

    var values: [String] { state.withLock { $0.map(\.value) } }

    func thread(of value: String) -> ObjectIdentifier? {
      state.withLock { entries in entries.first { $0.value == value }?.thread }
    }
  }

  /// Runs `body` on a new thread; `wait()` on the result waits until it has returned.
  static func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      body()
      done.signal()
    }
    return done
  }

  /// A subscriber that blocks inside `receive("a")` until released, then returns `more`.
  static func blockingSubscriber(
    log: Log,
    initialDemand: Subscribers.Demand,
    more: Subscribers.Demand = .none,
    inReceive: DispatchSemaphore,
    release: DispatchSemaphore
  ) -> AnySubscriber<String, Never> {
    AnySubscriber(
      receiveSubscription: { $0.request(initialDemand) },
      receiveValue: { value in
        log.record(value)
        guard value == "a" else { return .none }
        inReceive.signal()
        release.wait()
        return more
      }
    )
  }

  @Test func aSendThatFindsNoDemandWhileTheSubscriberIsBusyIsDroppedEvenIfItReturnsMoreLater() {
    let subject = PassthroughSubject<String, Never>()
    let log = Log()
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    subject.subscribe(
      Self.blockingSubscriber(log: log, initialDemand: .max(1), more: .max(1), inReceive: inReceive, release: release)
    )
    let sentA = Self.onThread { subject.send("a") }
    inReceive.wait()
    // No demand now: dropped, and `send` returns without waiting for the busy subscriber.
    subject.send("b")
    release.signal()
    sentA.wait()
    expectEqual(log.values, ["a"])
    // The demand "a" returned is there for the next value.
    subject.send("c")
    expectEqual(log.values, ["a", "c"])
  }

  @Test func aSendFromAnotherThreadWaitsForTheBusySubscriberThenDeliversOnItsOwnThread() {
    let subject = PassthroughSubject<String, Never>()
    let log = Log()
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    subject.subscribe(
      Self.blockingSubscriber(log: log, initialDemand: .max(2), inReceive: inReceive, release: release)
    )
    let threadA = StressLocked<ObjectIdentifier?>(nil)
    let threadB = StressLocked<ObjectIdentifier?>(nil)
    let seenByB = StressLocked<[String]>([])
    let sentA = Self.onThread {
      threadA.withLock { $0 = ObjectIdentifier(Thread.current) }
      subject.send("a")
    }
    inReceive.wait()
    let sentB = Self.onThread {
      threadB.withLock { $0 = ObjectIdentifier(Thread.current) }
      subject.send("b")
      // When `send` returns, its value has been delivered.
      seenByB.withLock { $0 = log.values }
    }
    // "b" took the second demand at once; it waits for "a" to return.
    #expect(Self.waitUntil { subject.core.state.withLock { $0.demands[0].demand } == .none })
    expectEqual(log.values, ["a"])
    release.signal()
    sentA.wait()
    sentB.wait()
    expectEqual(log.values, ["a", "b"])
    #expect(seenByB.withLock { $0 } == ["a", "b"])
    #expect(log.thread(of: "a") == threadA.withLock { $0 })
    #expect(log.thread(of: "b") == threadB.withLock { $0 })
    expectEqual(log.overlaps.load(ordering: .relaxed), 0)
  }

  /// The second example, as Combine records it.
  @Test func reentrantSendsArriveNestedInCombinesOrder() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var completions = 0
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in completions += 1 },
      receiveValue: { value in
        if value < 3 { subject.send(value + 1) }
        received.append(value)
      }
    )
    subject.subscribe(sink)
    subject.send(1)
    subject.send(completion: .finished)
    expectEqual(received, [3, 2, 1])
    expectEqual(completions, 1)
  }

  @Test func aValueIsDeliveredOnTheThreadThatSentIt() {
    let subject = PassthroughSubject<String, Never>()
    let logs = [Log(), Log()]
    let cancellables = logs.map { log in subject.sink { log.record($0) } }
    let threads = StressLocked<[String: ObjectIdentifier]>([:])
    let done = (0..<4).map { thread in
      Self.onThread {
        threads.withLock { $0["\(thread)"] = ObjectIdentifier(Thread.current) }
        for index in 0..<200 { subject.send("\(thread)-\(index)") }
      }
    }
    for semaphore in done { semaphore.wait() }
    let senders = threads.withLock { $0 }
    for log in logs {
      expectEqual(log.values.count, 800)
      expectEqual(log.overlaps.load(ordering: .relaxed), 0)
      for thread in 0..<4 {
        let mine = log.values.filter { $0.hasPrefix("\(thread)-") }
        #expect(mine == (0..<200).map { "\(thread)-\($0)" })
        #expect(mine.allSatisfy { log.thread(of: $0) == senders["\(thread)"] })
      }
    }
    withExtendedLifetime(cancellables) {}
  }

  @Test func aCompletionFromAnotherThreadWaitsForTheDeliveryInProgressAndNothingFollowsIt() {
    let subject = PassthroughSubject<String, Never>()
    let log = Log()
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let subscriber = AnySubscriber<String, Never>(
      receiveSubscription: { $0.request(.unlimited) },
      receiveValue: { value in
        log.record(value)
        if value == "a" {
          inReceive.signal()
          release.wait()
        }
        return .none
      },
      receiveCompletion: { _ in log.record("finished") }
    )
    subject.subscribe(subscriber)
    let sentA = Self.onThread { subject.send("a") }
    inReceive.wait()
    let completed = Self.onThread { subject.send(completion: .finished) }
    #expect(Self.waitUntil { subject.core.state.withLock { $0.completion != nil } })
    subject.send("b")
    expectEqual(log.values, ["a"])
    release.signal()
    sentA.wait()
    completed.wait()
    expectEqual(log.values, ["a", "finished"])
  }

  @Test func aValueWaitingForTheDeliveryLockIsNotDeliveredOnceItsSubscriptionIsCancelled() throws {
    let subject = PassthroughSubject<String, Never>()
    let log = Log()
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let recorder = TestSubscriber<String, Never>(
      initialDemand: .max(2),
      onValue: { _, value in
        log.record(value)
        if value == "a" {
          inReceive.signal()
          release.wait()
        }
        return .none
      }
    )
    subject.subscribe(recorder)
    let sentA = Self.onThread { subject.send("a") }
    inReceive.wait()
    let sentB = Self.onThread { subject.send("b") }
    #expect(Self.waitUntil { subject.core.state.withLock { $0.demands[0].demand } == .none })
    try #require(recorder.subscription).cancel()
    release.signal()
    sentA.wait()
    sentB.wait()
    expectEqual(log.values, ["a"])
  }

  @Test func currentValueSubjectDeliversOnTheSendingThreadAndNestsReentrantSends() {
    let subject = CurrentValueSubject<Int, Never>(0)
    var received: [Int] = []
    let cancellable = subject.sink { value in
      if value > 0, value < 3 { subject.send(value + 1) }
      received.append(value)
    }
    subject.send(1)
    expectEqual(received, [0, 3, 2, 1])
    expectEqual(subject.value, 3)
    withExtendedLifetime(cancellable) {}
  }

  // MARK: - No count of values crashes

  // Re-entrant sends beyond the demand, on the main thread and on a Dispatch thread: RillTests' SubjectLoadTests.

  @Test func reentrantSendsWithDemandNestOneLevelEach() {
    // Each nested value is delivered at once; with demand for all of them the depth is the number of values sent
    // from inside, as in Combine, so this stays at a depth a thread's stack holds.
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.sink { value in
      if value < 1_000 { subject.send(value + 1) }
      received.append(value)
    }
    subject.send(0)
    expectEqual(received, Array((0...1_000).reversed()))
    withExtendedLifetime(cancellable) {}
  }

  @Test func manyThreadsSendingBehindASubscriberWithoutDemandDoNotQueueAnything() {
    let subject = PassthroughSubject<Int, Never>()
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { _, _ in
        inReceive.signal()
        release.wait()
        return .none
      }
    )
    subject.subscribe(recorder)
    let first = Self.onThread { subject.send(-1) }
    inReceive.wait()
    let senders = (0..<2).map { thread in
      Self.onThread { for index in 0..<25_000 { subject.send(thread * 25_000 + index) } }
    }
    for sender in senders { sender.wait() }
    release.signal()
    first.wait()
    expectEqual(recorder.values, [-1])
  }

  // MARK: - Ownership

  @Test(arguments: [false, true]) func aSubscriptionKeepsItsSubjectAliveUntilItIsCancelled(currentValue: Bool) throws {
    weak var weakSubject: AnyObject?
    let recorder = TestSubscriber<Int, Never>(initialDemand: .unlimited)
    do {
      if currentValue {
        let subject = CurrentValueSubject<Int, Never>(0)
        weakSubject = subject
        subject.subscribe(recorder)
      } else {
        let subject = PassthroughSubject<Int, Never>()
        weakSubject = subject
        subject.subscribe(recorder)
      }
    }
    #expect(weakSubject != nil)
    try #require(recorder.subscription).cancel()
    #expect(weakSubject == nil)
  }

  @Test(arguments: [false, true]) func aSubjectCapturedWeaklyByItsProducerKeepsDeliveringWhileSubscribed(
    completes: Bool
  ) {
    weak var weakSubject: PassthroughSubject<Int, Never>?
    let recorder = TestSubscriber<Int, Never>(initialDemand: .unlimited)
    do {
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      subject.subscribe(recorder)
    }
    weakSubject?.send(1)
    weakSubject?.send(2)
    expectEqual(recorder.values, [1, 2])
    if completes {
      weakSubject?.send(completion: .finished)
    } else {
      recorder.cancel()
    }
    #expect(weakSubject == nil)
  }

  @Test func aSubjectWithTwoSubscribersLivesUntilBothHaveLeft() {
    weak var weakSubject: PassthroughSubject<Int, Never>?
    var cancellables: [AnyCancellable] = []
    do {
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      cancellables = [subject.sink { _ in }, subject.sink { _ in }]
    }
    cancellables[0].cancel()
    #expect(weakSubject != nil)
    cancellables[1].cancel()
    #expect(weakSubject == nil)
  }

  /// Polls `condition`, yielding the thread, for at most ten seconds; the condition is the synchronisation.
  static func waitUntil(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while !condition() {
      if Date() > deadline { return false }
      sched_yield()
    }
    return true
  }
}
