import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct PartitionTests {
  @Test func docMarbles() {
    let scheduler = TestScheduler()
    let source = try! scheduler.marblePublisher("-1-2-3-4-|", as: Int.self)
    let (matches, nonMatches) = source.partition { $0 % 2 == 0 }
    let even = TestSubscriber<Int, MarbleError>(scheduler: scheduler)
    let odd = TestSubscriber<Int, MarbleError>(scheduler: scheduler)
    matches.subscribe(even)
    nonMatches.subscribe(odd)
    scheduler.run()
    expectEqual(even.marbles(), "---2---4-|")
    expectEqual(odd.marbles(), "-1---3---|")
  }

  @Test func valuesCompletionFailureAndOneSharedSubscription() {
    let upstream = ExtUpstream()
    var calls = 0
    let (matches, nonMatches) = upstream.partition { value in
      calls += 1
      return value > 2
    }
    let big = TestSubscriber<Int, ExtTestError>()
    let small = TestSubscriber<Int, ExtTestError>()
    matches.subscribe(big)
    nonMatches.subscribe(small)
    expectEqual(upstream.subscriberCount, 1)
    for value in [1, 3, 2, 4] { upstream.send(value) }
    upstream.send(completion: .failure(.upstream))
    expectEqual(big.eventDescriptions, ["subscription", "value(3)", "value(4)", "failure(upstream)"])
    expectEqual(small.eventDescriptions, ["subscription", "value(1)", "value(2)", "failure(upstream)"])
    expectEqual(calls, 4)
    expectEqual(upstream.requestedDemands, [.unlimited])
  }

  @Test func cancellationAndMemory() {
    let upstream = ExtUpstream()
    let (matches, nonMatches) = upstream.partition { $0 > 2 }
    let big = TestSubscriber<Int, ExtTestError>()
    let small = TestSubscriber<Int, ExtTestError>()
    matches.subscribe(big)
    nonMatches.subscribe(small)
    big.cancel()
    upstream.send(3)
    upstream.send(1)
    #expect(big.values.isEmpty && small.values == [1])
    #expect(!upstream.isCancelled)
    small.cancel()
    #expect(upstream.isCancelled)
    let make = { (upstream: ExtUpstream) in upstream.partition { $0 > 2 }.matches }
    #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }))
  }

  @Test func contract() {
    expectContract("partition") { [1, 2, 3, 4].publisher.partition { $0 > 2 }.nonMatches }
    let _: Publishers.Map<Just<Int>, Int>.Partition = Just(1).partition { $0 > 0 }.matches
  }
}
