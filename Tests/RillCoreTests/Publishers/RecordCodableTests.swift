import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct RecordCodableTests {
  private enum CodableError: Error, Codable, Equatable {
    case broken(code: Int)
  }

  @Test func recordRoundTripsThroughJSON() throws {
    let record = Record<String, CodableError>(output: ["a", "b"], completion: .failure(.broken(code: 7)))
    let data = try JSONEncoder().encode(record)
    let decoded = try JSONDecoder().decode(Record<String, CodableError>.self, from: data)
    expectEqual(decoded.recording.output, ["a", "b"])
    expectEqual(decoded.recording.completion, .failure(.broken(code: 7)))
    var values: [String] = []
    var completion: Subscribers.Completion<CodableError>?
    let cancellable = decoded.sink(receiveCompletion: { completion = $0 }, receiveValue: { values.append($0) })
    expectEqual(values, ["a", "b"])
    expectEqual(completion, .failure(.broken(code: 7)))
    cancellable.cancel()
  }

  @Test func recordingRoundTripsThroughJSON() throws {
    let recording = Record<Int, Never>.Recording(output: [1, 2, 3])
    let encoded = try JSONEncoder().encode(recording)
    let decoded = try JSONDecoder().decode(Record<Int, Never>.Recording.self, from: encoded)
    expectEqual(decoded.output, [1, 2, 3])
    expectEqual(decoded.completion, .finished)
  }

  /// Encodes a recording through `encode(into:)`, which Combine declares next to `encode(to:)`.
  private struct EncodedInto<Output: Codable, Failure: Error & Codable>: Encodable {
    let recording: Record<Output, Failure>.Recording

    func encode(to encoder: any Encoder) throws {
      try recording.encode(into: encoder)
    }
  }

  /// `Record.Recording.encode(into:)` exists, as in Combine, and encodes as `encode(to:)` does.
  @Test func recordingEncodeIntoMatchesEncodeTo() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let recording = Record<String, CodableError>.Recording(output: ["a", "b"], completion: .failure(.broken(code: 7)))
    let into = try encoder.encode(EncodedInto(recording: recording))
    #expect(into == (try encoder.encode(recording)))
    let decoded = try JSONDecoder().decode(Record<String, CodableError>.Recording.self, from: into)
    expectEqual(decoded.output, ["a", "b"])
    expectEqual(decoded.completion, .failure(.broken(code: 7)))
  }
}

/// What a `Record`'s subscription shows in `print()` and the debugger, as Combine's does.
@Suite struct RecordSubscriptionDescriptionTests {
  @Test func describesItsOutputWhileDeliveringAndIsCancelledEventsOnceEnded() throws {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(recorder)
    let subscription = try #require(recorder.subscription)
    expectEqual("\(subscription)", "[1, 2]")
    let mirror = Mirror(reflecting: subscription)
    expectEqual(mirror.children.map(\.label), ["sequence", "completion"])
    #expect(mirror.children.map { "\($0.value)" } == ["[1, 2]", "finished"])
    recorder.request(.max(1))
    expectEqual("\(subscription)", "[1, 2]")
    subscription.cancel()
    expectEqual("\(subscription)", "Cancelled Events")
    #expect(Mirror(reflecting: subscription).children.map { "\($0.value)" } == ["[]", "finished"])
  }
}
