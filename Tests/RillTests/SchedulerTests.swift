import Dispatch
import Foundation
import Rill
import RillTestSupport
import Synchronization
import Testing

@Suite struct DispatchQueueSchedulerTests {
  typealias Time = DispatchQueue.SchedulerTimeType
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride

  /// As in Combine, strides made from too many seconds, milliseconds or microseconds clamp to `Int`'s range.
  @Test func stridesFromTooLargeValuesClamp() {
    expectEqual(Stride.seconds(Double(Int.max) / 1_000_000_000).magnitude, .max)
    expectEqual(Stride.seconds(Double(Int.max) / 1_000_000_000 - 1).magnitude, 9_223_372_035_854_776_320)
    expectEqual(Stride.seconds(.greatestFiniteMagnitude).magnitude, .max)
    expectEqual(Stride.seconds(-Double.greatestFiniteMagnitude).magnitude, .min)
    expectEqual(Stride.seconds(Int.max).magnitude, .max)
    expectEqual(Stride.milliseconds(.max).magnitude, .max)
    expectEqual(Stride.microseconds(.max).magnitude, .max)
    expectEqual(Stride.nanoseconds(.max).magnitude, .max)
    expectEqual(Stride(.seconds(.min)).magnitude, .min)
    expectEqual(Stride(.milliseconds(.min)).magnitude, .min)
    expectEqual(Stride(.microseconds(.min)).magnitude, .min)
    expectEqual(Stride(.never).magnitude, .max)
    let literal: Stride = 9_223_372_037
    expectEqual(literal.magnitude, .max)
    expectEqual(Stride(exactly: Int.max)?.magnitude, .max)
    #expect(Stride(exactly: UInt64.max) == nil)
    expectEqual(Stride(exactly: 2 as UInt64)?.magnitude, 2_000_000_000)
  }

  @Test func strideArithmeticClamps() {
    expectEqual(Stride.nanoseconds(.max) + .nanoseconds(1), .nanoseconds(.max))
    expectEqual(Stride.nanoseconds(.min) + .nanoseconds(-1), .nanoseconds(.min))
    expectEqual(Stride.nanoseconds(.min) - .nanoseconds(1), .nanoseconds(.min))
    expectEqual(Stride.nanoseconds(.max) - .nanoseconds(-1), .nanoseconds(.max))
    var stride = Stride.nanoseconds(.max)
    stride += .seconds(1)
    expectEqual(stride, .nanoseconds(.max))
    stride = .nanoseconds(.min)
    stride -= .seconds(1)
    expectEqual(stride, .nanoseconds(.min))
    expectEqual(Stride.seconds(1_000_000) * .seconds(1_000_000), .nanoseconds(.max))
    expectEqual(Stride.seconds(-1_000_000) * .seconds(1_000_000), .nanoseconds(.min))
    expectEqual(Stride.nanoseconds(7) + .nanoseconds(-12), .nanoseconds(-5))
    expectEqual(Stride.nanoseconds(-12) - .nanoseconds(7), .nanoseconds(-19))
    expectEqual(Stride.nanoseconds(15) * .nanoseconds(2), .nanoseconds(0))
  }

  /// As in Combine, the nanoseconds are keyed `_nanoseconds`.
  @Test func strideEncodesItsNanosecondsUnderCombinesKey() throws {
    struct Box: Codable { let value: Stride }
    let data = try JSONEncoder().encode(Box(value: .nanoseconds(419_872)))
    #expect(String(decoding: data, as: UTF8.self) == #"{"value":{"_nanoseconds":419872}}"#)
    #expect(try JSONDecoder().decode(Box.self, from: data).value == .nanoseconds(419_872))
  }

  /// As in Combine, a distance too long for a stride is `.max` in either direction.
  @Test func timeDistanceClamps() {
    let early = Time(DispatchTime(uptimeNanoseconds: 10_000))
    let later = Time(DispatchTime(uptimeNanoseconds: 10_431))
    let distantFuture = Time(.distantFuture)
    let nearlyDistantFuture = Time(DispatchTime(uptimeNanoseconds: DispatchTime.distantFuture.uptimeNanoseconds - 1024))
    let intMax = Time(DispatchTime(uptimeNanoseconds: UInt64(Int.max)))
    expectEqual(early.distance(to: later), .nanoseconds(431))
    expectEqual(later.distance(to: early), .nanoseconds(-431))
    expectEqual(early.distance(to: distantFuture), .nanoseconds(.max))
    expectEqual(distantFuture.distance(to: early), .nanoseconds(.max))
    expectEqual(early.distance(to: nearlyDistantFuture), .nanoseconds(.max))
    expectEqual(nearlyDistantFuture.distance(to: early), .nanoseconds(.max))
    expectEqual(early.distance(to: intMax), .nanoseconds(.max - 10_000))
    expectEqual(intMax.distance(to: early), .nanoseconds(-(.max - 10_000)))
    expectEqual(distantFuture.distance(to: distantFuture), .nanoseconds(0))
    expectEqual(nearlyDistantFuture.distance(to: nearlyDistantFuture), .nanoseconds(0))
  }

