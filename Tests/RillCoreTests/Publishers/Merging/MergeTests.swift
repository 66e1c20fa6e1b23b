import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct MergeTests {
  typealias Source = TestPublisher<Int, CombiningError>

  private func merged(
    _ count: Int = 3,
    demand: Subscribers.Demand = .unlimited
  ) -> ([Source], TestSubscriber<Int, CombiningError>) {
    let sources = (0..<count).map { _ in Source() }
    let recorder = TestSubscriber<Int, CombiningError>(initialDemand: demand)
    Publishers.MergeMany(sources).subscribe(recorder)
    return (sources, recorder)
  }

  @Test func interleavesValuesAndFinishesWhenAllFinish() {
    let (sources, recorder) = merged()
    sources[0].send(1)
    sources[1].send(2)
    sources[2].send(3)
    sources[0].send(4)
    sources[0].send(completion: .finished)
    sources[1].send(completion: .finished)
    #expect(recorder.completions.isEmpty)
    sources[2].send(5)
    sources[2].send(completion: .finished)
    expectEqual(recorder.values, [1, 2, 3, 4, 5])
    expectEqual(recorder.completion, .finished)
  }

  @Test func failureFailsAndCancelsTheOthers() {
    let (sources, recorder) = merged()
    sources[1].send(completion: .failure(.boom))
    expectEqual(recorder.completion, .failure(.boom))
    #expect(sources[0].isCancelled)
    #expect(!sources[1].isCancelled)
    #expect(sources[2].isCancelled)
    sources[0].send(1)
    sources[2].send(completion: .finished)
    #expect(recorder.values.isEmpty)
    expectEqual(recorder.completions.count, 1)
  }

  @Test func asksEachUpstreamForOneAtATimeUnderFiniteDemand() {
    let (sources, recorder) = merged(2, demand: .max(1))
    expectEqual(sources[0].requestedDemands, [.max(1)])
    expectEqual(sources[1].requestedDemands, [.max(1)])
    expectEqual(sources[0].send(1), .max(1))
    expectEqual(sources[1].send(2), .none)
    expectEqual(recorder.values, [1])
    recorder.request(.max(1))
    expectEqual(recorder.values, [1, 2])
    expectEqual(sources[1].requestedDemands, [.max(1), .max(1)])
  }

  @Test func asksForUnlimitedUnderUnlimitedDemand() {
    let (sources, recorder) = merged(2, demand: .none)
    expectEqual(sources[0].requestedDemands, [.max(1)])
    recorder.request(.unlimited)
    expectEqual(sources[0].requestedDemands, [.max(1), .unlimited])
    expectEqual(sources[1].requestedDemands, [.max(1), .unlimited])
    expectEqual(sources[0].send(1), .none)
  }

  @Test func deliversQueuedValuesBeforeAskingForUnlimited() {
    let (sources, recorder) = merged(2, demand: .none)
    var demandsSeenOnDelivery: [[Subscribers.Demand]] = []
    recorder.onValue = { _, _ in
      demandsSeenOnDelivery.append(sources[1].requestedDemands)
      return .none
    }
    expectEqual(sources[1].send(7), .none)
    recorder.request(.unlimited)
    expectEqual(recorder.values, [7])
    expectEqual(demandsSeenOnDelivery, [[.max(1)]])
    expectEqual(sources[0].requestedDemands, [.max(1), .unlimited])
    expectEqual(sources[1].requestedDemands, [.max(1), .unlimited])
  }

  @Test func cancelCancelsEveryUpstreamAndSilences() {
    let (sources, recorder) = merged()
    recorder.cancel()
    #expect(sources.allSatisfy { $0.isCancelled })
    sources[0].send(1)
    sources[1].send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.completions.isEmpty)
  }

  @Test func reentrantSendRequestAndCancel() {
    let (sources, recorder) = merged(2, demand: .max(1))
    recorder.onValue = { _, value in
      if value == 1 { sources[1].send(2) }
      if value == 2 { recorder.cancel() }
      return .max(1)
    }
    sources[0].send(1)
    sources[0].send(3)
    expectEqual(recorder.values, [1, 2])
    expectEqual(recorder.overlappingDeliveries, 0)
    #expect(sources[0].isCancelled)
  }

  @Test func emptyMergeManyFinishesRightAway() {
    let recorder = TestSubscriber<Int, Never>()
    Publishers.MergeMany<Just<Int>>([]).subscribe(recorder)
    expectEqual(recorder.completion, .finished)
  }

  @Test func synchronousUpstreamsUnderLimitedDemand() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(3))
    [1, 2].publisher.merge(with: [10, 20].publisher).subscribe(recorder)
    expectEqual(recorder.values, [1, 2, 10])
    recorder.request(.max(5))
    expectEqual(recorder.values, [1, 2, 10, 20])
    expectEqual(recorder.completion, .finished)
  }

  @Test func everyArity() {
    let just = (1...8).map { Just($0) }
    func values<P: Publisher>(_ publisher: P) -> [Int] where P.Output == Int, P.Failure == Never {
      let recorder = TestSubscriber<Int, Never>()
      publisher.subscribe(recorder)
      expectEqual(recorder.completion, .finished)
      return recorder.values
    }
    expectEqual(values(just[0].merge(with: just[1])), [1, 2])
    expectEqual(values(just[0].merge(with: just[1], just[2])), [1, 2, 3])
    expectEqual(values(just[0].merge(with: just[1], just[2], just[3])), [1, 2, 3, 4])
    expectEqual(values(just[0].merge(with: just[1], just[2], just[3], just[4])), [1, 2, 3, 4, 5])
    expectEqual(values(just[0].merge(with: just[1], just[2], just[3], just[4], just[5])), Array(1...6))
    expectEqual(values(just[0].merge(with: just[1], just[2], just[3], just[4], just[5], just[6])), Array(1...7))
    #expect(
      values(just[0].merge(with: just[1], just[2], just[3], just[4], just[5], just[6], just[7])) == Array(1...8)
    )
    expectEqual(values(just[0].merge(with: just[1]).merge(with: just[2], just[3])), [1, 2, 3, 4])
    expectEqual(values(Publishers.Merge3(just[0], just[1], just[2]).merge(with: just[3], just[4])), Array(1...5))
    expectEqual(values(Publishers.Merge7(1, 2, 3, 4, 5, 6, 7, just: just).merge(with: just[7])), Array(1...8))
    expectEqual(values(Publishers.MergeMany(just[0], just[1]).merge(with: just[2])), [1, 2, 3])
  }

  @Test func typesAndEquatable() {
    let a = Just(1)
    let b = Just(2)
    let merge: Publishers.Merge<Just<Int>, Just<Int>> = a.merge(with: b)
    expectEqual(merge.a, a)
    let many: Publishers.MergeMany<Just<Int>> = a.merge(with: b)
    expectEqual(many, Publishers.MergeMany([a, b]))
    expectEqual(many.publishers, [a, b])
    expectEqual(Publishers.Merge4(a, b, a, b), Publishers.Merge4(a, b, a, b))
    #expect(Publishers.Merge8(a, a, a, a, a, a, a, a) != Publishers.Merge8(a, a, a, a, a, a, a, b))
  }

  @Test func releasesThePipelineAfterCompletionAndCancel() {
    weak var finished: TestSubscriber<Int, CombiningError>?
    weak var cancelled: TestSubscriber<Int, CombiningError>?
    do {
      let (sources, recorder) = merged(2)
      finished = recorder
      for source in sources {
        source.send(completion: .finished)
        source.releaseSubscribers()
      }
    }
    do {
      let (sources, recorder) = merged(2)
      cancelled = recorder
      recorder.cancel()
      for source in sources { source.releaseSubscribers() }
    }
    #expect(finished == nil)
    #expect(cancelled == nil)
  }

  @Test(.tags(.stress)) func concurrentUpstreamsLoseNothingAndNeverOverlap() {
    let producers = 4
    let perProducer = 2_000
    let subjects = (0..<producers).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = TestSubscriber<Int, Never>()
    Publishers.MergeMany(subjects).subscribe(recorder)
    combiningConcurrently(producers) { producer in
      for value in 0..<perProducer { subjects[producer].send(producer * 1_000_000 + value) }
      subjects[producer].send(completion: .finished)
    }
    expectEqual(recorder.overlappingDeliveries, 0)
    expectEqual(recorder.values.count, producers * perProducer)
    for producer in 0..<producers {
      let mine = recorder.values.filter { $0 / 1_000_000 == producer }.map { $0 % 1_000_000 }
      expectEqual(mine, Array(0..<perProducer))
    }
    expectEqual(recorder.completion, .finished)
  }
}

extension Publishers.Merge7 where A == Just<Int> {
  /// Seven of the given publishers, picked by their one-based positions.
  fileprivate init(_ i1: Int, _ i2: Int, _ i3: Int, _ i4: Int, _ i5: Int, _ i6: Int, _ i7: Int, just: [Just<Int>])
  where B == A, C == A, D == A, E == A, F == A, G == A {
    self.init(just[i1 - 1], just[i2 - 1], just[i3 - 1], just[i4 - 1], just[i5 - 1], just[i6 - 1], just[i7 - 1])
  }
}
