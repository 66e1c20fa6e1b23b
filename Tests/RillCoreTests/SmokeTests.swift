import RillCore
import RillTestSupport
import Testing

@Suite struct SmokeTests {
  @Test func sequenceMapFilterSink() {
    var received: [Int] = []
    var completion: Subscribers.Completion<Never>?
    let cancellable = (1...6).publisher
      .map { $0 * 10 }
      .filter { $0 % 20 == 0 }
      .sink(receiveCompletion: { completion = $0 }, receiveValue: { received.append($0) })
    expectEqual(received, [20, 40, 60])
    expectEqual(completion, .finished)
    cancellable.cancel()
  }
}
