import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ContainsTests {
  @Test func marbles() {
    #expect(reducingRun({ $0.contains(2) }, inputs: [1, 2, 3]) == ["value(true)", "finished"])
    #expect(reducingRun({ $0.contains(5) }, inputs: [1, 2, 3]) == ["value(false)", "finished"])
    #expect(reducingRun({ $0.contains(5) }, inputs: []) == ["value(false)", "finished"])
  }

  @Test func cancelsUpstreamOnMatchAndWaitsForDemand() {
    let upstream = TestPublisher<Int, ReducingTestError>()
    let recorder = TestSubscriber<Bool, ReducingTestError>(initialDemand: .none)
    upstream.contains(2).subscribe(recorder)
    upstream.send(1)
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.cancelCount, 0)
    upstream.send(2)
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.cancelCount, 1)
    expectEqual(recorder.events, [.subscription])
    recorder.request(.max(1))
    expectEqual(recorder.events, [.subscription, .value(true), .completion(.finished)])
  }

  @Test func failureBeforeMatch() {
    #expect(reducingRun({ $0.contains(9) }, inputs: [1], completion: .failure(.oops)) == ["failure(oops)"])
  }

  @Test func contract() {
    ReducingContract({ $0.contains(2) }, inputs: [1, 2, 3], expected: true, stopsAfter: 2).checkAll()
    ReducingContract({ $0.contains(7) }, inputs: [1, 2, 3], expected: false).checkAll()
  }

  @Test func publicSurface() {
    let contains: Publishers.Contains<Just<Int>> = Just(1).contains(1)
    expectEqual(contains.upstream, Just(1))
    expectEqual(contains.output, 1)
    expectEqual(contains, Publishers.Contains(upstream: Just(1), output: 1))
    #expect(contains != Publishers.Contains(upstream: Just(1), output: 2))
  }
}

@Suite struct ContainsWhereTests {
  @Test func marbles() {
    #expect(reducingRun({ $0.contains { $0 > 1 } }, inputs: [1, 2, 3]) == ["value(true)", "finished"])
    #expect(reducingRun({ $0.contains { $0 > 5 } }, inputs: [1, 2, 3]) == ["value(false)", "finished"])
  }

  @Test func contract() {
    ReducingContract({ $0.contains { $0 > 1 } }, inputs: [1, 2, 3], expected: true, stopsAfter: 2).checkAll()
    ReducingContract({ $0.contains { $0 > 5 } }, inputs: [1, 2, 3], expected: false).checkAll()
  }

  @Test func publicSurface() {
    let contains: Publishers.ContainsWhere<Just<Int>> = Just(1).contains { $0 == 1 }
    expectEqual(contains.upstream, Just(1))
    #expect(contains.predicate(1))
    _ = Publishers.ContainsWhere(upstream: Just(1)) { $0 > 0 }
  }
}

@Suite struct TryContainsWhereTests {
  @Test func marbles() {
    #expect(reducingRun({ $0.tryContains { $0 > 1 } }, inputs: [1, 2, 3]) == ["value(true)", "finished"])
    #expect(reducingRun({ $0.tryContains { $0 > 5 } }, inputs: [1, 2, 3]) == ["value(false)", "finished"])
  }

  @Test func throwCancelsUpstreamAndFailsAtOnce() {
    let upstream = TestPublisher<Int, ReducingTestError>()
    let recorder = TestSubscriber<Bool, any Error>(initialDemand: .none)
    upstream.tryContains { _ in throw ReducingTestError.thrown }.subscribe(recorder)
    upstream.send(1)
    expectEqual(recorder.eventDescriptions, ["subscription", "failure(thrown)"])
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.cancelCount, 1)
    upstream.send(2)
    recorder.request(.max(1))
    expectEqual(recorder.eventDescriptions, ["subscription", "failure(thrown)"])
  }

  @Test func contract() {
    ReducingContract({ $0.tryContains { $0 > 1 } }, inputs: [1, 2, 3], expected: true, stopsAfter: 2).checkAll()
    ReducingContract({ $0.tryContains { $0 > 5 } }, inputs: [1, 2, 3], expected: false).checkAll()
  }

  @Test func publicSurface() throws {
    let contains: Publishers.TryContainsWhere<Just<Int>> = Just(1).tryContains { $0 == 1 }
    expectEqual(contains.upstream, Just(1))
    #expect(try contains.predicate(1))
    _ = Publishers.TryContainsWhere(upstream: Just(1)) { $0 > 0 }
  }
}
