import Foundation
import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct ReplaySubjectTests {
  typealias Recorder = TestSubscriber<Int, ExtTestError>

  static func subject(_ bufferSize: Int, sending values: [Int] = []) -> ReplaySubject<Int, ExtTestError> {
    let subject = ReplaySubject<Int, ExtTestError>(bufferSize: bufferSize)
    for value in values { subject.send(value) }
    return subject
  }

  @Test func docMarble() {
    // -1-2-3-----4-| with a subscriber arriving after 3 sees [23] then 4 and the completion.
    let subject = Self.subject(2, sending: [1, 2, 3])
    let late = Recorder()
    subject.subscribe(late)
    subject.send(4)
    subject.send(completion: .finished)
    expectEqual(late.eventDescriptions, ["subscription", "value(2)", "value(3)", "value(4)", "finished"])
  }

  @Test(arguments: [(0, [Int]()), (1, [4]), (3, [2, 3, 4]), (10, [1, 2, 3, 4])])
  func replaysTheLatestValuesUpToTheBufferSize(bufferSize: Int, replayed: [Int]) {
    let subject = Self.subject(bufferSize, sending: [1, 2, 3, 4])
    let recorder = Recorder()
    subject.subscribe(recorder)
    subject.send(5)
    expectEqual(recorder.values, replayed + [5])
    #expect(!recorder.isCompleted)
  }

  @Test func aNegativeBufferSizeReplaysNothing() {
    let subject = Self.subject(-1, sending: [1])
    let recorder = Recorder()
    subject.subscribe(recorder)
    expectEqual(recorder.values, [])
  }

  @Test func everySubscriberGetsTheSameReplayAndLiveValues() {
    let subject = Self.subject(3, sending: [1, 2])
    let recorders = (0..<3).map { _ in Recorder() }
    for recorder in recorders { subject.subscribe(recorder) }
    subject.send(3)
    for recorder in recorders { #expect(recorder.values == [1, 2, 3]) }
  }

  @Test func aCompletionBeforeTheSubscriptionIsReplayedAfterTheValues() {
    let subject = Self.subject(2, sending: [1, 2, 3])
    subject.send(completion: .finished)
    subject.send(4)
    subject.send(completion: .failure(.upstream))
    let recorder = Recorder()
    subject.subscribe(recorder)
    expectEqual(recorder.eventDescriptions, ["subscription", "value(2)", "value(3)", "finished"])
  }

  @Test func aFailureReachesLiveAndLateSubscribers() {
    let subject = Self.subject(1, sending: [1])
    let live = Recorder()
    subject.subscribe(live)
    subject.send(completion: .failure(.upstream))
    let late = Recorder()
    subject.subscribe(late)
    expectEqual(live.eventDescriptions, ["subscription", "value(1)", "failure(upstream)"])
    expectEqual(late.eventDescriptions, ["subscription", "value(1)", "failure(upstream)"])
  }

  @Test func aCompletionWithoutDemandArrivesAtOnceWhenNothingIsQueued() {
    let subject = Self.subject(0, sending: [1])
    let recorder = Recorder(initialDemand: .none)
    subject.subscribe(recorder)
    subject.send(completion: .finished)
    expectEqual(recorder.eventDescriptions, ["subscription", "finished"])
  }

  /// As in CombineExt: the completion does not wait for demand for the values still queued, which are dropped.
  @Test func theCompletionFollowsTheValuesASubscriberHasDemandFor() {
    let subject = Self.subject(4, sending: [1, 2, 3, 4])
    let recorder = Recorder(initialDemand: .max(3))
    subject.subscribe(recorder)
    expectEqual(recorder.values, [1, 2, 3])
    subject.send(5)
    #expect(!recorder.isCompleted)
    subject.send(completion: .finished)
    expectEqual(recorder.eventDescriptions, ["subscription", "value(1)", "value(2)", "value(3)", "finished"])
    recorder.request(.max(2))
    expectEqual(recorder.values, [1, 2, 3])

    // A subscriber that comes after the completion gets the kept values its demand covers, the demand it returns
    // along the way included, then the completion.
    let late = Recorder(initialDemand: .max(1))
    subject.subscribe(late)
    expectEqual(late.eventDescriptions, ["subscription", "value(2)", "finished"])
    let oneAtATime = Recorder(initialDemand: .max(1), demandPerValue: .max(1))
    subject.subscribe(oneAtATime)
    #expect(
      oneAtATime.eventDescriptions == ["subscription", "value(2)", "value(3)", "value(4)", "value(5)", "finished"]
    )
    // One that has not requested yet keeps the kept values, and gets the completion after its first request, as
    // with CombineExt's replay subject.
    let none = Recorder(initialDemand: .none)
    subject.subscribe(none)
    expectEqual(none.eventDescriptions, ["subscription"])
    none.request(.max(1))
    expectEqual(none.eventDescriptions, ["subscription", "value(2)", "finished"])
  }

  @Test func demandReturnedFromAValueCountsAndASlowSubscriberDoesNotHoldUpAFastOne() {
    let subject = Self.subject(2, sending: [1, 2])
    let slow = Recorder(initialDemand: .max(1))
    let oneAtATime = Recorder(initialDemand: .max(1), demandPerValue: .max(1))
    subject.subscribe(slow)
    subject.subscribe(oneAtATime)
    subject.send(3)
    expectEqual(slow.values, [1])
    expectEqual(oneAtATime.values, [1, 2, 3])
    slow.request(.unlimited)
    expectEqual(slow.values, [1, 2, 3])
    subject.send(4)
    expectEqual(slow.values, [1, 2, 3, 4])
  }

  @Test func requestsTheUnlimitedDemandOfASubjectFromUpstream() {
    let upstream = ExtUpstream()
    let subject = Self.subject(1)
    let link = upstream.subscribe(subject)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(1)
    upstream.send(completion: .finished)
    let recorder = Recorder()
    subject.subscribe(recorder)
    expectEqual(recorder.eventDescriptions, ["subscription", "value(1)", "finished"])
    link.cancel()
  }

  @Test func nothingArrivesAfterCancel() {
    let subject = Self.subject(2, sending: [1, 2])
    let recorder = Recorder(initialDemand: .max(1))
    subject.subscribe(recorder)
    recorder.cancel()
    recorder.request(.unlimited)
    subject.send(3)
    subject.send(completion: .finished)
    expectEqual(recorder.eventDescriptions, ["subscription", "value(1)"])
  }

  @Test func cancellingFromInsideAValueStopsTheReplay() {
    let subject = Self.subject(3, sending: [1, 2, 3])
    let recorder = Recorder(onValue: { recorder, _ in
      recorder.cancel()
      return .none
    })
    subject.subscribe(recorder)
    subject.send(4)
    expectEqual(recorder.values, [1])
  }

  /// As with Combine's subjects and CombineExt's replay subject, a send from inside a subscriber is delivered at
  /// once, nested: the subscribers after it get the nested values first.
  @Test func aSendFromInsideADeliveryIsDeliveredNested() {
    let subject = Self.subject(1)
    let recorder = Recorder(onValue: { [subject] _, value in
      if value < 3 { subject.send(value + 1) }
      return .none
    })
    let other = Recorder()
    subject.subscribe(recorder)
    subject.subscribe(other)
    subject.send(1)
    expectEqual(recorder.values, [1, 2, 3])
    expectEqual(other.values, [3, 2, 1])
  }

  /// The demand a subscriber returns for a value reaches the values queued for it meanwhile: a send from inside
  /// `receive(_:)` that found no demand is delivered once the subscriber returns more, with nothing else to wake it.
  @Test func demandReturnedFromAValueDeliversWhatWasQueuedMeanwhile() {
    let subject = Self.subject(1)
    let recorder = Recorder(
      initialDemand: .max(1),
      onValue: { [subject] _, value in
        if value == 1 { subject.send(2) }
        return .max(1)
      }
    )
    subject.subscribe(recorder)
    subject.send(1)
    expectEqual(recorder.values, [1, 2])
    subject.send(3)
    expectEqual(recorder.values, [1, 2, 3])
  }

  /// A completion sent from inside a delivery reaches the other subscribers at once; the value being sent no longer
  /// reaches those after the sender, as with Combine's subjects.
  @Test func aCompletionSentFromInsideADeliveryReachesTheOtherSubscribersAtOnce() {
    let subject = Self.subject(0)
    let first = Recorder(onValue: { [subject] _, _ in
      subject.send(completion: .finished)
      return .none
    })
    let second = Recorder()
    subject.subscribe(first)
    subject.subscribe(second)
    subject.send(1)
    expectEqual(first.eventDescriptions, ["subscription", "value(1)", "finished"])
    expectEqual(second.eventDescriptions, ["subscription", "finished"])
  }

  @Test func aSubscriberCancelledBeforeASendReachesItGetsNothingAndIsFreed() {
    let subject = Self.subject(1)
    weak var weakSecond: Recorder?
    var second: Recorder? = Recorder()
    weakSecond = second
    let first = Recorder(onValue: { _, _ in
      #expect(second?.values ?? [] == [])
      second?.cancel()
      second = nil
      return .none
    })
    subject.subscribe(first)
    subject.subscribe(second!)
    subject.send(1)
    subject.send(2)
    expectEqual(first.values, [1, 2])
    #expect(weakSecond == nil)
  }

  @Test func aSubscriberAddedFromInsideADeliveryGetsTheReplayThenTheLiveValues() {
    let subject = Self.subject(1)
    let late = Recorder()
    let first = Recorder(onValue: { [subject] _, value in
      if value == 1 { subject.subscribe(late) }
      return .none
    })
    subject.subscribe(first)
    subject.send(1)
    subject.send(2)
    expectEqual(first.values, [1, 2])
    expectEqual(late.values, [1, 2])
  }

  @Test func aValueThatLeavesTheReplayBufferIsReleased() {
    final class Box: Sendable {}
    let subject = ReplaySubject<Box, Never>(bufferSize: 1)
    weak var weakFirst: Box?
    do {
      let first = Box()
      weakFirst = first
      subject.send(first)
    }
    #expect(weakFirst != nil)
    subject.send(Box())
    #expect(weakFirst == nil)
  }

  @Test func requestingFromInsideAValueDoesNotRecurse() {
    let subject = Self.subject(5, sending: [1, 2, 3, 4, 5])
    var depth = 0
    var maxDepth = 0
    let recorder = Recorder(
      initialDemand: .max(1),
      onValue: { recorder, _ in
        depth += 1
        maxDepth = max(maxDepth, depth)
        recorder.request(.max(1))
        depth -= 1
        return .none
      }
    )
    subject.subscribe(recorder)
    expectEqual(recorder.values, [1, 2, 3, 4, 5])
    expectEqual(maxDepth, 1)
  }

  @Test func requestingFromInsideTheSubscriptionGetsTheReplayAfterIt() {
    let subject = Self.subject(2, sending: [1, 2])
    let recorder = Recorder(
      initialDemand: .none,
      onSubscription: { _, subscription in
        subscription.request(.max(1))
        subject.send(3)
      }
    )
    subject.subscribe(recorder)
    expectEqual(recorder.eventDescriptions, ["subscription", "value(1)"])
    recorder.request(.unlimited)
    expectEqual(recorder.values, [1, 2, 3])
  }

  @Test func subscribingTheSameSinkTwiceDeliversOnce() {
    let subject = Self.subject(1, sending: [1])
    subject.send(completion: .finished)
    let recorder = Recorder()
    subject.subscribe(recorder)
    subject.subscribe(recorder)
    expectEqual(recorder.values, [1])
    expectEqual(recorder.completionCount, 1)
  }

  @Test func keepsTheContract() {
    expectContract("replay, live", { Self.subject(2, sending: [1, 2, 3]) as ReplaySubject }, drive: { _ in })
    let live = Self.subject(2, sending: [1, 2, 3])
    expectContract(
      "replay then live",
      { live },
      drive: { _ in
        live.send(4)
        live.send(5)
      }
    )
    expectContract(
      "completed",
      {
        let subject = Self.subject(2, sending: [1, 2, 3])
        subject.send(completion: .failure(.upstream))
        return subject
      }
    )
  }

  @Test func theSubscriptionIsFreedAfterCompletionAndAfterCancel() {
    for cancel in [false, true] {
      weak var weakSubject: ReplaySubject<Int, ExtTestError>?
      weak var weakSubscription: AnyObject?
      weak var weakRecorder: Recorder?
      do {
        let subject = Self.subject(2, sending: [1, 2])
        let recorder = Recorder(initialDemand: .max(1))
        subject.subscribe(recorder)
        weakSubject = subject
        weakRecorder = recorder
        weakSubscription = recorder.subscription as AnyObject?
        if cancel { recorder.cancel() } else { subject.send(completion: .finished) }
        if !cancel { recorder.request(.unlimited) }
      }
      #expect(weakSubject == nil, "cancel: \(cancel)")
      #expect(weakSubscription == nil, "cancel: \(cancel)")
      #expect(weakRecorder == nil, "cancel: \(cancel)")
    }
  }

  @Test func theSubjectKeepsItsSubscribersUntilTheyEnd() {
    weak var weakRecorder: Recorder?
    let subject = Self.subject(1)
    do {
      let recorder = Recorder()
      subject.subscribe(recorder)
      weakRecorder = recorder
    }
    #expect(weakRecorder != nil)
    subject.send(completion: .finished)
    #expect(weakRecorder == nil)
  }

  // MARK: - Combine's delivery model

  @Test(.timeLimit(.minutes(1))) func aValueIsDeliveredOnTheThreadThatSendsItBeforeSendReturns() {
    let subject = Self.subject(1)
    let threads = ThreadLog<[ObjectIdentifier]>([])
    let recorder = Recorder(onValue: { _, _ in
      threads.withLock { $0.append(ObjectIdentifier(Thread.current)) }
      return .none
    })
    subject.subscribe(recorder)
    let sender = ThreadLog<ObjectIdentifier?>(nil)
    let seen = ThreadLog<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      sender.withLock { $0 = ObjectIdentifier(Thread.current) }
      subject.send(1)
      seen.withLock { $0 = recorder.values }
      done.signal()
    }
    done.wait()
    #expect(seen.withLock { $0 } == [1])
    #expect(threads.withLock { $0 } == [sender.withLock { $0 }])
  }

  /// A long backlog taken one value at a time, with each request made from inside `receive(_:)`, is delivered at
  /// constant stack depth.
  @Test func aLongBacklogTakenOneAtATimeFromInsideReceiveDoesNotRecurse() {
    let count = 100_000
    let subject = Self.subject(count, sending: Array(0..<count))
    var depth = 0
    var maxDepth = 0
    var received = 0
    let recorder = Recorder(
      initialDemand: .max(1),
      onValue: { recorder, _ in
        depth += 1
        maxDepth = max(maxDepth, depth)
        received += 1
        recorder.request(.max(1))
        depth -= 1
        return .none
      }
    )
    subject.subscribe(recorder)
    expectEqual(received, count)
    expectEqual(maxDepth, 1)
  }

  @Test func aSubscriptionKeepsTheSubjectAliveUntilItIsCancelled() throws {
    weak var weakSubject: ReplaySubject<Int, ExtTestError>?
    let recorder = Recorder()
    do {
      let subject = Self.subject(1)
      weakSubject = subject
      subject.subscribe(recorder)
    }
    weakSubject?.send(1)
    expectEqual(recorder.values, [1])
    #expect(weakSubject != nil)
    try #require(recorder.subscription).cancel()
    #expect(weakSubject == nil)
  }
}

/// A value shared with the threads of a test.
private final class ThreadLog<Value>: @unchecked Sendable {
  // SAFETY: `value` is only touched with `lock` held.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { body(&value) }
  }
}
