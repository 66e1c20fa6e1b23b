import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ComparisonTests {
  @Test func minAndMaxMarbles() {
    #expect(reducingRun({ $0.min() }, inputs: [3, 1, 2]) == ["value(1)", "finished"])
    #expect(reducingRun({ $0.max() }, inputs: [1, 3, 2]) == ["value(3)", "finished"])
    #expect(reducingRun({ $0.min(by: <) }, inputs: [3, 1, 2]) == ["value(1)", "finished"])
    #expect(reducingRun({ $0.max(by: <) }, inputs: [1, 3, 2]) == ["value(3)", "finished"])
    #expect(reducingRun({ $0.min(by: >) }, inputs: [3, 1, 2]) == ["value(3)", "finished"])
  }

  @Test func emptyUpstreamFinishesWithoutValue() {
    #expect(reducingRun({ $0.min() }, inputs: []) == ["finished"])
    #expect(reducingRun({ $0.max() }, inputs: []) == ["finished"])
  }

  @Test func keepsTheFirstOfEqualElements() {
    struct Item: Equatable {
      let key: Int
      let tag: String
    }
    let subject = PassthroughSubject<Item, Never>()
    let minimum = TestSubscriber<Item, Never>()
    let maximum = TestSubscriber<Item, Never>()
    subject.min { $0.key < $1.key }.subscribe(minimum)
    subject.max { $0.key < $1.key }.subscribe(maximum)
    for item in [Item(key: 1, tag: "a"), Item(key: 2, tag: "b"), Item(key: 1, tag: "c"), Item(key: 2, tag: "d")] {
      subject.send(item)
    }
    subject.send(completion: .finished)
    expectEqual(minimum.events, [.subscription, .value(Item(key: 1, tag: "a")), .completion(.finished)])
    expectEqual(maximum.events, [.subscription, .value(Item(key: 2, tag: "b")), .completion(.finished)])
  }

  @Test func failure() {
    #expect(reducingRun({ $0.max() }, inputs: [1], completion: .failure(.oops)) == ["failure(oops)"])
  }

  @Test func contract() {
    ReducingContract({ $0.min() }, inputs: [5, 2, 8], expected: 2).checkAll()
    ReducingContract({ $0.max() }, inputs: [5, 2, 8], expected: 8).checkAll()
    ReducingContract({ $0.max() }, inputs: [], expected: nil).checkAll()
  }

  @Test func publicSurface() {
    let max: Publishers.Comparison<Just<Int>> = Just(1).max()
    expectEqual(max.upstream, Just(1))
    #expect(max.areInIncreasingOrder(1, 2))
    let min: Publishers.Comparison<Just<Int>> = Just(1).min(by: <)
    #expect(!min.areInIncreasingOrder(1, 2))
    _ = Publishers.Comparison(upstream: Just(1), areInIncreasingOrder: <)
  }
}

@Suite struct TryComparisonTests {
  @Test func marbles() {
    #expect(reducingRun({ $0.tryMin(by: <) }, inputs: [3, 1, 2]) == ["value(1)", "finished"])
    #expect(reducingRun({ $0.tryMax(by: <) }, inputs: [1, 3, 2]) == ["value(3)", "finished"])
    #expect(reducingRun({ $0.tryMax(by: <) }, inputs: []) == ["finished"])
  }

  @Test func throwCancelsUpstreamAndFailsAtOnce() {
    let upstream = TestPublisher<Int, ReducingTestError>()
    let recorder = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryMin { _, _ in throw ReducingTestError.thrown }.subscribe(recorder)
    upstream.send(1)
    expectEqual(recorder.eventDescriptions, ["subscription"])
    upstream.send(2)
    expectEqual(recorder.eventDescriptions, ["subscription", "failure(thrown)"])
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.cancelCount, 1)
    upstream.send(3)
    upstream.send(completion: .finished)
    recorder.request(.max(1))
    expectEqual(recorder.eventDescriptions, ["subscription", "failure(thrown)"])
  }

  @Test func contract() {
    ReducingContract({ $0.tryMin(by: <) }, inputs: [5, 2, 8], expected: 2).checkAll()
    ReducingContract({ $0.tryMax(by: <) }, inputs: [5, 2, 8], expected: 8).checkAll()
  }

  @Test func publicSurface() throws {
    let max: Publishers.TryComparison<Just<Int>> = Just(1).tryMax(by: <)
    expectEqual(max.upstream, Just(1))
    #expect(try max.areInIncreasingOrder(1, 2))
    _ = Publishers.TryComparison(upstream: Just(1), areInIncreasingOrder: <)
  }
}
