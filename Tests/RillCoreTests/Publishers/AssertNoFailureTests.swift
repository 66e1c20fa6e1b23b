import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct AssertNoFailureTests {
  @Test func republishesValuesAndFinish() {
    let upstream = TestPublisher<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.assertNoFailure().subscribe(recorder)
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .none)
    upstream.send(completion: .finished)
    expectEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
  }

  @Test func keepsPrefixFileAndLine() {
    let publisher = Fail<Int, OpsMiscError>(error: OpsMiscError()).assertNoFailure("tag", file: "f.swift", line: 3)
    expectEqual(publisher.prefix, "tag")
    expectEqual("\(publisher.file)", "f.swift")
    expectEqual(publisher.line, 3)
  }

  @Test func cancelAndReentrancyGoStraightUpstream() {
    let upstream = TestPublisher<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { recorder, value in
        if value == 1 { recorder.request(.max(1)) } else { recorder.cancel() }
        return .none
      }
    )
    upstream.assertNoFailure().subscribe(recorder)
    upstream.send(1)
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
    upstream.send(2)
    #expect(upstream.isCancelled)
  }

  @Test func releasedAfterCompletion() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, Never>()
        subject.assertNoFailure().subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        subject.send(1)
        subject.send(completion: .finished)
        return [recorder, subscription]
      }
    )
  }

  @Test func failureTrapsWithPrefixedMessage() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let subject = PassthroughSubject<Int, OpsMiscError>()
      let cancellable = subject.assertNoFailure("boom").sink { _ in }
      subject.send(completion: .failure(OpsMiscError(4)))
      cancellable.cancel()
    }.map { result in
      let text = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(text.contains("boom: OpsMiscError(4)"))
    }
  }

  @Test func releasedAfterCancel() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    let released = opsMiscAllReleased {
      let recorder = TestSubscriber<Int, Never>()
      subject.assertNoFailure().subscribe(recorder)
      let subscription = recorder.subscription! as AnyObject
      subject.send(1)
      expectEqual(recorder.values, [1])
      recorder.cancel()
      return [recorder, subscription]
    }
    #expect(released)
  }

  @Test func sendFromInsideReceiveKeepsOrder() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, Never>(onValue: { _, value in
      if value == 1 { subject.send(2) }
      return .none
    })
    subject.assertNoFailure().subscribe(recorder)
    subject.send(1)
    subject.send(3)
    expectEqual(recorder.values, [1, 2, 3])
  }
}
