import Foundation
import RillCore
import RillTestSupport
import Testing

/// Many threads sending, requesting, subscribing and cancelling at once.
///
/// Each test asserts that no value is lost (where demand allows), duplicated or reordered per producer, that every
/// subscriber is called one call at a time, that exactly one completion arrives, and (through the time limit) that
/// nothing deadlocks. Run them under ThreadSanitizer too: `swift test --sanitize=thread --filter StressTests`.
@Suite(.tags(.stress), .timeLimit(.minutes(1)))
struct StressTests {
  static let producers = 4

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

  static func sendAll(to subject: some Subject<Int, Never>, producer: Int) {
    for sequence in 0..<perProducer { subject.send(value(producer: producer, sequence: sequence)) }
  }

  @Test(arguments: [false, true])
  func subjectsDeliverEverySendInOrderToEverySubscriber(currentValue: Bool) {
    let subject: any Subject<Int, Never> =
      currentValue ? CurrentValueSubject<Int, Never>(0) : PassthroughSubject<Int, Never>()
    let recorders = (0..<3).map { _ in ReliabilityStrictRecorder<Int, Never>() }
    for recorder in recorders { subject.subscribe(recorder) }
    Self.concurrently(Self.producers) { Self.sendAll(to: subject, producer: $0) }
    Self.concurrently(3) { _ in subject.send(completion: .finished) }
    for recorder in recorders {
      expectEqual(recorder.violations, [])
      let values = currentValue ? Array(recorder.values.dropFirst()) : recorder.values
      expectEqual(Self.checkPerProducerOrder(values), Array(repeating: Self.perProducer, count: Self.producers))
      expectEqual(recorder.completions, 1)
    }
  }

