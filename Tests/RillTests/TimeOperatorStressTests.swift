import Dispatch
import Foundation
import Rill
import RillTestSupport
import Testing

/// The scheduler-driven operators on real dispatch queues, with many threads sending, requesting, subscribing and
/// cancelling at once.
///
/// Each test asserts what the operator promises: no value lost where the contract delivers it, none duplicated or
/// reordered per producer, one call at a time downstream, exactly one completion, and (through bounded waits and
/// the time limit) no deadlock. CI also runs them under ThreadSanitizer.
@Suite(.tags(.stress), .timeLimit(.minutes(1)))
struct TimeOperatorStressTests {
  static let producers = 4

  /// Scales every loop; CI's ThreadSanitizer run sets `RILL_STRESS_SCALE=0.1`, as the sanitizer is slow.
  static func scaled(_ count: Int) -> Int { StressThreads.scaled(count) }

  static let perProducer = scaled(1_000)

  /// Runs `body(0..<count)` on `count` threads at once and waits, at most 30 seconds, for all of them.
  static func concurrently(
    _ count: Int,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping (Int) -> Void
  ) {
    #expect(StressThreads.run(count, body), "threads still running", sourceLocation: sourceLocation)
  }

  static func value(producer: Int, sequence: Int) -> Int { StressValues.value(producer: producer, sequence: sequence) }

  /// Sends `perProducer` values of `producer`, pausing `pause` microseconds after every `every` values.
  static func sendAll(
    to subject: some Subject<Int, some Error>,
    producer: Int,
    pauseEvery every: Int = 0,
    pause: UInt32 = 0
  ) {
    for sequence in 0..<perProducer {
      subject.send(value(producer: producer, sequence: sequence))
      if every > 0, sequence % every == every - 1 { usleep(pause) }
    }
  }

