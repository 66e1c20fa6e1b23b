import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct PrintTests {
  typealias Upstream = TestPublisher<Int, OpsMiscError>

  @Test func logsEveryEventWithPrefix() {
    let stream = OpsMiscTextStream()
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(
      initialDemand: .max(2),
      onValue: { _, value in value == 1 ? .max(1) : .none }
    )
    upstream.print("👉", to: stream).subscribe(recorder)
    expectEqual(upstream.send(1), .max(1))
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(
      stream.lines == [
        "👉: receive subscription: (TestSubscription(requested: [], cancelled: 0))",
        "👉: request max: (2)",
        "👉: receive value: (1)",
        "👉: request max: (1) (synchronous)",
        "👉: receive value: (2)",
        "👉: receive finished",
      ]
    )
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    expectEqual(upstream.requestedDemands, [.max(2)])
  }

  /// As in Combine, a subscription writes to its own copy of the stream, in place: a stream with state keeps it
  /// from line to line.
  @Test func aStreamKeepsItsStateFromLineToLine() {
    final class Lines { var written: [String] = [] }
    struct Numbering: TextOutputStream {
      let lines: Lines
      var writes = 0
      mutating func write(_ string: String) {
        writes += 1
        if string != "\n", !string.isEmpty { lines.written.append("\(writes) \(string)") }
      }
    }
    let lines = Lines()
    let cancellable = Just(1).print("p", to: Numbering(lines: lines)).sink { _ in }
    #expect(
      lines.written == [
        "2 p: receive subscription: (Just)", "5 p: request unlimited", "8 p: receive value: (1)",
        "11 p: receive finished",
      ]
    )
    cancellable.cancel()
  }

  @Test func logsWithoutPrefix() {
    let stream = OpsMiscTextStream()
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(onValue: { _, _ in .unlimited })
    upstream.print(to: stream).subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(OpsMiscError(3)))
    #expect(
      stream.lines == [
        "receive subscription: (TestSubscription(requested: [], cancelled: 0))",
        "request unlimited",
        "receive value: (1)",
        "request unlimited (synchronous)",
        "receive error: (OpsMiscError(3))",
      ]
    )
    expectEqual(recorder.events, [.subscription, .value(1), .completion(.failure(OpsMiscError(3)))])
  }

  @Test func logsCancelAndCancelsUpstream() {
    let stream = OpsMiscTextStream()
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .none)
    upstream.print("p", to: stream).subscribe(recorder)
    recorder.cancel()
    #expect(upstream.isCancelled)
    #expect(
      stream.lines == ["p: receive subscription: (TestSubscription(requested: [], cancelled: 0))", "p: receive cancel"]
    )
  }

  /// As in Combine, what upstream sends after a cancel or a completion is logged and still reaches the subscriber;
  /// requests after the end are logged and go nowhere, and a second cancel is logged and cancels nothing.
  @Test func eventsAfterTheEndAreLoggedAndPassedOn() {
    let stream = OpsMiscTextStream()
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(
      initialDemand: .none,
      onValue: { _, value in value == 10 ? .unlimited : .max(2) }
    )
    upstream.print(to: stream).subscribe(recorder)
    let subscription = recorder.subscription
    recorder.cancel()
    expectEqual(upstream.send(1), .max(2))
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(OpsMiscError(3)))
    expectEqual(upstream.send(10), .unlimited)
    subscription?.cancel()
    subscription?.request(.max(1))
    #expect(
      recorder.events == [
        .subscription, .value(1), .completion(.finished), .completion(.failure(OpsMiscError(3))), .value(10),
      ]
    )
    expectEqual(upstream.cancelCount, 1)
    #expect(upstream.requestedDemands.isEmpty)
    #expect(
      stream.lines == [
        "receive subscription: (TestSubscription(requested: [], cancelled: 0))",
        "receive cancel",
        "receive value: (1)",
        "request max: (2) (synchronous)",
        "receive finished",
        "receive error: (OpsMiscError(3))",
        "receive value: (10)",
        "request unlimited (synchronous)",
        "receive cancel",
        "request max: (1)",
      ]
    )
  }

  @Test func keepsProperties() {
    let stream = OpsMiscTextStream()
    let publisher = Just(1).print("x", to: stream)
    expectEqual(publisher.prefix, "x")
    #expect(publisher.stream is OpsMiscTextStream)
    #expect(Just(1).print().stream == nil)
  }

  @Test func requestAndCancelFromInsideReceive() {
    let stream = OpsMiscTextStream()
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(
      initialDemand: .max(1),
      onValue: { recorder, value in
        if value == 1 { recorder.request(.max(1)) } else { recorder.cancel() }
        return .none
      }
    )
    upstream.print(to: stream).subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
    #expect(upstream.isCancelled)
    expectEqual(stream.lines.suffix(2), ["receive value: (2)", "receive cancel"])
  }

  @Test func sendFromInsideReceiveKeepsOrder() {
    let stream = OpsMiscTextStream()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(onValue: { _, value in
      if value == 1 { subject.send(2) }
      return .none
    })
    subject.print(to: stream).subscribe(recorder)
    subject.send(1)
    expectEqual(recorder.values, [1, 2])
    expectEqual(stream.lines.suffix(2), ["receive value: (1)", "receive value: (2)"])
  }

  @Test func releasedAfterCompletionAndAfterCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let stream = OpsMiscTextStream()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, Never>()
        subject.print(to: stream).subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        subject.send(completion: .finished)
        return [recorder, subscription]
      }
    )
    let other = PassthroughSubject<Int, Never>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, Never>()
        other.print(to: stream).subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        recorder.cancel()
        return [recorder, subscription]
      }
    )
  }

  @Test func writesToStandardOutputWithoutStream() async {
    await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      let cancellable = Just(7).print("out").sink { _ in }
      cancellable.cancel()
    }.map { result in
      let text = String(decoding: result.standardOutputContent, as: UTF8.self)
      #expect(
        text == """
          out: receive subscription: (Just)
          out: request unlimited
          out: receive value: (7)
          out: receive finished

          """
      )
    }
  }
}
