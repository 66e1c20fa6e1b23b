import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct MaterializeTests {
  @Test func docMarbles() {
    #expect(
      TestScheduler.marbles("-1-2-^") { $0.materialize() } == "-'value(1)'-'value(2)'-['failure(MarbleError)'|]"
    )
    #expect(TestScheduler.marbles("-1-|") { $0.materialize() } == "-'value(1)'-['finished'|]")
  }

  @Test func valuesAndTheCompletionBecomeValues() {
    #expect(
      extRun({ $0.materialize() }, [1, 2])
        == ["subscription", "value(value(1))", "value(value(2))", "value(finished)", "finished"]
    )
    #expect(
      extRun({ $0.materialize() }, [1], then: .failure(.upstream))
        == ["subscription", "value(value(1))", "value(failure(upstream))", "finished"]
    )
    let (upstream, subscriber) = extSubscribe { $0.materialize() }
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.values, [.failure(.upstream)])
    expectEqual(subscriber.completion, .finished)
  }

  @Test func demandGoesStraightUpstream() {
    let (upstream, subscriber) = extSubscribe({ $0.materialize() }, initialDemand: .max(2), demandPerValue: .max(1))
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(1))
    subscriber.request(.max(3))
    expectEqual(upstream.requestedDemands, [.max(2), .max(3)])
    expectEqual(subscriber.values, [.value(1)])
  }

  @Test func theCompletionsEventWaitsForDemand() {
    let (upstream, subscriber) = extSubscribe({ $0.materialize() }, initialDemand: .max(1))
    upstream.send(1)
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(value(1))"])
    subscriber.request(.max(1))
    #expect(
      subscriber.eventDescriptions == ["subscription", "value(value(1))", "value(failure(upstream))", "finished"]
    )
    // Upstream has completed: the request is not passed on.
    expectEqual(upstream.requestedDemands, [.max(1)])

    let (idle, waiting) = extSubscribe({ $0.materialize() }, initialDemand: .none)
    idle.send(completion: .finished)
    expectEqual(waiting.eventDescriptions, ["subscription"])
    waiting.request(.max(5))
    expectEqual(waiting.eventDescriptions, ["subscription", "value(finished)", "finished"])
  }

  @Test func aValueBeyondDemandIsNotDelivered() {
    let (upstream, subscriber) = extSubscribe({ $0.materialize() }, initialDemand: .max(1))
    upstream.send(1)
    expectEqual(upstream.send(2), .none)
    expectEqual(subscriber.values, [.value(1)])
  }

  @Test func cancellation() {
    let (upstream, subscriber) = extSubscribe { $0.materialize() }
    upstream.send(1)
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(value(1))"])

    // A cancel while the completion's event waits for demand drops it.
    let (idle, waiting) = extSubscribe({ $0.materialize() }, initialDemand: .none)
    idle.send(completion: .finished)
    waiting.subscription?.cancel()
    waiting.subscription?.request(.max(1))
    expectEqual(waiting.eventDescriptions, ["subscription"])
    expectEqual(idle.cancelCount, 0)
  }

  @Test func reentrancy() {
    // Cancelling from inside a value stops everything.
    let (upstream, subscriber) = extSubscribe(
      { $0.materialize() },
      onValue: { subscriber, _ in
        subscriber.cancel()
        return .none
      }
    )
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(value(1))"])
    #expect(upstream.isCancelled)

    // Requesting from inside a value reaches upstream, and upstream may send from inside that request.
    let source = TestPublisher<Int, ExtTestError>(onRequest: { source, _ in
      if source.requestedDemands.count == 2 { source.send(completion: .finished) }
    })
    let requester = TestSubscriber<Event<Int, ExtTestError>, Never>(
      initialDemand: .max(1),
      onValue: { subscriber, _ in
        subscriber.request(.max(1))
        return .none
      }
    )
    source.materialize().subscribe(requester)
    source.send(1)
    expectEqual(requester.eventDescriptions, ["subscription", "value(value(1))", "value(finished)", "finished"])
  }

  @Test func aSecondSubscriptionIsCancelled() {
    let (upstream, subscriber) = extSubscribe { $0.materialize() }
    let extra = TestSubscription()
    upstream.send(subscription: extra)
    #expect(extra.isCancelled)
    expectEqual(subscriber.subscriptionCount, 1)
  }

  @Test func memory() {
    #expect(extPipelineIsFreed({ $0.materialize() }, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(
      extPipelineIsFreed({ $0.materialize() }, drive: { upstream, _ in upstream.send(completion: .failure(.upstream)) })
    )
    #expect(extPipelineIsFreed({ $0.materialize() }, drive: { _, subscriber in subscriber.cancel() }))
  }

  @Test func contract() {
    expectContract("materialize, finished") { [1, 2].publisher.materialize() }
    expectContract("materialize, failure") {
      Record<Int, ExtTestError>(output: [1, 2], completion: .failure(.upstream)).materialize()
    }
    for demand in ContractDemand.standard {
      let subject = PassthroughSubject<Int, ExtTestError>()
      let report = PublisherContract.check(subject.materialize(), demand: demand) { checker in
        subject.send(1)
        checker.request(.max(1))
        subject.send(completion: .failure(.upstream))
        checker.request(.max(1))
      }
      #expect(report.isSatisfied, "materialize, subject, \(demand): \(report)")
    }
  }

  @Test func publicSurface() {
    let materialized: Publishers.Materialize<Just<Int>> = Just(1).materialize()
    expectEqual(materialized.upstream, Just(1))
    let event: Event<Int, ExtTestError> = .value(1)
    #expect(event == .value(1) && event != .finished && event.event == event)
    #expect(Event<Int, ExtTestError>.failure(.other).description == "failure(other)")
    let (_, subscriber) = extSubscribe { $0.materialize() }
    #expect(subscriber.subscription.map { String(describing: $0) } == "Materialize.Subscription<Int, ExtTestError>")
  }
}
