import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct PrefixWhileBehaviorTests {
  @Test func docMarbles() {
    #expect(
      TestScheduler.marbles("-1-2-3-1-|", as: Int.self) { $0.prefix(while: { $0 < 3 }, behavior: .inclusive) }
        == "-1-2-[3|]"
    )
    #expect(
      TestScheduler.marbles("-1-2-3-1-|", as: Int.self) { $0.prefix(while: { $0 < 3 }, behavior: .exclusive) }
        == "-1-2-|"
    )
    #expect(TestScheduler.marbles("-1-2-3-1-|", as: Int.self) { $0.prefix(while: { $0 < 3 }) } == "-1-2-|")
  }

  @Test func inclusive() {
    #expect(
      extRun({ $0.prefix(while: { $0 < 3 }, behavior: .inclusive) }, [1, 5, 2])
        == ["subscription", "value(1)", "value(5)", "finished"]
    )
    #expect(
      extRun({ $0.prefix(while: { $0 < 3 }, behavior: .inclusive) }, [1], then: .failure(.upstream))
        == ["subscription", "value(1)", "failure(upstream)"]
    )
    #expect(
      extRun({ $0.prefix(while: { $0 < 3 }, behavior: .inclusive) }, [1, 2]) == [
        "subscription", "value(1)", "value(2)", "finished",
      ]
    )
  }

  @Test func demandCancellationReentrancyAndMemory() {
    let (upstream, subscriber) = extSubscribe(
      { $0.prefix(while: { $0 < 3 }, behavior: .inclusive) },
      initialDemand: .max(2),
      demandPerValue: .max(1)
    )
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(1))
    subscriber.request(.max(3))
    expectEqual(upstream.requestedDemands, [.max(2), .max(3)])
    expectEqual(upstream.send(4), .none)
    #expect(upstream.isCancelled)
    upstream.send(1)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "value(4)", "finished"])

    let (cancelled, early) = extSubscribe { $0.prefix(while: { $0 < 3 }, behavior: .inclusive) }
    early.cancel()
    cancelled.send(1)
    cancelled.send(9)
    #expect(cancelled.cancelCount == 1 && early.eventDescriptions == ["subscription"])

    let (source, reacting) = extSubscribe(
      { $0.prefix(while: { $0 < 3 }, behavior: .inclusive) },
      onValue: { subscriber, _ in
        subscriber.cancel()
        return .none
      }
    )
    source.send(5)
    expectEqual(reacting.eventDescriptions, ["subscription", "value(5)", "finished"])

    let make = { (upstream: ExtUpstream) in upstream.prefix(while: { $0 < 3 }, behavior: .inclusive) }
    #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(7) }))
    #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }))
  }

  @Test func contract() {
    expectContract("prefix(while:behavior: .inclusive)") {
      [1, 2, 3, 4].publisher.prefix(while: { $0 < 3 }, behavior: .inclusive)
    }
    let _: AnyPublisher<Int, Never> = Just(1).prefix(while: { $0 > 0 }, behavior: .exclusive)
    // Combine's own prefix(while:) still resolves.
    let _: Publishers.PrefixWhile<Just<Int>> = Just(1).prefix(while: { $0 > 0 })
  }
}
