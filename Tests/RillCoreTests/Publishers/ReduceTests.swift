import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ReduceTests {
  @Test func marble() {
    #expect(reducingRun({ $0.reduce(0) { $0 + $1 } }, inputs: [1, 2, 3]) == ["value(6)", "finished"])
  }

  @Test func foldsInOrder() {
    let events = reducingRun({ $0.reduce("") { $0 + String($1) } }, inputs: [1, 2, 3])
    expectEqual(events, ["value(123)", "finished"])
  }

  @Test func emptyUpstreamPublishesInitialResult() {
    #expect(reducingRun({ $0.reduce(10) { $0 + $1 } }, inputs: []) == ["value(10)", "finished"])
  }

  @Test func failure() {
    #expect(reducingRun({ $0.reduce(0, +) }, inputs: [1], completion: .failure(.oops)) == ["failure(oops)"])
  }

  @Test func contract() {
    ReducingContract({ $0.reduce(0, +) }, inputs: [1, 2, 3], expected: 6).checkAll()
  }

  @Test func zeroDemandRequestTraps() async {
    await #expect(processExitsWith: .failure) {
      let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
      PassthroughSubject<Int, Never>().reduce(0, +).subscribe(recorder)
      recorder.subscription?.request(.none)
    }
  }

  @Test func eachSubscriptionStartsFromInitialResult() {
    let subject = PassthroughSubject<Int, Never>()
    let reduce = subject.reduce(100, +)
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    reduce.subscribe(first)
    subject.send(1)
    reduce.subscribe(second)
    subject.send(2)
    subject.send(completion: .finished)
    expectEqual(first.events, [.subscription, .value(103), .completion(.finished)])
    expectEqual(second.events, [.subscription, .value(102), .completion(.finished)])
  }

  @Test func publicSurface() {
    let reduce: Publishers.Reduce<Just<Int>, String> = Just(1).reduce("") { $0 + "\($1)" }
    expectEqual(reduce.upstream, Just(1))
    expectEqual(reduce.initial, "")
    expectEqual(reduce.nextPartialResult("a", 2), "a2")
    let made = Publishers.Reduce(upstream: Just(1), initial: 0, nextPartialResult: +)
    expectEqual(made.initial, 0)
  }
}

@Suite struct TryReduceTests {
  @Test func marble() {
    #expect(reducingRun({ $0.tryReduce(0) { $0 + $1 } }, inputs: [1, 2, 3]) == ["value(6)", "finished"])
  }

  @Test func throwCancelsUpstreamAndFailsAtOnce() {
    let upstream = TestPublisher<Int, ReducingTestError>()
    let recorder = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryReduce(0) { partial, value in
      if value == 2 { throw ReducingTestError.thrown }
      return partial + value
    }
    .subscribe(recorder)
    expectEqual(upstream.send(1), .none)
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.cancelCount, 0)
    expectEqual(upstream.send(2), .none)
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.cancelCount, 1)
    expectEqual(recorder.eventDescriptions, ["subscription", "failure(thrown)"])
    expectEqual(upstream.send(3), .none)
    upstream.send(completion: .finished)
    recorder.request(.max(1))
    expectEqual(recorder.eventDescriptions, ["subscription", "failure(thrown)"])
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func upstreamFailureIsErased() {
    let events = reducingRun({ $0.tryReduce(0, +) }, inputs: [1], completion: .failure(.oops))
    expectEqual(events, ["failure(oops)"])
  }

  @Test func contract() {
    ReducingContract({ $0.tryReduce(0, +) }, inputs: [1, 2, 3], expected: 6).checkAll()
  }

  @Test func publicSurface() throws {
    let reduce: Publishers.TryReduce<Just<Int>, Int> = Just(1).tryReduce(5, +)
    expectEqual(reduce.upstream, Just(1))
    expectEqual(reduce.initial, 5)
    #expect(try reduce.nextPartialResult(1, 2) == 3)
    let made = Publishers.TryReduce(upstream: Just(1), initial: 0, nextPartialResult: +)
    expectEqual(made.initial, 0)
  }
}
