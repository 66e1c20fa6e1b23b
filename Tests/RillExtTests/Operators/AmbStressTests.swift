import RillExt
import RillTesting
import Testing

@Suite(.tags(.stress)) struct AmbStressTests {
  @Test func twoThreadsRaceAndOneWinsWhole() async {
    for _ in 0..<50 {
      let left = PassthroughSubject<Int, Never>()
      let right = PassthroughSubject<Int, Never>()
      let subscriber = TestSubscriber<Int, Never>()
      left.amb(right).subscribe(subscriber)
      await withTaskGroup(of: Void.self) { group in
        group.addTask { for value in 0..<200 { left.send(value) } }
        group.addTask { for value in 1000..<1200 { right.send(value) } }
      }
      let values = subscriber.values
      #expect(values == Array(0..<200) || values == Array(1000..<1200))
    }
  }

  @Test func requestsRaceTheWinnersValues() async {
    for _ in 0..<50 {
      let source = PassthroughSubject<Int, Never>()
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
      source.amb(Empty(completeImmediately: false)).subscribe(subscriber)
      source.send(0)
      await withTaskGroup(of: Void.self) { group in
        group.addTask { for _ in 0..<100 { subscriber.request(.max(1)) } }
        group.addTask { for value in 1..<100 { source.send(value) } }
      }
      // Whatever was sent without demand is dropped by the subject; what arrives is in order, without repeats.
      let values = subscriber.values
      #expect(values.first == 0 && values == values.sorted() && Set(values).count == values.count)
      #expect(values.count <= 100)
    }
  }
}