  /// Producers send while another thread keeps attaching recorders with `attach`, cancelling two in three (once
  /// subscribed, when `cancelsOnceSubscribed`); then checks the kept ones got every completion and the cancelled
  /// ones at most one event after their cancel returned.
  static func raceSubscribeAndCancelWithSend(
    into subject: PassthroughSubject<Int, Never>,
    ordered: Bool,
    cancelsOnceSubscribed: Bool,
    sourceLocation: SourceLocation = #_sourceLocation,
    attach: @escaping (TimeStressRecorder<Int, Never>) -> Void
  ) {
    let kept = StressLocked<[TimeStressRecorder<Int, Never>]>([])
    let cancelled = StressLocked<[TimeStressRecorder<Int, Never>]>([])
    concurrently(producers + 2, sourceLocation: sourceLocation) { index in
      if index < producers {
        sendAll(to: subject, producer: index)
        return
      }
      for round in 0..<scaled(200) {
        let recorder = TimeStressRecorder<Int, Never>(initialDemand: round % 2 == 0 ? .unlimited : .max(5))
        attach(recorder)
        if round % 3 == 0 {
          kept.withLock { $0.append(recorder) }
        } else {
          if cancelsOnceSubscribed { _ = recorder.wait { $0.isSubscribed } }
          recorder.cancel()
          cancelled.withLock { $0.append(recorder) }
        }
      }
    }
    subject.send(completion: .finished)
    for recorder in kept.withLock({ $0 }) {
      #expect(recorder.waitForCompletion(), sourceLocation: sourceLocation)
      expectEqual(recorder.violations, [], sourceLocation: sourceLocation)
      checkPerProducerOrder(recorder.values, ordered: ordered, sourceLocation: sourceLocation)
      expectEqual(recorder.completions, 1, sourceLocation: sourceLocation)
    }
    for recorder in cancelled.withLock({ $0 }) {
      if cancelsOnceSubscribed { #expect(recorder.isSubscribed, sourceLocation: sourceLocation) }
      expectEqual(recorder.violations, [], sourceLocation: sourceLocation)
      checkPerProducerOrder(recorder.values, ordered: ordered, sourceLocation: sourceLocation)
      #expect(recorder.completions <= 1, sourceLocation: sourceLocation)
      #expect(recorder.eventsAfterCancel <= 1, sourceLocation: sourceLocation)
    }
  }

  /// Producers send (pausing every 20 values), one thread requests one value at a time and another cancels at
  /// a random moment; then checks what any operator keeps under that race.
  static func raceSendsRequestsAndCancel(
    into subject: PassthroughSubject<Int, Never>,
    recorder: TimeStressRecorder<Int, Never>,
    pauseMicroseconds: UInt32,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    concurrently(producers + 2, sourceLocation: sourceLocation) { index in
      if index < producers {
        for sequence in 0..<scaled(200) {
          subject.send(value(producer: index, sequence: sequence))
          if sequence % 20 == 19 { usleep(pauseMicroseconds) }
        }
      } else if index == producers {
        for _ in 0..<scaled(100) {
          recorder.request(.max(1))
          usleep(50)
        }
      } else {
        usleep(UInt32.random(in: 0...5_000))
        recorder.cancel()
      }
    }
    subject.send(completion: .finished)
    expectEqual(recorder.violations, [], sourceLocation: sourceLocation)
    checkPerProducerOrder(recorder.values, sourceLocation: sourceLocation)
    #expect(recorder.completions <= 1, sourceLocation: sourceLocation)
    #expect(recorder.eventsAfterCancel <= 1, sourceLocation: sourceLocation)
  }

  /// Checks that every value is one a producer sent, without duplicates, and (when `ordered`) that each
  /// producer's values arrive in increasing order; returns how many arrived per producer.
  @discardableResult
  static func checkPerProducerOrder(
    _ values: [Int],
    ordered: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> [Int] {
    let check = StressValues.check(values, producers: producers, perProducer: perProducer, ordered: ordered)
    for problem in check.problems { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
    return check.counts
  }

  static var everyValue: [Int] { Array(repeating: perProducer, count: producers) }

  // MARK: - receive(on:)

  @Test func receiveOnSerialQueueDeliversEveryValueOnceAndInOrder() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TimeStressRecorder<Int, Never>()
    subject.receive(on: TimeStressQueue.serial.make()).subscribe(recorder)
    Self.concurrently(Self.producers) { Self.sendAll(to: subject, producer: $0) }
    subject.send(completion: .finished)
    #expect(recorder.waitForCompletion())
    expectEqual(recorder.violations, [])
    expectEqual(Self.checkPerProducerOrder(recorder.values), Self.everyValue)
    expectEqual(recorder.completions, 1)
  }

  @Test func receiveOnConcurrentQueueNeverOverlapsOrDuplicates() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TimeStressRecorder<Int, Never>()
    subject.receive(on: TimeStressQueue.concurrent.make()).subscribe(recorder)
    Self.concurrently(Self.producers) { Self.sendAll(to: subject, producer: $0) }
    subject.send(completion: .finished)
    #expect(recorder.waitForCompletion())
    expectEqual(recorder.violations, [])
    // A concurrent queue may run the scheduled deliveries in any order, and the completion may overtake values.
    Self.checkPerProducerOrder(recorder.values, ordered: false)
    expectEqual(recorder.completions, 1)
  }

  @Test(arguments: TimeStressQueue.allCases)
  func receiveOnWithDemandRequestedFromManyThreadsNeverExceedsIt(queue: TimeStressQueue) {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TimeStressRecorder<Int, Never>(initialDemand: .none)
    subject.receive(on: queue.make()).subscribe(recorder)
    let requests = Self.scaled(500)
    Self.concurrently(Self.producers + 2) { index in
      if index < Self.producers {
        Self.sendAll(to: subject, producer: index)
      } else {
        for _ in 0..<requests { recorder.request(.max(1)) }
      }
    }
    subject.send(completion: .finished)
    #expect(recorder.waitForCompletion())
    expectEqual(recorder.violations, [])
    #expect(recorder.values.count <= 2 * requests)
    Self.checkPerProducerOrder(recorder.values, ordered: queue == .serial)
    expectEqual(recorder.completions, 1)
  }

  @Test(arguments: TimeStressQueue.allCases)
  func receiveOnSubscribeAndCancelRacingWithSend(queue: TimeStressQueue) {
    let subject = PassthroughSubject<Int, Never>()
    let scheduler = queue.make()
    Self.raceSubscribeAndCancelWithSend(into: subject, ordered: queue == .serial, cancelsOnceSubscribed: false) {
      subject.receive(on: scheduler).subscribe($0)
    }
  }

  // MARK: - subscribe(on:)

  @Test(arguments: TimeStressQueue.allCases)
  func subscribeOnDeliversExactlyTheDemandRequestedFromManyThreads(queue: TimeStressQueue) {
    let threads = 4
    let perThread = Self.scaled(250)
    let total = threads * perThread
    let recorder = TimeStressRecorder<Int, Never>(initialDemand: .none)
    (0..<(total + 100)).publisher.subscribe(on: queue.make()).subscribe(recorder)
    #expect(recorder.wait { $0.isSubscribed })
    Self.concurrently(threads) { _ in
      for _ in 0..<perThread { recorder.request(.max(1)) }
    }
    #expect(recorder.wait { $0.values.count >= total })
    expectEqual(recorder.violations, [])
    expectEqual(recorder.values, Array(0..<total))
    expectEqual(recorder.completions, 0)
    recorder.cancel()
  }

  @Test(arguments: TimeStressQueue.allCases)
  func subscribeOnSubscribeAndCancelRacingWithSend(queue: TimeStressQueue) {
    let subject = PassthroughSubject<Int, Never>()
    let scheduler = queue.make()
    Self.raceSubscribeAndCancelWithSend(into: subject, ordered: true, cancelsOnceSubscribed: true) {
      subject.subscribe(on: scheduler).subscribe($0)
    }
  }

  // MARK: - debounce

  @Test(arguments: TimeStressQueue.allCases)
  func debounceDeliversOnlySentValuesInOrderAndTheLastAfterQuiet(queue: TimeStressQueue) {
    let subject = PassthroughSubject<Int, Never>()
    let lastSent = StressLocked<Int?>(nil)
    let recorder = TimeStressRecorder<Int, Never>()
    subject
      .handleEvents(receiveOutput: { value in lastSent.withLock { $0 = value } })
      .debounce(for: .microseconds(300), scheduler: queue.make())
      .subscribe(recorder)
    Self.concurrently(Self.producers) { Self.sendAll(to: subject, producer: $0, pauseEvery: 50, pause: 500) }
    let last = lastSent.withLock { $0 }
    #expect(recorder.wait { $0.values.last == last }, "the last value never came after the quiet time")
    subject.send(completion: .finished)
    #expect(recorder.waitForCompletion())
    expectEqual(recorder.violations, [])
    Self.checkPerProducerOrder(recorder.values)
    expectEqual(recorder.completions, 1)
  }

  @Test(arguments: TimeStressQueue.allCases)
  func debounceWithDemandAndCancelFromOtherThreads(queue: TimeStressQueue) {
    for _ in 0..<Self.scaled(20) {
      let subject = PassthroughSubject<Int, Never>()
      let recorder = TimeStressRecorder<Int, Never>(initialDemand: .none)
      subject.debounce(for: .microseconds(100), scheduler: queue.make()).subscribe(recorder)
      Self.raceSendsRequestsAndCancel(into: subject, recorder: recorder, pauseMicroseconds: 200)
    }
  }

  // MARK: - throttle

  @Test(arguments: TimeStressQueue.allCases, [true, false])
  func throttleDeliversOnlySentValuesInOrderAndOneCompletion(queue: TimeStressQueue, latest: Bool) {
    for _ in 0..<Self.scaled(10) {
      let subject = PassthroughSubject<Int, Never>()
      let sent = StressLocked<(first: Int?, last: Int?)>((nil, nil))
      let recorder = TimeStressRecorder<Int, Never>()
      subject
        .handleEvents(receiveOutput: { value in sent.withLock { $0 = ($0.first ?? value, value) } })
        .throttle(for: .microseconds(50), scheduler: queue.make(), latest: latest)
        .subscribe(recorder)
      Self.concurrently(Self.producers) { Self.sendAll(to: subject, producer: $0, pauseEvery: 100, pause: 100) }
      subject.send(completion: .finished)
      #expect(recorder.waitForCompletion())
      expectEqual(recorder.violations, [])
      Self.checkPerProducerOrder(recorder.values)
      expectEqual(recorder.completions, 1)
      expectEqual(recorder.events.last, .finished)
      let (first, last) = sent.withLock { $0 }
      if latest {
        expectEqual(recorder.values.last, last, "throttle(latest: true) lost the last value")
      } else {
        expectEqual(recorder.values.first, first, "throttle(latest: false) lost the first value")
      }
    }
  }

  @Test(arguments: TimeStressQueue.allCases, [true, false])
  func throttleWithoutIntervalCompletedWhileValuesArrive(queue: TimeStressQueue, latest: Bool) {
    for _ in 0..<Self.scaled(20) {
      let subject = PassthroughSubject<Int, Never>()
      // A slow subscriber widens the window in which a second emission could overlap the first.
      let recorder = TimeStressRecorder<Int, Never> { _, _ in
        usleep(50)
        return .none
      }
      subject.throttle(for: .zero, scheduler: queue.make(), latest: latest).subscribe(recorder)
      Self.concurrently(Self.producers + 1) { index in
        if index < Self.producers {
          for sequence in 0..<Self.scaled(200) { subject.send(Self.value(producer: index, sequence: sequence)) }
        } else {
          usleep(UInt32.random(in: 0...2_000))
          subject.send(completion: .finished)
        }
      }
      #expect(recorder.waitForCompletion())
      expectEqual(recorder.violations, [])
      Self.checkPerProducerOrder(recorder.values)
      expectEqual(recorder.completions, 1)
      expectEqual(recorder.events.last, .finished)
    }
  }

  @Test(arguments: TimeStressQueue.allCases, [true, false])
  func throttleWithDemandAndCancelFromOtherThreads(queue: TimeStressQueue, latest: Bool) {
    for _ in 0..<Self.scaled(20) {
      let subject = PassthroughSubject<Int, Never>()
      let recorder = TimeStressRecorder<Int, Never>(initialDemand: .max(1))
      subject.throttle(for: .microseconds(20), scheduler: queue.make(), latest: latest).subscribe(recorder)
      Self.raceSendsRequestsAndCancel(into: subject, recorder: recorder, pauseMicroseconds: 100)
    }
  }

  // MARK: - timeout

  @Test(arguments: TimeStressQueue.allCases)
  func timeoutThatNeverFiresDeliversEveryValue(queue: TimeStressQueue) {
    let subject = PassthroughSubject<Int, TimeStressError>()
    let recorder = TimeStressRecorder<Int, TimeStressError>()
    subject.timeout(.seconds(30), scheduler: queue.make(), customError: { .timedOut }).subscribe(recorder)
    Self.concurrently(Self.producers) { Self.sendAll(to: subject, producer: $0) }
    subject.send(completion: .finished)
    #expect(recorder.waitForCompletion())
    expectEqual(recorder.violations, [])
    // Each scheduled delivery releases the oldest value, so a concurrent queue keeps the arrival order too.
    let counts = Self.checkPerProducerOrder(recorder.values)
    expectEqual(counts, Self.everyValue)
    expectEqual(recorder.events.last, .finished)
  }

  @Test(arguments: TimeStressQueue.allCases)
  func timeoutFiringWhileValuesArriveCompletesExactlyOnce(queue: TimeStressQueue) {
    for round in 0..<Self.scaled(20) {
      let subject = PassthroughSubject<Int, TimeStressError>()
      let recorder = TimeStressRecorder<Int, TimeStressError>()
      subject
        .timeout(.microseconds(200 + 50 * (round % 10)), scheduler: queue.make(), customError: { .timedOut })
        .subscribe(recorder)
      Self.concurrently(Self.producers) { index in
        for sequence in 0..<Self.scaled(200) {
          subject.send(Self.value(producer: index, sequence: sequence))
          if sequence % 25 == 24 { usleep(UInt32.random(in: 0...400)) }
        }
      }
      subject.send(completion: .finished)
      #expect(recorder.waitForCompletion())
      expectEqual(recorder.violations, [])
      Self.checkPerProducerOrder(recorder.values)
      expectEqual(recorder.completions, 1)
    }
  }

  @Test(arguments: TimeStressQueue.allCases)
  func timeoutCancelRacingWithTheTimer(queue: TimeStressQueue) {
    let scheduler = queue.make()
    for round in 0..<Self.scaled(200) {
      let subject = PassthroughSubject<Int, TimeStressError>()
      let recorder = TimeStressRecorder<Int, TimeStressError>()
      subject.timeout(.microseconds(round % 50), scheduler: scheduler, customError: { .timedOut }).subscribe(recorder)
      Self.concurrently(2) { index in
        if index == 0 {
          for sequence in 0..<20 { subject.send(Self.value(producer: 0, sequence: sequence)) }
        } else {
          usleep(UInt32(round % 40))
          recorder.cancel()
        }
      }
      expectEqual(recorder.violations, [])
      Self.checkPerProducerOrder(recorder.values, ordered: queue == .serial)
      #expect(recorder.completions <= 1)
      #expect(recorder.eventsAfterCancel <= 1)
    }
  }
}
