import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct ShareReplayTests {
  typealias Recorder = TestSubscriber<Int, ExtTestError>

  @Test func docMarble() {
    let upstream = ExtUpstream()
    let shared = upstream.share(replay: 2)
    let first = Recorder()
    shared.subscribe(first)
    for value in [1, 2, 3] { upstream.send(value) }
    let second = Recorder()
    shared.subscribe(second)
    upstream.send(4)
    upstream.send(completion: .finished)
    expectEqual(first.values, [1, 2, 3, 4])
    expectEqual(second.eventDescriptions, ["subscription", "value(2)", "value(3)", "value(4)", "finished"])
  }

  @Test func isCombineExtsMulticastAndAutoconnect() {
    let _: Publishers.Autoconnect<Publishers.Multicast<Just<Int>, ReplaySubject<Int, Never>>> = Just(1).share(replay: 1)
  }

  @Test func subscribesUpstreamOnceWithUnlimitedDemandWhateverTheDownstreamDemand() {
    let upstream = ExtUpstream()
    let shared = upstream.share(replay: 1)
    let first = Recorder(initialDemand: .max(1))
    let second = Recorder(initialDemand: .none)
    shared.subscribe(first)
    shared.subscribe(second)
    expectEqual(upstream.subscriberCount, 1)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(1)
    upstream.send(2)
    expectEqual(first.values, [1])
    expectEqual(second.values, [])
    second.request(.unlimited)
    expectEqual(second.values, [1, 2])
  }

  @Test func aFailureIsReplayedToLaterSubscribers() {
    let upstream = ExtUpstream()
    let shared = upstream.share(replay: 1)
    let first = Recorder()
    shared.subscribe(first)
    upstream.send(1)
    upstream.send(completion: .failure(.upstream))
    let second = Recorder()
    shared.subscribe(second)
    expectEqual(first.eventDescriptions, ["subscription", "value(1)", "failure(upstream)"])
    expectEqual(second.eventDescriptions, ["subscription", "value(1)", "failure(upstream)"])
    expectEqual(upstream.subscriberCount, 1)
  }

  @Test func cancellingEverySubscriberCancelsUpstreamAndTheNextOneReconnectsToTheSameSubject() {
    let upstream = ExtUpstream()
    let shared = upstream.share(replay: 1)
    let first = Recorder()
    shared.subscribe(first)
    upstream.send(1)
    first.cancel()
    #expect(upstream.isCancelled)
    let second = Recorder()
    shared.subscribe(second)
    expectEqual(upstream.subscriberCount, 2)
    expectEqual(second.values, [1])
    upstream.send(2)
    expectEqual(second.values, [1, 2])
  }

  @Test func keepsTheContract() {
    expectContract("share(replay:) of a sequence", { [1, 2, 3].publisher.share(replay: 2) })
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.share(replay: 2)
    let keepAlive = shared.sink { _ in }
    upstream.send(1)
    upstream.send(2)
    expectContract(
      "share(replay:) joined late",
      { shared },
      drive: { _ in
        upstream.send(3)
      }
    )
    keepAlive.cancel()
  }

  @Test func thePipelineIsFreedAfterCompletionAndAfterCancel() {
    #expect(extPipelineIsFreed({ $0.share(replay: 2) }, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(extPipelineIsFreed({ $0.share(replay: 2) }, drive: { _, subscriber in subscriber.cancel() }))
  }
}
