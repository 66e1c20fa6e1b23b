import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct MaterializedOperatorsTests {
  @Test func docMarbles() {
    #expect(TestScheduler.marbles("-1-2-^") { $0.materialize().values() } == "-1-2-|")
    #expect(TestScheduler.marbles("-1-2-^") { $0.materialize().failures() } == "-----['MarbleError'|]")
    #expect(TestScheduler.marbles("-1-2-|") { $0.materialize().failures() } == "-----|")
  }

  @Test func valuesAndFailuresSplitTheEvents() {
    #expect(
      extRun({ $0.materialize().values() }, [1, 2], then: .failure(.upstream))
        == ["subscription", "value(1)", "value(2)", "finished"]
    )
    #expect(
      extRun({ $0.materialize().failures() }, [1, 2], then: .failure(.upstream))
        == ["subscription", "value(upstream)", "finished"]
    )
    #expect(extRun({ $0.materialize().failures() }, [1]) == ["subscription", "finished"])
  }

  @Test func aDroppedEventAsksForOneMore() {
    let (upstream, subscriber) = extSubscribe({ $0.materialize().failures() }, initialDemand: .max(1))
    expectEqual(upstream.requestedDemands, [.max(1)])
    expectEqual(upstream.send(1), .max(1))
    expectEqual(upstream.send(2), .max(1))
    upstream.send(completion: .failure(.other))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(other)", "finished"])

    let (source, values) = extSubscribe({ $0.materialize().values() }, initialDemand: .max(1))
    source.send(1)
    source.send(completion: .finished)
    // The `.finished` event waits for demand inside materialize, then values() drops it and finishes.
    expectEqual(values.eventDescriptions, ["subscription", "value(1)"])
    values.request(.max(1))
    expectEqual(values.eventDescriptions, ["subscription", "value(1)", "finished"])
  }

  @Test func sharedMaterializedStreamObservedTwice() {
    let upstream = PassthroughSubject<Int, ExtTestError>()
    let events = upstream.materialize().share()
    let values = TestSubscriber<Int, Never>()
    let failures = TestSubscriber<ExtTestError, Never>()
    events.values().subscribe(values)
    events.failures().subscribe(failures)
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .failure(.upstream))
    expectEqual(values.eventDescriptions, ["subscription", "value(1)", "value(2)", "finished"])
    expectEqual(failures.eventDescriptions, ["subscription", "value(upstream)", "finished"])
  }

  @Test func cancellationAndMemory() {
    let (upstream, subscriber) = extSubscribe { $0.materialize().values() }
    subscriber.cancel()
    #expect(upstream.isCancelled)
    #expect(
      extPipelineIsFreed({ $0.materialize().values() }, drive: { upstream, _ in upstream.send(completion: .finished) })
    )
    #expect(extPipelineIsFreed({ $0.materialize().failures() }, drive: { _, subscriber in subscriber.cancel() }))
  }

  @Test func contract() {
    expectContract("values") {
      Record<Int, ExtTestError>(output: [1, 2, 3], completion: .failure(.upstream)).materialize().values()
    }
    expectContract("failures") {
      Record<Int, ExtTestError>(output: [1, 2, 3], completion: .failure(.upstream)).materialize().failures()
    }
  }
}