  /// As with Dispatch's time arithmetic, advancing saturates at the distant future and at one nanosecond.
  @Test func timeAdvanceClamps() throws {
    let time = Time(DispatchTime(uptimeNanoseconds: 10_000))
    expectEqual(time.advanced(by: .nanoseconds(431)), Time(DispatchTime(uptimeNanoseconds: 10_431)))
    expectEqual(time.advanced(by: .nanoseconds(-220)), Time(DispatchTime(uptimeNanoseconds: 9_780)))
    expectEqual(time.advanced(by: .nanoseconds(.max)).dispatchTime, .distantFuture)
    #expect(
      Time(DispatchTime(uptimeNanoseconds: 1)).advanced(by: .nanoseconds(-1000)).dispatchTime.uptimeNanoseconds == 1
    )
    expectEqual(Time(.distantFuture).advanced(by: .seconds(-1)).dispatchTime, .distantFuture)
    let data = try JSONEncoder().encode(["value": Time(DispatchTime(uptimeNanoseconds: 42))])
    #expect(String(decoding: data, as: UTF8.self) == #"{"value":42}"#)
  }

  @Test func strideConversions() throws {
    expectEqual(Stride.seconds(2).magnitude, 2_000_000_000)
    expectEqual(Stride.seconds(0.5).magnitude, 500_000_000)
    expectEqual(Stride.milliseconds(300).magnitude, 300_000_000)
    expectEqual(Stride.microseconds(7).magnitude, 7_000)
    expectEqual(Stride.nanoseconds(9).magnitude, 9)
    let literal: Stride = 1
    let floatLiteral: Stride = 0.25
    expectEqual(literal, .seconds(1))
    expectEqual(floatLiteral, .milliseconds(250))
    expectEqual(Stride(.milliseconds(3)) + .microseconds(5), .nanoseconds(3_005_000))
    #expect(Stride.seconds(1) > .milliseconds(999))
    let data = try JSONEncoder().encode(Stride.milliseconds(12))
    #expect(try JSONDecoder().decode(Stride.self, from: data) == .milliseconds(12))
    let start = DispatchQueue.main.now
    expectEqual(start.distance(to: start.advanced(by: .milliseconds(5))), .milliseconds(5))
    let time = try JSONDecoder().decode(
      DispatchQueue.SchedulerTimeType.self,
      from: JSONEncoder().encode(start)
    )
    expectEqual(time, start)
  }

  @Test func combineSpellingsCompile() {
    let options = DispatchQueue.SchedulerOptions(qos: .userInitiated, flags: [], group: nil)
    let a = Just(1).receive(on: DispatchQueue.main)
    let b = Just(1).delay(for: .milliseconds(300), scheduler: DispatchQueue.global())
    let c = Just(1).receive(on: DispatchQueue.global(), options: options)
    let d = Just(1).receive(on: RunLoop.main)
    let e = Just(1).debounce(for: 0.5, scheduler: OperationQueue.main)
    _ = (a, b, c, d, e)
  }

  @Test func receiveOnSerialQueueDeliversInOrderOnThatQueue() {
    let queue = DispatchQueue(label: "rill.tests.receive-on")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let recorder = FoundationRecorder<(Int, Bool)>()
    let cancellable = (1...100).publisher
      .receive(on: queue)
      .sink(
        receiveCompletion: { _ in recorder.finish() },
        receiveValue: { recorder.append(($0, DispatchQueue.getSpecific(key: key) == true)) }
      )
    #expect(recorder.wait())
    expectEqual(recorder.values.map(\.0), Array(1...100))
    #expect(recorder.values.allSatisfy { $0.1 })
    cancellable.cancel()
  }

  @Test func receiveOnConcurrentQueueNeverOverlaps() {
    let recorder = FoundationRecorder<Int>()
    let overlaps = FoundationRecorder<Int>()
    let active = Atomic<Int>(0)
    let cancellable = (1...200).publisher
      .receive(on: DispatchQueue.global())
      .sink(
        receiveCompletion: { _ in recorder.finish() },
        receiveValue: { value in
          if active.add(1, ordering: .sequentiallyConsistent).newValue != 1 { overlaps.append(value) }
          recorder.append(value)
          active.subtract(1, ordering: .sequentiallyConsistent)
        }
      )
    #expect(recorder.wait())
    expectEqual(recorder.values.sorted(), Array(1...200))
    #expect(overlaps.values.isEmpty)
    cancellable.cancel()
  }

  @Test func receiveOnQueueWithAGroupEntersTheGroupForEachDelivery() {
    let queue = DispatchQueue(label: "rill.tests.receive-on-group")
    let group = DispatchGroup()
    let recorder = FoundationRecorder<Int>()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.receive(on: queue, options: .init(group: group)).sink { recorder.append($0) }
    for value in 1...50 { subject.send(value) }
    group.wait()
    expectEqual(recorder.values, Array(1...50))
    cancellable.cancel()
  }

  @Test func receiveOnQueueDeliversNothingAfterCancelAndFreesThePipelineOnceItsActionsRan() {
    let queue = DispatchQueue(label: "rill.tests.receive-on-cancel")
    queue.suspend()
    let subject = PassthroughSubject<Int, Never>()
    weak var weakSubscriber: QueueProbeSubscriber?
    do {
      let subscriber = QueueProbeSubscriber()
      weakSubscriber = subscriber
      subject.receive(on: queue).subscribe(subscriber)
      for value in 1...10 { subject.send(value) }
      subscriber.cancel()
    }
    // The ten actions waiting on the suspended queue still hold the subscription, which holds the subscriber.
    #expect(weakSubscriber != nil)
    queue.resume()
    queue.sync {}
    #expect(weakSubscriber == nil)
  }

  @Test func delayOnGlobalQueueWaitsAtLeastTheInterval() {
    let recorder = FoundationRecorder<Int>()
    let start = DispatchTime.now()
    let cancellable = [1, 2, 3].publisher
      .delay(for: .milliseconds(50), scheduler: DispatchQueue.global())
      .sink(receiveCompletion: { _ in recorder.finish() }, receiveValue: recorder.append)
    #expect(recorder.wait())
    let elapsed = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
    #expect(elapsed >= 45_000_000)
    expectEqual(recorder.values.sorted(), [1, 2, 3])
    cancellable.cancel()
  }

  @Test func repeatingScheduleStopsWhenCancelled() {
    let queue = DispatchQueue(label: "rill.tests.repeating")
    let recorder = FoundationRecorder<Int>()
    let cancellable = queue.schedule(after: queue.now.advanced(by: .milliseconds(5)), interval: .milliseconds(5)) {
      recorder.append(1)
      if recorder.values.count == 3 { recorder.finish() }
    }
    #expect(recorder.wait())
    cancellable.cancel()
    let countAtCancel = queue.sync { recorder.values.count }
    Thread.sleep(forTimeInterval: 0.03)
    #expect(queue.sync { recorder.values.count } == countAtCancel)
  }

  @Test func timeoutOnDispatchQueueFails() {
    enum Timeout: Error { case late }
    let recorder = FoundationRecorder<Subscribers.Completion<Timeout>>()
    let subject = PassthroughSubject<Int, Timeout>()
    let cancellable =
      subject
      .timeout(.milliseconds(20), scheduler: DispatchQueue.global(), customError: { .late })
      .sink(
        receiveCompletion: {
          recorder.append($0)
          recorder.finish()
        },
        receiveValue: { _ in }
      )
    #expect(recorder.wait())
    if case .failure(.late) = recorder.values.first {} else { Issue.record("expected a timeout failure") }
    cancellable.cancel()
  }
}

