import Countdown
import Dispatch
import Testing

#if canImport(Combine)
import Combine
#elseif Rill
import Rill
#endif

@Test func whereCombineIsMissingTheRillTraitIsOn() {
  #if canImport(Combine) || Rill
  let hasCombinesAPI = true
  #else
  let hasCombinesAPI = false
  #endif
  #expect(hasCombinesAPI, "build with the Rill trait where Combine is missing")
}

#if canImport(Combine) || Rill
@Suite struct CountdownTests {
  @Test func countsDownToZeroAndFinishes() {
    var values: [Int] = []
    var finished = false
    let cancellable = Publishers.countdown(from: 3, every: 1, scheduler: ImmediateScheduler.shared)
      .sink(receiveCompletion: { _ in finished = true }, receiveValue: { values.append($0) })
    #expect(values == [3, 2, 1, 0])
    #expect(finished)
    _ = cancellable
  }

  @Test func waitsTheIntervalBeforeEachNumber() async {
    let start = DispatchTime.now()
    var values: [Int] = []
    for await value in Publishers.countdown(from: 2, every: .milliseconds(20), scheduler: DispatchQueue.global())
      .values
    {
      values.append(value)
    }
    #expect(values == [2, 1, 0])
    #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 60_000_000)
  }
}
#endif
