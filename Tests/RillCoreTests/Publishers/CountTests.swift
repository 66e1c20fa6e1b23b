import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct CountTests {
  @Test func marble() {
    #expect(reducingRun({ $0.count() }, inputs: [7, 8, 9]) == ["value(3)", "finished"])
  }

  @Test func emptyUpstreamPublishesZero() {
    #expect(reducingRun({ $0.count() }, inputs: []) == ["value(0)", "finished"])
  }

  @Test func failure() {
    #expect(reducingRun({ $0.count() }, inputs: [1], completion: .failure(.oops)) == ["failure(oops)"])
  }

  @Test func contract() {
    ReducingContract({ $0.count() }, inputs: [4, 5, 6, 7], expected: 4).checkAll()
  }

  @Test func publicSurface() {
    let count: Publishers.Count<Just<Int>> = Just(1).count()
    expectEqual(count.upstream, Just(1))
    expectEqual(count, Publishers.Count(upstream: Just(1)))
  }
}

@Suite struct ReducingConcurrencyTests {
  /// Values, completion and cancel race from several threads: the operator delivers at most one value and one
  /// completion, and never crashes.
  @Test func cancelRacingWithValues() async {
    for _ in 0..<200 {
      let subject = PassthroughSubject<Int, Never>()
      let recorder = TestSubscriber<Int, Never>()
      subject.count().subscribe(recorder)
      await withTaskGroup(of: Void.self) { group in
        group.addTask { for value in 0..<50 { subject.send(value) } }
        group.addTask { recorder.cancel() }
        group.addTask { subject.send(completion: .finished) }
      }
      let events = recorder.events
      expectEqual(events.first, .subscription)
      #expect(events.count <= 3)
      if events.count == 3 {
        expectEqual(events.last, .completion(.finished))
      }
    }
  }
}