@Suite struct RunLoopSchedulerTests {
  @Test func strideConversions() {
    typealias Stride = RunLoop.SchedulerTimeType.Stride
    expectEqual(Stride.milliseconds(250).timeInterval, 0.25)
    expectEqual(Stride.seconds(2), 2)
    let literal: Stride = 1.5
    expectEqual(literal.magnitude, 1.5)
    let now = RunLoop.current.now
    expectEqual(now.distance(to: now.advanced(by: .seconds(3))), .seconds(3))
  }

  @Test func schedulesOnTheRunningRunLoop() {
    let runLoop = RunLoop.current
    let recorder = FoundationRecorder<String>()
    runLoop.schedule { recorder.append("now") }
    runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(10))) { recorder.append("later") }
    var ticks = 0
    let repeating = runLoop.schedule(after: runLoop.now, interval: .milliseconds(5)) { ticks += 1 }
    foundationSpinRunLoop { recorder.values.count == 2 && ticks >= 2 }
    repeating.cancel()
    expectEqual(recorder.values, ["now", "later"])
    #expect(ticks >= 2)
  }

  /// An action scheduled from another thread wakes a run loop that sleeps: it runs at the next opportunity, not when
  /// something else happens to wake the run loop.
  @Test(.timeLimit(.minutes(1))) func anActionScheduledFromAnotherThreadWakesASleepingRunLoop() {
    let thread = SleepingRunLoopThread()
    defer { thread.stop() }
    let ran = DispatchSemaphore(value: 0)
    thread.runLoop.schedule { ran.signal() }
    expectEqual(ran.wait(timeout: .now() + 5), .success)
  }

  /// A burst of actions from another thread costs one wake, yet every action runs, in order; so does one scheduled
  /// from inside an action, and one scheduled after the run loop has gone back to sleep.
  @Test(.timeLimit(.minutes(1))) func everyActionOfABurstRunsAndLaterActionsStillWakeTheRunLoop() {
    let thread = SleepingRunLoopThread()
    defer { thread.stop() }
    let runLoop = thread.runLoop
    let recorder = FoundationRecorder<Int>()
    let ran = DispatchSemaphore(value: 0)

    for value in 0..<100 {
      runLoop.schedule {
        recorder.append(value)
        if value == 99 { ran.signal() }
      }
    }
    expectEqual(ran.wait(timeout: .now() + 5), .success)
    expectEqual(recorder.values, Array(0..<100))

    runLoop.schedule {
      recorder.append(100)
      runLoop.schedule {
        recorder.append(101)
        ran.signal()
      }
    }
    expectEqual(ran.wait(timeout: .now() + 5), .success)

    // Asleep again by now; the next action still wakes it.
    Thread.sleep(forTimeInterval: 0.05)
    runLoop.schedule {
      recorder.append(102)
      ran.signal()
    }
    expectEqual(ran.wait(timeout: .now() + 5), .success)
    expectEqual(recorder.values, Array(0...102))
  }

  @Test func receiveOnRunLoop() {
    var received: [Int] = []
    var finished = false
    let cancellable = [1, 2, 3].publisher
      .receive(on: RunLoop.current)
      .sink(receiveCompletion: { _ in finished = true }, receiveValue: { received.append($0) })
    #expect(received.isEmpty)
    foundationSpinRunLoop { finished }
    expectEqual(received, [1, 2, 3])
    cancellable.cancel()
  }
}

