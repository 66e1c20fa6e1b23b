import RillCore
import Testing

@Suite struct SmokeTests {
  @Test func sequenceMapFilterSink() {
    var received: [Int] = []
    var completion: Subscribers.Completion<Never>?
    let cancellable = (1...6).publisher
      .map { $0 * 10 }
      .filter { $0 % 20 == 0 }
      .sink(receiveCompletion: { completion = $0 }, receiveValue: { received.append($0) })
    #expect(received == [20, 40, 60])
    #expect(completion == .finished)
    cancellable.cancel()
  }
}
