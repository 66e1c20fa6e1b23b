import Foundation
import RillCore
import RillTestSupport
import Testing

/// Rill facing publishers and subscribers that break the contract: values without demand, events after the completion, two completions, a second subscription, and requests and cancels from another thread during delivery.
///
/// Rill must never crash, never deliver beyond demand where it owns demand, and never deliver after a completion. The
/// policy is written down in the Rill catalog's "Threading and misbehaviour" article.
@Suite struct MisbehaviourTests {
  typealias Source = ReliabilityMisbehavingPublisher<Int, ReliabilityError>

  private final class Target: @unchecked Sendable {
    var value = 0
    var history: [Int] = []
  }

  // MARK: - Sink

  /// As in Combine, a sink delivers a value and a completion that arrive before its subscription, and
  /// nothing after the completion; a cancel before the subscription does nothing.
  @Test func sinkDeliversEventsBeforeItsSubscription() {
    var events: [String] = []
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { events.append("\($0)") },
      receiveValue: { events.append("\($0)") }
    )
    sink.cancel()
    _ = sink.receive(1)
    sink.receive(completion: .finished)
    _ = sink.receive(2)
    sink.receive(completion: .finished)
    expectEqual(events, ["1", "finished"])
  }

  @Test func sinkIgnoresEventsAfterCompletionAndASecondCompletion() {
    let source = Source()
    var events: [String] = []
    let cancellable = source.sink(
      receiveCompletion: { events.append("\($0)") },
      receiveValue: { events.append("\($0)") }
    )
    source.send(1)
    source.send(completion: .failure(.boom))
    source.send(2)
    source.send(completion: .finished)
    expectEqual(events, ["1", "failure(RillCoreTests.ReliabilityError.boom)"])
    expectEqual(source.subscriptions[0].cancels, 0)
    cancellable.cancel()
    expectEqual(source.subscriptions[0].cancels, 0)
  }

  @Test func sinkCancelsASecondSubscriptionAndKeepsTheFirst() {
    let source = Source()
    var values: [Int] = []
    let cancellable = source.sink(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
    let extra = source.sendSubscription()
    source.send(1)
    expectEqual(extra.cancels, 1)
    expectEqual(extra.demand, .none)
    expectEqual(source.subscriptions[0].demand, .unlimited)
    expectEqual(values, [1])
    cancellable.cancel()
    expectEqual(source.subscriptions[0].cancels, 1)
  }

  @Test func sinkIsSilentAfterCancelWhileUpstreamKeepsSending() {
    let source = Source()
    var values: [Int] = []
    var completions = 0
    let cancellable = source.sink(receiveCompletion: { _ in completions += 1 }, receiveValue: { values.append($0) })
    source.send(1)
    cancellable.cancel()
    source.send(2)
    source.send(completion: .finished)
    expectEqual(values, [1])
    expectEqual(completions, 0)
    expectEqual(source.subscriptions[0].cancels, 1)
  }

  // MARK: - Assign

  @Test func assignIgnoresEventsAfterCompletionAndASecondSubscription() {
    let source = ReliabilityMisbehavingPublisher<Int, Never>()
    let target = Target()
    let cancellable = source.assign(to: \.value, on: target)
    let extra = source.sendSubscription()
    source.send(1)
    source.send(completion: .finished)
    source.send(2)
    source.send(completion: .finished)
    expectEqual(extra.cancels, 1)
    expectEqual(target.value, 1)
    cancellable.cancel()
    expectEqual(source.subscriptions[0].cancels, 0)
  }

  @Test func assignIsSilentAfterCancel() {
    let source = ReliabilityMisbehavingPublisher<Int, Never>()
    let target = Target()
    let cancellable = source.assign(to: \.value, on: target)
    source.send(1)
    cancellable.cancel()
    source.send(2)
    expectEqual(target.value, 1)
    expectEqual(source.subscriptions[0].cancels, 1)
  }

  // MARK: - Subjects as subscribers

  @Test(arguments: [false, true])
  func subjectFedByAMisbehavingPublisherKeepsItsContract(currentValue: Bool) {
    let source = Source()
    let subject: any Subject<Int, ReliabilityError> =
      currentValue ? CurrentValueSubject<Int, ReliabilityError>(0) : PassthroughSubject<Int, ReliabilityError>()
    let recorder = ReliabilityStrictRecorder<Int, ReliabilityError>(initialDemand: .max(2))
    subject.subscribe(recorder)
    let cancellable = source.subscribe(subject)
    expectEqual(source.subscriptions[0].demand, .unlimited)
    let extra = source.sendSubscription()
    for value in 1...5 { source.send(value) }
    source.send(completion: .finished)
    source.send(6)
    source.send(completion: .failure(.boom))
    expectEqual(extra.cancels, 1)
    expectEqual(recorder.violations, [])
    #expect(recorder.values == (currentValue ? [0, 1] : [1, 2]))
    expectEqual(recorder.completions, 1)
    cancellable.cancel()
  }

  @Test func subjectSubscriberIsSilentAfterCancel() {
    let source = Source()
    let subject = PassthroughSubject<Int, ReliabilityError>()
    let recorder = ReliabilityStrictRecorder<Int, ReliabilityError>()
    subject.subscribe(recorder)
    let cancellable = source.subscribe(subject)
    source.send(1)
    cancellable.cancel()
    source.send(2)
    source.send(completion: .finished)
    expectEqual(recorder.events, [.value(1)])
    expectEqual(source.subscriptions[0].cancels, 1)
  }

  // MARK: - Pass-through operators

  /// Pipelines of operators that hand upstream's subscription to downstream, as Combine's do.
  static let passThrough: [(String, @Sendable (Source) -> AnyPublisher<Int, ReliabilityError>)] = [
    ("map", { $0.map { $0 * 10 }.eraseToAnyPublisher() }),
    ("filter", { $0.filter { $0 != 3 }.eraseToAnyPublisher() }),
    ("scan", { $0.scan(0) { $0 + $1 }.eraseToAnyPublisher() }),
    ("map.filter.scan", { $0.map { $0 + 1 }.filter { $0 > 0 }.scan(0) { $1 }.eraseToAnyPublisher() }),
    ("eraseToAnyPublisher", { $0.eraseToAnyPublisher() }),
  ]

  @Test(arguments: 0..<passThrough.count)
  func passThroughOperatorsEndingInASinkNeverDeliverAfterCompletion(index: Int) {
    let (name, make) = Self.passThrough[index]
    let source = Source()
    var events: [String] = []
    let cancellable = make(source).sink(
      receiveCompletion: { events.append("\($0)") },
      receiveValue: { events.append("\($0)") }
    )
    let extra = source.sendSubscription()
    source.send(1)
    source.send(completion: .finished)
    source.send(2)
    source.send(completion: .failure(.boom))
    expectEqual(extra.cancels, 1, "\(name)")
    expectEqual(events.last, "finished", "\(name)")
    expectEqual(events.count, 2, "\(name)")
    cancellable.cancel()
  }

  /// A pass-through operator is transparent: it neither adds nor removes a misbehaving upstream's surplus, as in
  /// Combine; the first subscriber or operator that owns demand (a `Sink`, a subject, `flatMap`, ...) enforces it.
  @Test(arguments: 0..<passThrough.count)
  func passThroughOperatorsAreTransparentToSurplusValues(index: Int) {
    let (name, make) = Self.passThrough[index]
    let source = Source()
    let recorder = ReliabilityStrictRecorder<Int, ReliabilityError>(initialDemand: .max(1))
    make(source).subscribe(recorder)
    expectEqual(source.subscriptions[0].demand, .max(1), "\(name)")
    source.send(1)
    source.send(2)
    #expect(recorder.violations.contains { $0.hasSuffix("beyond demand") }, "\(name)")
    recorder.cancel()
    expectEqual(source.subscriptions[0].cancels, 1, "\(name)")
  }

  // MARK: - Requests and cancels from another thread during delivery

  /// Runs `body` on another thread and waits for it: the calling thread is still inside its callback meanwhile.
  private static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      body()
      done.signal()
    }
    done.wait()
  }

  @Test(.timeLimit(.minutes(1)))
  func requestFromAnotherThreadDuringSequenceDeliveryStaysSerial() {
    let recorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: .max(1)) { recorder, _ in
      Self.onAnotherThread { recorder.request(.max(1)) }
      return .none
    }
    (1...200).publisher.map { $0 }.filter { _ in true }.subscribe(recorder)
    expectEqual(recorder.violations, [])
    expectEqual(recorder.values, Array(1...200))
    expectEqual(recorder.completions, 1)
  }

  @Test(.timeLimit(.minutes(1)))
  func requestFromAnotherThreadDuringSubjectDeliveryStaysSerial() {
    // A send from the other thread would wait for this delivery to return, which waits for the other thread: the
    // deadlock Combine has too. Requests do not wait.
    let subject = PassthroughSubject<Int, Never>()
    let recorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: .max(1)) { recorder, _ in
      Self.onAnotherThread { recorder.request(.max(1)) }
      return .none
    }
    subject.scan(0) { $1 }.subscribe(recorder)
    for value in 1...100 { subject.send(value) }
    subject.send(completion: .finished)
    expectEqual(recorder.violations, [])
    expectEqual(recorder.values, Array(1...100))
    expectEqual(recorder.completions, 1)
  }

  @Test(.timeLimit(.minutes(1)))
  func requestFromAnotherThreadDuringCurrentValueSubjectDeliveryStaysSerial() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let recorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: .max(1)) { recorder, _ in
      Self.onAnotherThread { recorder.request(.max(1)) }
      return .none
    }
    subject.subscribe(recorder)
    for value in 1...100 { subject.send(value) }
    expectEqual(recorder.violations, [])
    expectEqual(recorder.values, Array(0...100))
  }

  @Test(.timeLimit(.minutes(1)))
  func requestFromAnotherThreadWithoutWaitingNeverOverlaps() {
    let recorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: .max(1)) { recorder, _ in
      Thread.detachNewThread { recorder.request(.max(1)) }
      return .none
    }
    (1...500).publisher.map { $0 }.subscribe(recorder)
    while recorder.completions == 0 { usleep(200) }
    expectEqual(recorder.violations, [])
    expectEqual(recorder.values, Array(1...500))
  }

  @Test(.timeLimit(.minutes(1)))
  func cancelFromAnotherThreadDuringDeliveryStopsIt() {
    let sequenceRecorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: .unlimited) { recorder, _ in
      Self.onAnotherThread { recorder.cancel() }
      return .none
    }
    (1...10).publisher.map { $0 }.subscribe(sequenceRecorder)
    expectEqual(sequenceRecorder.events, [.value(1)])

    let subject = PassthroughSubject<Int, Never>()
    let subjectRecorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: .unlimited) { recorder, _ in
      Self.onAnotherThread {
        recorder.cancel()
        subject.send(99)
      }
      return .none
    }
    subject.subscribe(subjectRecorder)
    subject.send(1)
    subject.send(2)
    expectEqual(subjectRecorder.events, [.value(1)])
  }
}