/// A thread whose run loop sleeps until something wakes it, and runs again after each wake until `stop()`.
///
/// Each run waits up to 30 seconds, longer than the tests wait, so only a wake delivers an action in time.
// SAFETY: `runLoop` is written before the initialiser returns and read only after; `stopped` is atomic.
private final class SleepingRunLoopThread: @unchecked Sendable {
  private(set) var runLoop = RunLoop.main
  private let stopped = Atomic(false)

  init() {
    let ready = DispatchSemaphore(value: 0)
    Thread { [self] in
      runLoop = RunLoop.current
      // A timer far in the future keeps the run loop running, asleep.
      let keepAlive = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
      RunLoop.current.add(keepAlive, forMode: .default)
      ready.signal()
      while !stopped.load(ordering: .acquiring) {
        _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(30))
      }
      keepAlive.invalidate()
    }
    .start()
    ready.wait()
  }

  /// Lets the thread end when its current run does.
  func stop() {
    stopped.store(true, ordering: .releasing)
  }
}

@Suite struct OperationQueueSchedulerTests {
  @Test func receiveOnSerialOperationQueueKeepsOrder() {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let recorder = FoundationRecorder<Int>()
    let cancellable = (1...50).publisher
      .receive(on: queue)
      .sink(receiveCompletion: { _ in recorder.finish() }, receiveValue: recorder.append)
    #expect(recorder.wait())
    expectEqual(recorder.values, Array(1...50))
    cancellable.cancel()
  }