  @Test func subjectWithRequestsFromManyThreadsNeverExceedsDemand() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: .none)
    subject.subscribe(recorder)
    Self.concurrently(Self.producers + 2) { index in
      if index < Self.producers {
        Self.sendAll(to: subject, producer: index)
      } else {
        for _ in 0..<Self.scaled(1_000) { recorder.request(.max(1)) }
      }
    }
    subject.send(completion: .finished)
    expectEqual(recorder.violations, [])
    #expect(recorder.values.count <= 2 * Self.scaled(1_000))
    _ = Self.checkPerProducerOrder(recorder.values)
    expectEqual(recorder.completions, 1)
  }

  /// A `CurrentValueSubject` subscriber paced by requests from other threads gets at most what it asked for,
  /// in order, and a last request always brings the subject's current value.
  @Test func currentValueSubjectPacedFromManyThreadsEndsOnTheCurrentValue() {
    let subject = CurrentValueSubject<Int, Never>(-1)
    let recorders = (0..<2).map { _ in ReliabilityStrictRecorder<Int, Never>(initialDemand: .none) }
    for recorder in recorders { subject.subscribe(recorder) }
    let requests = Self.scaled(500)
    Self.concurrently(Self.producers + 2) { index in
      if index < Self.producers {
        Self.sendAll(to: subject, producer: index)
      } else {
        for _ in 0..<requests { recorders[index - Self.producers].request(.max(1)) }
      }
    }
    for recorder in recorders {
      recorder.request(.max(1))
      expectEqual(recorder.violations, [])
      #expect(recorder.values.count <= requests + 1)
      expectEqual(recorder.values.last, subject.value)
      _ = Self.checkPerProducerOrder(recorder.values.filter { $0 >= 0 })
    }
  }

  @Test func subscribeAndCancelRacingWithSend() {
    let subject = PassthroughSubject<Int, Never>()
    let subscribers = StressLocked<[ReliabilityStrictRecorder<Int, Never>]>([])
    Self.concurrently(Self.producers + 2) { index in
      if index < Self.producers {
        Self.sendAll(to: subject, producer: index)
        return
      }
      for round in 0..<Self.scaled(300) {
        let recorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: round % 2 == 0 ? .unlimited : .max(5))
        subject.subscribe(recorder)
        subscribers.withLock { $0.append(recorder) }
        if round % 3 != 0 { recorder.cancel() }
      }
    }
    subject.send(completion: .finished)
    for recorder in subscribers.withLock({ $0 }) {
      expectEqual(recorder.violations, [])
      _ = Self.checkPerProducerOrder(recorder.values)
      #expect(recorder.completions <= 1)
    }
  }

  @Test func cancelRacingWithDeliveryStopsCleanly() {
    for _ in 0..<Self.scaled(50) {
      let subject = PassthroughSubject<Int, Never>()
      let recorder = ReliabilityStrictRecorder<Int, Never>()
      subject.map { $0 }.filter { _ in true }.subscribe(recorder)
      Self.concurrently(3) { index in
        if index == 2 {
          recorder.cancel()
        } else {
          for sequence in 0..<Self.scaled(200) { subject.send(Self.value(producer: index, sequence: sequence)) }
        }
      }
      let seen = recorder.events.count
      subject.send(Self.value(producer: 3, sequence: 0))
      expectEqual(recorder.events.count, seen)
      expectEqual(recorder.violations, [])
      _ = Self.checkPerProducerOrder(recorder.values)
    }
  }

  @Test func futureFulfilledAndSubscribedFromManyThreads() {
    for _ in 0..<Self.scaled(50) {
      let promise = StressLocked<Future<Int, Never>.Promise?>(nil)
      let future = Future<Int, Never> { fulfil in promise.withLock { $0 = fulfil } }
      let fulfil = promise.withLock { $0! }
      let recorders = StressLocked<[ReliabilityStrictRecorder<Int, Never>]>([])
      Self.concurrently(8) { index in
        if index < 3 {
          fulfil(.success(index))
        } else {
          let recorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: index % 2 == 0 ? .max(1) : .none)
          future.subscribe(recorder)
          recorders.withLock { $0.append(recorder) }
          if index % 2 == 1 { recorder.request(.max(1)) }
        }
      }
      let all = recorders.withLock { $0 }
      let values = Set(all.flatMap(\.values))
      expectEqual(values.count, 1)
      for recorder in all {
        expectEqual(recorder.violations, [])
        expectEqual(recorder.values.count, 1)
        expectEqual(recorder.events.last, .finished)
      }
    }
  }

  @Test func flatMapOfSubjectsFedFromManyThreads() {
    let children = (0..<Self.producers).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = ReliabilityStrictRecorder<Int, Never>()
    children.publisher.flatMap { $0 }.subscribe(recorder)
    Self.concurrently(Self.producers) { Self.sendAll(to: children[$0], producer: $0) }
    for child in children { child.send(completion: .finished) }
    expectEqual(recorder.violations, [])
    expectEqual(Self.checkPerProducerOrder(recorder.values), Array(repeating: Self.perProducer, count: Self.producers))
    expectEqual(recorder.completions, 1)
  }

  @Test func flatMapWithLimitedDemandFromManyThreads() {
    let children = (0..<Self.producers).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: .max(10)) { _, _ in .max(1) }
    children.publisher.flatMap(maxPublishers: .max(2)) { $0 }.subscribe(recorder)
    Self.concurrently(Self.producers + 1) { index in
      if index < Self.producers {
        Self.sendAll(to: children[index], producer: index)
      } else {
        for _ in 0..<Self.scaled(500) { recorder.request(.max(1)) }
      }
    }
    expectEqual(recorder.violations, [])
    _ = Self.checkPerProducerOrder(recorder.values)
    recorder.cancel()
  }

  /// A sequence's run through `flatMap { Just }` (no lock per value) while other threads request and cancel.
  @Test func flatMapOfJustRunRacingWithRequestAndCancel() {
    let count = Self.scaled(20_000)
    for round in 0..<Self.scaled(40) {
      let recorder = ReliabilityStrictRecorder<Int, Never>()
      Self.concurrently(3) { index in
        switch index {
        case 0:
          (0..<count).publisher.flatMap { Just($0) }.subscribe(recorder)
        case 1:
          while !recorder.isSubscribed {}
          for _ in 0..<Self.scaled(200) { recorder.request(.max(1)) }
        default:
          while !recorder.isSubscribed {}
          if round % 4 != 0 { recorder.cancel() }
        }
      }
      expectEqual(recorder.violations, [])
      #expect(recorder.eventsAfterCancel <= 1)
      let values = recorder.values
      expectEqual(values, Array(0..<values.count))
      #expect(recorder.completions <= 1)
      if recorder.completions == 1 { #expect(values.count == count) }
    }
  }

  /// A sequence's run into a `Sink` (no lock per value) while another thread cancels: the values are a prefix in
  /// order, and `finished` arrives only after all of them.
  @Test func sequenceRunIntoASinkRacingWithCancel() {
    let count = Self.scaled(20_000)
    for round in 0..<Self.scaled(40) {
      let log = StressLocked<(values: [Int], completions: Int)>(([], 0))
      let sink = Subscribers.Sink<Int, Never>(
        receiveCompletion: { _ in log.withLock { $0.completions += 1 } },
        receiveValue: { value in log.withLock { $0.values.append(value) } }
      )
      let subscribed = StressLocked(false)
      Self.concurrently(2) { index in
        if index == 0 {
          subscribed.withLock { $0 = true }
          (0..<count).publisher.map { $0 }.subscribe(sink)
        } else {
          while !subscribed.withLock({ $0 }) {}
          if round % 4 != 0 { sink.cancel() }
        }
      }
      let (values, completions) = log.withLock { $0 }
      expectEqual(values, Array(0..<values.count))
      #expect(completions <= 1)
      if completions == 1 { #expect(values.count == count) }
      if round % 4 == 0 { #expect(completions == 1) }
    }
  }

  @Test func mergeOfSubjectsFedFromManyThreads() {
    let children = (0..<Self.producers).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = ReliabilityStrictRecorder<Int, Never>()
    Publishers.MergeMany(children).subscribe(recorder)
    Self.concurrently(Self.producers) { Self.sendAll(to: children[$0], producer: $0) }
    Self.concurrently(Self.producers) { children[$0].send(completion: .finished) }
    expectEqual(recorder.violations, [])
    expectEqual(Self.checkPerProducerOrder(recorder.values), Array(repeating: Self.perProducer, count: Self.producers))
    expectEqual(recorder.completions, 1)
  }

  @Test func shareWithSubscribersJoiningAndLeavingWhileSending() {
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.share()
    let keeper = ReliabilityStrictRecorder<Int, Never>()
    shared.subscribe(keeper)
    let others = StressLocked<[ReliabilityStrictRecorder<Int, Never>]>([])
    Self.concurrently(Self.producers + 2) { index in
      if index < Self.producers {
        Self.sendAll(to: subject, producer: index)
        return
      }
      for round in 0..<Self.scaled(200) {
        let recorder = ReliabilityStrictRecorder<Int, Never>()
        shared.subscribe(recorder)
        others.withLock { $0.append(recorder) }
        if round % 2 == 0 { recorder.cancel() }
      }
    }
    subject.send(completion: .finished)
    expectEqual(keeper.violations, [])
    expectEqual(Self.checkPerProducerOrder(keeper.values), Array(repeating: Self.perProducer, count: Self.producers))
    expectEqual(keeper.completions, 1)
    for recorder in others.withLock({ $0 }) {
      expectEqual(recorder.violations, [])
      _ = Self.checkPerProducerOrder(recorder.values)
    }
  }

  @Test func multicastWithSubscribersJoiningAndLeavingWhileConnectingAndSending() {
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
    let keeper = ReliabilityStrictRecorder<Int, Never>()
    multicast.subscribe(keeper)
    let connection = StressLocked<(any Cancellable)?>(nil)
    let others = StressLocked<[ReliabilityStrictRecorder<Int, Never>]>([])
    Self.concurrently(Self.producers + 3) { index in
      if index < Self.producers {
        Self.sendAll(to: upstream, producer: index)
      } else if index == Self.producers {
        connection.withLock { $0 = multicast.connect() }
      } else {
        for round in 0..<Self.scaled(200) {
          let recorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: round % 2 == 0 ? .unlimited : .max(3))
          multicast.subscribe(recorder)
          others.withLock { $0.append(recorder) }
          if round % 3 == 0 { recorder.cancel() }
        }
      }
    }
    // Values sent before the connection are not delivered; from the connection on, every one is.
    upstream.send(completion: .finished)
    expectEqual(keeper.violations, [])
    _ = Self.checkPerProducerOrder(keeper.values)
    expectEqual(keeper.completions, 1)
    for recorder in others.withLock({ $0 }) {
      expectEqual(recorder.violations, [])
      _ = Self.checkPerProducerOrder(recorder.values)
      #expect(recorder.completions <= 1)
    }
    connection.withLock { $0 }?.cancel()
  }

  @Test func multicastDeliversEverySendOnceConnected() {
    let upstream = PassthroughSubject<Int, Never>()
    let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
    let recorders = (0..<3).map { _ in ReliabilityStrictRecorder<Int, Never>() }
    for recorder in recorders { multicast.subscribe(recorder) }
    let connection = multicast.connect()
    Self.concurrently(Self.producers) { Self.sendAll(to: upstream, producer: $0) }
    Self.concurrently(2) { _ in upstream.send(completion: .finished) }
    for recorder in recorders {
      expectEqual(recorder.violations, [])
      expectEqual(
        Self.checkPerProducerOrder(recorder.values),
        Array(repeating: Self.perProducer, count: Self.producers)
      )
      expectEqual(recorder.completions, 1)
    }
    connection.cancel()
  }

  @Test func switchToLatestWhileChildrenSendFromManyThreads() {
    let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let children = (0..<Self.producers).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = ReliabilityStrictRecorder<Int, Never>()
    outer.switchToLatest().subscribe(recorder)
    Self.concurrently(Self.producers + 1) { index in
      if index < Self.producers {
        Self.sendAll(to: children[index], producer: index)
      } else {
        for round in 0..<Self.scaled(400) { outer.send(children[round % Self.producers]) }
      }
    }
    outer.send(completion: .finished)
    for child in children { child.send(completion: .finished) }
    expectEqual(recorder.violations, [])
    _ = Self.checkPerProducerOrder(recorder.values)
    expectEqual(recorder.completions, 1)
  }

  @Test func misbehavingPublisherCallingASinkFromManyThreadsDoesNotCrash() {
    let source = ReliabilityMisbehavingPublisher<Int, Never>()
    let count = StressLocked(0)
    let cancellable = source.sink { _ in count.withLock { $0 += 1 } }
    Self.concurrently(4) { index in
      for sequence in 0..<Self.scaled(1_000) { source.send(sequence) }
      if index == 0 { source.send(completion: .finished) }
    }
    #expect(count.withLock { $0 } <= 4 * Self.scaled(1_000))
    cancellable.cancel()
  }
}
