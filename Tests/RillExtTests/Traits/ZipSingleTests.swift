import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct ZipSingleTests {
  @Test func publishesTheValuesInOrder() {
    var values: [[Int]] = []
    _ = [Just(1), Just(2), Just(3)].zipSingle().sink { values.append($0) }
    _ = [Just<Int>]().zipSingle().sink { values.append($0) }
    expectEqual(values, [[1, 2, 3], []])
  }

  @Test func waitsForEveryPublisher() {
    let a = ExtUpstream()
    let b = ExtUpstream()
    let subscriber = TestSubscriber<[Int], ExtTestError>()
    [TrustedUpstream(upstream: a), TrustedUpstream(upstream: b)].zipSingle().subscribe(subscriber)
    _ = b.send(2)
    b.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    _ = a.send(1)
    a.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value([1, 2])", "finished"])
  }

  @Test func failsWhenOneFailsAndCancelsTheOthers() {
    let a = ExtUpstream()
    let b = ExtUpstream()
    let subscriber = TestSubscriber<[Int], ExtTestError>()
    [TrustedUpstream(upstream: a), TrustedUpstream(upstream: b)].zipSingle().subscribe(subscriber)
    b.send(completion: .failure(.upstream))
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(upstream)"])
    #expect(a.isCancelled)
  }

  @Test func waitsForDemandAndCancelsEveryPublisher() {
    let a = ExtUpstream()
    let b = ExtUpstream()
    let subscriber = TestSubscriber<[Int], ExtTestError>(initialDemand: .none)
    [TrustedUpstream(upstream: a), TrustedUpstream(upstream: b)].zipSingle().subscribe(subscriber)
    #expect(a.requestedDemands.isEmpty && b.requestedDemands.isEmpty)
    subscriber.request(.max(1))
    #expect(a.requestedDemands == [.max(1)] && b.requestedDemands == [.max(1)])
    _ = a.send(1)
    _ = b.send(2)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value([1, 2])"])

    let c = ExtUpstream()
    let d = ExtUpstream()
    let cancelled = TestSubscriber<[Int], ExtTestError>()
    [TrustedUpstream(upstream: c), TrustedUpstream(upstream: d)].zipSingle().subscribe(cancelled)
    cancelled.cancel()
    #expect(c.isCancelled && d.isCancelled)
  }

  @Test func letsGoOfItsPublishers() {
    let make = { (upstream: ExtUpstream) in [TrustedUpstream(upstream: upstream)].zipSingle() }
    #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(completion: .failure(.upstream)) }))
    #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }))
  }

  @Test func keepsTheContract() {
    expectContract("zipSingle") { [Just(1), Just(2)].zipSingle() }
    let zipped = TraitPublishers.ZipSingle(collection: [Just(1)])
    expectEqual(zipped.collection.count, 1)
  }
}

@Suite struct ReplaceEmptyWithErrorTests {
  @Test func failsWhenUpstreamFinishesWithoutAValue() {
    let make = { (upstream: ExtUpstream) in TrustedUpstream(upstream: upstream).replaceEmpty(withError: .other) }
    expectEqual(extRun(make, [1]), ["subscription", "value(1)", "finished"])
    expectEqual(extRun(make, []), ["subscription", "failure(other)"])
    expectEqual(extRun(make, [], then: .failure(.upstream)), ["subscription", "failure(upstream)"])
  }

  @Test func keepsANilValue() {
    var results: [Result<Int?, ExtTestError>] = []
    _ = AnyMaybePublisher<Int?, ExtTestError>.just(nil).replaceEmpty(withError: .other).sinkSingle {
      results.append($0)
    }
    expectEqual(results.count, 1)
    #expect((try? results[0].get()) == .some(nil))
  }

  @Test func honoursDemandAndCancel() {
    let (upstream, subscriber) = extSubscribe(
      { TrustedUpstream(upstream: $0).replaceEmpty(withError: .other) },
      initialDemand: .none
    )
    _ = upstream.send(1)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    subscriber.request(.max(1))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])

    let (other, cancelled) = extSubscribe({ TrustedUpstream(upstream: $0).replaceEmpty(withError: .other) })
    cancelled.cancel()
    #expect(other.isCancelled)
  }

  @Test func letsGoOfUpstream() {
    let make = { (upstream: ExtUpstream) in TrustedUpstream(upstream: upstream).replaceEmpty(withError: .other) }
    #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }))
  }

  @Test func keepsTheContract() {
    expectContract("replaceEmpty(withError:)") { Empty<Int, ExtTestError>().replaceEmpty(withError: .other) }
  }
}