  @Test func delayAndRepeatingSchedule() {
    let queue = OperationQueue()
    let recorder = FoundationRecorder<Int>()
    let start = Date()
    let cancellable = Just(7)
      .delay(for: .milliseconds(30), scheduler: queue)
      .sink(receiveCompletion: { _ in recorder.finish() }, receiveValue: recorder.append)
    #expect(recorder.wait())
    #expect(Date().timeIntervalSince(start) >= 0.025)
    expectEqual(recorder.values, [7])
    cancellable.cancel()

    let ticks = FoundationRecorder<Int>()
    let repeating = queue.schedule(after: queue.now, interval: .milliseconds(5)) {
      ticks.append(1)
      if ticks.values.count == 3 { ticks.finish() }
    }
    #expect(ticks.wait())
    repeating.cancel()
    expectEqual(OperationQueue.SchedulerTimeType.Stride.milliseconds(5).timeInterval, 0.005)
  }

  /// As in Combine, an action scheduled now is one block operation added to the queue.
  @Test func actionNowIsOneBlockOperation() {
    let queue = OperationRecordingQueue()
    let done = FoundationRecorder<Int>()
    queue.schedule { done.finish() }
    #expect(done.wait())
    expectEqual(queue.added.count, 1)
    #expect(queue.added.first is BlockOperation)
  }

  /// As in Combine, an action scheduled later is added at once as one cancellable operation that is not ready
  /// before its date, and runs once.
  @Test func actionLaterIsOneOperationReadyAtItsDate() throws {
    let queue = OperationRecordingQueue()
    let runs = Atomic(0)
    // A second, so that a test thread that stalls (under ThreadSanitizer, say) still sees it before its date.
    queue.schedule(after: queue.now.advanced(by: .seconds(1))) { runs.add(1, ordering: .relaxed) }
    let operation = try #require(queue.added.first)
    expectEqual(queue.added.count, 1)
    #expect(!(operation is BlockOperation))
    #expect(operation is any Cancellable)
    #expect(!operation.isReady)
    queue.waitUntilAllOperationsAreFinished()
    expectEqual(runs.load(ordering: .relaxed), 1)
    operation.main()
    expectEqual(runs.load(ordering: .relaxed), 1)
  }

  /// As in Combine, a repeating action keeps one operation in the queue at a time, and a cancel stops it.
  @Test func repeatingActionAddsOneOperationPerRun() throws {
    let queue = OperationRecordingQueue()
    let ticks = FoundationRecorder<Int>()
    let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(5)) {
      ticks.append(1)
      if ticks.values.count == 3 { ticks.finish() }
    }
    #expect(cancellable is AnyCancellable)
    #expect(ticks.wait())
    cancellable.cancel()
    let added = queue.added
    #expect(added.count >= 4)
    queue.waitUntilAllOperationsAreFinished()
    Thread.sleep(forTimeInterval: 0.03)
    expectEqual(queue.added.count, added.count)
    let count = ticks.values.count
    try #require(added.first).main()
    expectEqual(ticks.values.count, count)
  }
}

/// An operation queue that records the operations added to it.
// SAFETY: `addedOperations` is only touched under `lock`.
private final class OperationRecordingQueue: OperationQueue, @unchecked Sendable {
  private let lock = NSLock()
  private var addedOperations: [Operation] = []

  var added: [Operation] { lock.withLock { addedOperations } }

  override func addOperation(_ op: Operation) {
    lock.withLock { addedOperations.append(op) }
    super.addOperation(op)
  }
}

/// A subscriber that requests everything and fails the test if it receives anything after its cancel.
// SAFETY: all mutable state is guarded by `lock`.
private final class QueueProbeSubscriber: Subscriber, @unchecked Sendable {
  typealias Input = Int
  typealias Failure = Never

  private let lock = NSLock()
  private var subscription: (any Subscription)?
  private var isCancelled = false

  func receive(subscription: any Subscription) {
    lock.withLock { self.subscription = subscription }
    subscription.request(.unlimited)
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    #expect(!lock.withLock { isCancelled }, "value \(input) arrived after cancel")
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    #expect(!lock.withLock { isCancelled }, "completion arrived after cancel")
  }

  func cancel() {
    let subscription = lock.withLock {
      isCancelled = true
      return self.subscription.take()
    }
    subscription?.cancel()
  }
}
