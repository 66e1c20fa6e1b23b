import RillCore
import RillTestSupport
import RillTesting
import Testing

/// Each subscriber gets its own chain of subscriptions (Combine's shadow subscription graph), so two sinks on one
/// `scan` each get their own running total, whether the upstream is a subject, a sequence, a `Deferred` or a
/// hand-written publisher; hand-written publishers and subscribers also work with Rill's.
@Suite struct ShadowGraphTests {
  private func makeSink(
    _ log: @escaping (TestSubscriber<Int, Never>.Event) -> Void
  ) -> Subscribers.Sink<Int, Never> {
    Subscribers.Sink(receiveCompletion: { log(.completion($0)) }, receiveValue: { log(.value($0)) })
  }

  private var expected: [TestSubscriber<Int, Never>.Event] {
    [.value(11), .value(13), .value(16), .value(20), .completion(.finished)]
  }

  @Test func subjectScanSink() {
    let subjectA = PassthroughSubject<Int, Never>()
    let scanB = Publishers.Scan(upstream: subjectA, initialResult: 10) { state, next in state + next }
    var receivedC: [TestSubscriber<Int, Never>.Event] = []
    scanB.subscribe(makeSink { receivedC.append($0) })
    for value in 1...4 { subjectA.send(value) }
    subjectA.send(completion: .finished)
    expectEqual(receivedC, expected)
  }

  @Test func sequenceABCD() {
    let sequenceA = Publishers.Sequence<ClosedRange<Int>, Never>(sequence: 1...4)
    let scanB = Publishers.Scan(upstream: sequenceA, initialResult: 10) { state, next in state + next }
    var receivedC: [TestSubscriber<Int, Never>.Event] = []
    var receivedD: [TestSubscriber<Int, Never>.Event] = []
    scanB.subscribe(makeSink { receivedC.append($0) })
    scanB.subscribe(makeSink { receivedD.append($0) })
    expectEqual(receivedC, expected)
    expectEqual(receivedD, expected)
  }

  @Test func overlappingABCD() {
    var subjects: [PassthroughSubject<Int, Never>] = []
    let deferred = Deferred { () -> PassthroughSubject<Int, Never> in
      let request = PassthroughSubject<Int, Never>()
      subjects.append(request)
      return request
    }
    let scanB = Publishers.Scan(upstream: deferred, initialResult: 10) { state, next in state + next }
    var receivedC: [TestSubscriber<Int, Never>.Event] = []
    var receivedD: [TestSubscriber<Int, Never>.Event] = []
    scanB.subscribe(makeSink { receivedC.append($0) })
    for value in 1...2 { subjects[0].send(value) }
    scanB.subscribe(makeSink { receivedD.append($0) })
    for value in 3...4 { subjects[0].send(value) }
    subjects[0].send(completion: .finished)
    for value in 1...4 { subjects[1].send(value) }
    subjects[1].send(completion: .finished)
    expectEqual(receivedC, expected)
    expectEqual(receivedD, expected)
  }

  @Test func handWrittenPublisherInteroperatesWithSinkAndScan() {
    let counting = CoreCountingPublisher(start: 1, count: 4)
    let scanB = counting.scan(10) { $0 + $1 }
    var receivedC: [TestSubscriber<Int, Never>.Event] = []
    var receivedD: [TestSubscriber<Int, Never>.Event] = []
    scanB.subscribe(makeSink { receivedC.append($0) })
    scanB.subscribe(makeSink { receivedD.append($0) })
    expectEqual(receivedC, expected)
    expectEqual(receivedD, expected)
  }

  @Test func handWrittenPublisherInteroperatesWithDeferredAndSubjects() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>()
    subject.subscribe(recorder)
    let cancellable = Deferred { CoreCountingPublisher(start: 5, count: 3) }.subscribe(subject)
    expectEqual(recorder.events, [.subscription, .value(5), .value(6), .value(7), .completion(.finished)])
    cancellable.cancel()
  }

  @Test func handWrittenSubscriberPacesRillPublishers() {
    let batching = CoreBatchingSubscriber(batch: 3)
    (1...10).publisher.map { $0 * 2 }.subscribe(batching)
    #expect(batching.received == (1...10).map { $0 * 2 })
    #expect(batching.finished)

    let current = CurrentValueSubject<Int, Never>(0)
    let fromSubject = CoreBatchingSubscriber(batch: 2)
    current.subscribe(fromSubject)
    for value in 1...5 { current.send(value) }
    expectEqual(fromSubject.received, [0, 1, 2, 3, 4, 5])
  }
}
