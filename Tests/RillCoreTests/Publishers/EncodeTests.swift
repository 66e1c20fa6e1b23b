import RillCore
import RillTestSupport
import RillTesting
import Testing

/// Encodes a value as its description; fails for the value `13`.
private struct DescriptionEncoder: TopLevelEncoder {
  func encode<T: Encodable>(_ value: T) throws -> String {
    let text = "\(value)"
    if text == "13" { throw OpsMiscError(13) }
    return text
  }
}

/// Decodes values that can be built from a string.
private struct DescriptionDecoder: TopLevelDecoder {
  func decode<T: Decodable>(_ type: T.Type, from input: String) throws -> T {
    guard let convertible = type as? any LosslessStringConvertible.Type,
      let value = convertible.init(input) as? T
    else { throw OpsMiscError(99) }
    return value
  }
}

@Suite struct EncodeTests {
  typealias Upstream = TestPublisher<Int, OpsMiscError>

  @Test func encodesValuesAndFinishes() {
    let upstream = Upstream()
    let recorder = TestSubscriber<String, any Error>()
    upstream.encode(encoder: DescriptionEncoder()).subscribe(recorder)
    upstream.send(1)
    upstream.send(22)
    upstream.send(completion: .finished)
    expectEqual(recorder.opsMiscEvents, [.subscription, .value("1"), .value("22"), .finished])
  }

  @Test func upstreamFailurePassesThrough() {
    let upstream = Upstream()
    let recorder = TestSubscriber<String, any Error>()
    upstream.encode(encoder: DescriptionEncoder()).subscribe(recorder)
    upstream.send(completion: .failure(OpsMiscError(4)))
    expectEqual(recorder.opsMiscEvents, [.subscription, .failure("OpsMiscError(4)")])
  }

  @Test func encodingErrorCancelsUpstreamAndFails() {
    let upstream = Upstream()
    let recorder = TestSubscriber<String, any Error>()
    upstream.encode(encoder: DescriptionEncoder()).subscribe(recorder)
    upstream.send(1)
    expectEqual(upstream.send(13), .none)
    #expect(upstream.isCancelled)
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(recorder.opsMiscEvents, [.subscription, .value("1"), .failure("OpsMiscError(13)")])
  }

  @Test func demandGoesStraightUpstream() {
    let upstream = Upstream()
    let recorder = TestSubscriber<String, any Error>(initialDemand: .max(2), onValue: { _, _ in .max(3) })
    upstream.encode(encoder: DescriptionEncoder()).subscribe(recorder)
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(3))
    recorder.request(.max(1))
    expectEqual(upstream.requestedDemands, [.max(2), .max(1)])
  }

  @Test func cancelCancelsUpstreamAndSilences() {
    let upstream = Upstream()
    let recorder = TestSubscriber<String, any Error>()
    upstream.encode(encoder: DescriptionEncoder()).subscribe(recorder)
    recorder.cancel()
    #expect(upstream.isCancelled)
    expectEqual(upstream.send(1), .none)
    upstream.send(completion: .finished)
    expectEqual(recorder.opsMiscEvents, [.subscription])
    let extra = TestSubscription()
    upstream.send(subscription: extra)
    #expect(extra.isCancelled)
  }

  @Test func requestCancelAndSendFromInsideReceive() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    let recorder = TestSubscriber<String, any Error>(
      initialDemand: .max(1),
      onValue: { recorder, value in
        switch value {
        case "1":
          recorder.request(.max(2))
          subject.send(2)
        case "2": break
        default: recorder.cancel()
        }
        return .none
      }
    )
    subject.encode(encoder: DescriptionEncoder()).subscribe(recorder)
    subject.send(1)
    subject.send(3)
    subject.send(4)
    expectEqual(recorder.values, ["1", "2", "3"])
  }

  @Test func releasedAfterCompletionAndAfterCancel() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<String, any Error>()
        subject.encode(encoder: DescriptionEncoder()).subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        subject.send(13)
        return [recorder, subscription]
      }
    )
    let other = PassthroughSubject<Int, OpsMiscError>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<String, any Error>()
        other.encode(encoder: DescriptionEncoder()).subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        recorder.cancel()
        return [recorder, subscription]
      }
    )
  }
}

@Suite struct DecodeTests {
  typealias Upstream = TestPublisher<String, OpsMiscError>

  @Test func decodesValuesAndFinishes() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, any Error>(initialDemand: .max(2))
    upstream.decode(type: Int.self, decoder: DescriptionDecoder()).subscribe(recorder)
    expectEqual(upstream.requestedDemands, [.max(2)])
    upstream.send("1")
    upstream.send("22")
    upstream.send(completion: .finished)
    expectEqual(recorder.opsMiscEvents, [.subscription, .value(1), .value(22), .finished])
  }

  @Test func decodingErrorCancelsUpstreamAndFails() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, any Error>()
    upstream.decode(type: Int.self, decoder: DescriptionDecoder()).subscribe(recorder)
    upstream.send("x")
    #expect(upstream.isCancelled)
    upstream.send("2")
    expectEqual(recorder.opsMiscEvents, [.subscription, .failure("OpsMiscError(99)")])
  }

  @Test func upstreamFailureAndCancel() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, any Error>()
    upstream.decode(type: Int.self, decoder: DescriptionDecoder()).subscribe(recorder)
    upstream.send(completion: .failure(OpsMiscError(5)))
    expectEqual(recorder.opsMiscEvents, [.subscription, .failure("OpsMiscError(5)")])
    let other = Upstream()
    let cancelled = TestSubscriber<Int, any Error>()
    other.decode(type: Int.self, decoder: DescriptionDecoder()).subscribe(cancelled)
    cancelled.cancel()
    #expect(other.isCancelled)
  }

  @Test func releasedAfterCompletion() {
    let subject = PassthroughSubject<String, OpsMiscError>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, any Error>()
        subject.decode(type: Int.self, decoder: DescriptionDecoder()).subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        subject.send("7")
        subject.send(completion: .finished)
        return [recorder, subscription]
      }
    )
  }

  @Test func requestCancelAndSendFromInsideReceive() {
    let subject = PassthroughSubject<String, OpsMiscError>()
    let recorder = TestSubscriber<Int, any Error>(
      initialDemand: .max(1),
      onValue: { recorder, value in
        switch value {
        case 1:
          recorder.request(.max(2))
          subject.send("2")
        case 2: break
        default: recorder.cancel()
        }
        return .none
      }
    )
    subject.decode(type: Int.self, decoder: DescriptionDecoder()).subscribe(recorder)
    subject.send("1")
    subject.send("3")
    subject.send("4")
    expectEqual(recorder.values, [1, 2, 3])
  }

  @Test func releasedAfterCancel() {
    let subject = PassthroughSubject<String, OpsMiscError>()
    let released = opsMiscAllReleased {
      let recorder = TestSubscriber<Int, any Error>()
      subject.decode(type: Int.self, decoder: DescriptionDecoder()).subscribe(recorder)
      let subscription = recorder.subscription! as AnyObject
      subject.send("7")
      expectEqual(recorder.values, [7])
      recorder.cancel()
      return [recorder, subscription]
    }
    #expect(released)
  }
}
