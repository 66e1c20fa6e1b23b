import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ReplaceEmptyTests {
  @Test func replacesAnEmptyStream() {
    #expect(transformRun({ $0.replaceEmpty(with: 0) }, []) == ["subscription", "value(0)", "finished"])
  }

  @Test func passesANonEmptyStreamAndFailures() {
    #expect(
      transformRun({ $0.replaceEmpty(with: 0) }, [1, 2]) == ["subscription", "value(1)", "value(2)", "finished"]
    )
    #expect(
      transformRun({ $0.replaceEmpty(with: 0) }, [], then: .failure(.upstream))
        == ["subscription", "failure(upstream)"]
    )
  }

  @Test func forwardsDemandThenRequestsUnlimitedAsCombineDoes() {
    let (upstream, subscriber) = transformSubscribe(
      { $0.replaceEmpty(with: 0) },
      initialDemand: .max(42),
      demandPerValue: .max(4)
    )
    expectEqual(upstream.requestedDemands, [.max(42), .unlimited])
    expectEqual(upstream.send(1), .max(4))
    subscriber.request(.max(5))
    expectEqual(upstream.requestedDemands, [.max(42), .unlimited, .max(5)])
  }

  @Test func theReplacementWaitsForDemand() {
    let (upstream, subscriber) = transformSubscribe({ $0.replaceEmpty(with: 7) }, initialDemand: .none)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    subscriber.request(.max(1))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(7)", "finished"])
  }

  @Test func cancelWhileWaitingDropsTheReplacement() {
    let (upstream, subscriber) = transformSubscribe({ $0.replaceEmpty(with: 7) }, initialDemand: .none)
    upstream.send(completion: .finished)
    let subscription = subscriber.subscription
    subscriber.cancel()
    subscription?.request(.max(1))
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  @Test func isEquatable() {
    let upstream = Empty<Int, Never>()
    expectEqual(upstream.replaceEmpty(with: 1), upstream.replaceEmpty(with: 1))
    #expect(upstream.replaceEmpty(with: 1) != upstream.replaceEmpty(with: 2))
    expectEqual(upstream.replaceEmpty(with: 1).output, 1)
  }

  @Test func contract() {
    transformContract { $0.replaceEmpty(with: 0) }
  }

  @Test func docMarble() {
    #expect(
      TestScheduler.marbles("---|") { (source: AnyPublisher<Int, MarbleError>) in source.replaceEmpty(with: 0) }
        == "---[0|]"
    )
  }
}
