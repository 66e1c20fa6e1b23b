import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct AllSatisfyTests {
  @Test func marbles() {
    #expect(reducingRun({ $0.allSatisfy { $0 > 0 } }, inputs: [1, 2, 3]) == ["value(true)", "finished"])
    #expect(reducingRun({ $0.allSatisfy { $0 < 2 } }, inputs: [1, 2, 3]) == ["value(false)", "finished"])
    #expect(reducingRun({ $0.allSatisfy { _ in false } }, inputs: []) == ["value(true)", "finished"])
  }

  @Test func cancelsUpstreamOnFirstMismatch() {
    let upstream = TestPublisher<Int, ReducingTestError>()
    let recorder = TestSubscriber<Bool, ReducingTestError>(initialDemand: .max(1))
    upstream.allSatisfy { $0 < 2 }.subscribe(recorder)
    upstream.send(1)
    expectEqual(recorder.events, [.subscription])
    upstream.send(2)
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.cancelCount, 1)
    expectEqual(recorder.events, [.subscription, .value(false), .completion(.finished)])
  }

  @Test func failure() {
    #expect(reducingRun({ $0.allSatisfy { $0 > 0 } }, inputs: [1], completion: .failure(.oops)) == ["failure(oops)"])
  }

  @Test func contract() {
    ReducingContract({ $0.allSatisfy { $0 < 2 } }, inputs: [1, 2, 3], expected: false, stopsAfter: 2).checkAll()
    ReducingContract({ $0.allSatisfy { $0 > 0 } }, inputs: [1, 2, 3], expected: true).checkAll()
  }

  @Test func publicSurface() {
    let all: Publishers.AllSatisfy<Just<Int>> = Just(1).allSatisfy { $0 == 1 }
    expectEqual(all.upstream, Just(1))
    #expect(all.predicate(1))
    _ = Publishers.AllSatisfy(upstream: Just(1)) { $0 > 0 }
  }
}

@Suite struct TryAllSatisfyTests {
  @Test func marbles() {
    #expect(reducingRun({ $0.tryAllSatisfy { $0 > 0 } }, inputs: [1, 2, 3]) == ["value(true)", "finished"])
    #expect(reducingRun({ $0.tryAllSatisfy { $0 < 2 } }, inputs: [1, 2, 3]) == ["value(false)", "finished"])
  }

  @Test func throwCancelsUpstreamAndFailsAtOnce() {
    let upstream = TestPublisher<Int, ReducingTestError>()
    let recorder = TestSubscriber<Bool, any Error>(initialDemand: .none)
    upstream.tryAllSatisfy { _ in throw ReducingTestError.thrown }.subscribe(recorder)
    upstream.send(1)
    expectEqual(recorder.eventDescriptions, ["subscription", "failure(thrown)"])
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.cancelCount, 1)
    upstream.send(completion: .finished)
    expectEqual(recorder.eventDescriptions, ["subscription", "failure(thrown)"])
  }

  @Test func contract() {
    ReducingContract({ $0.tryAllSatisfy { $0 < 2 } }, inputs: [1, 2, 3], expected: false, stopsAfter: 2).checkAll()
    ReducingContract({ $0.tryAllSatisfy { $0 > 0 } }, inputs: [1, 2, 3], expected: true).checkAll()
  }

  @Test func publicSurface() throws {
    let all: Publishers.TryAllSatisfy<Just<Int>> = Just(1).tryAllSatisfy { $0 == 1 }
    expectEqual(all.upstream, Just(1))
    #expect(try all.predicate(1))
    _ = Publishers.TryAllSatisfy(upstream: Just(1)) { $0 > 0 }
  }
}
