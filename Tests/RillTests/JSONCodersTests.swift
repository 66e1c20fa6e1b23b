import Foundation
import Rill
import RillTestSupport
import Testing

@Suite struct JSONCodersTests {
  struct Point: Codable, Equatable {
    let x: Int
    let y: Int
  }

  @Test func jsonRoundTrip() throws {
    var decoded: [Point] = []
    var completion: Subscribers.Completion<any Error>?
    let points = [Point(x: 1, y: 2), Point(x: 3, y: 4)]
    let cancellable = points.publisher
      .encode(encoder: JSONEncoder())
      .decode(type: Point.self, decoder: JSONDecoder())
      .sink(receiveCompletion: { completion = $0 }, receiveValue: { decoded.append($0) })
    expectEqual(decoded, points)
    guard case .finished = completion else {
      Issue.record("expected the round trip to finish, got \(String(describing: completion))")
      return
    }
    cancellable.cancel()
  }

  @Test func jsonEncoderProducesData() throws {
    var output: [Data] = []
    let cancellable = Just(Point(x: 5, y: 6)).encode(encoder: JSONEncoder())
      .sink(receiveCompletion: { _ in }, receiveValue: { output.append($0) })
    expectEqual(output.count, 1)
    #expect(try JSONDecoder().decode(Point.self, from: output[0]) == Point(x: 5, y: 6))
    cancellable.cancel()
  }

  @Test func invalidJSONFailsWithTheDecodingError() {
    var failure: (any Error)?
    let cancellable = Just(Data("not json".utf8))
      .decode(type: Point.self, decoder: JSONDecoder())
      .sink(
        receiveCompletion: { completion in
          if case .failure(let error) = completion { failure = error }
        },
        receiveValue: { _ in Issue.record("no value expected") }
      )
    #expect(failure is DecodingError)
    cancellable.cancel()
  }

  @Test func propertyListRoundTrip() {
    var decoded: [Point] = []
    let cancellable = Just(Point(x: 7, y: 8))
      .encode(encoder: PropertyListEncoder())
      .decode(type: Point.self, decoder: PropertyListDecoder())
      .sink(receiveCompletion: { _ in }, receiveValue: { decoded.append($0) })
    expectEqual(decoded, [Point(x: 7, y: 8)])
    cancellable.cancel()
  }

  @Test func codersConformGenerically() throws {
    func encodeWith<E: TopLevelEncoder>(_ encoder: E) throws -> E.Output { try encoder.encode(Point(x: 1, y: 1)) }
    func decodeWith<D: TopLevelDecoder>(_ decoder: D, _ input: D.Input) throws -> Point {
      try decoder.decode(Point.self, from: input)
    }
    #expect(try decodeWith(JSONDecoder(), encodeWith(JSONEncoder())) == Point(x: 1, y: 1))
    #expect(try decodeWith(PropertyListDecoder(), encodeWith(PropertyListEncoder())) == Point(x: 1, y: 1))
  }
}
