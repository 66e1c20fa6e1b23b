import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ShareTests {
  typealias Upstream = TestPublisher<Int, OpsMiscError>

  @Test func oneUpstreamSubscriptionForManySubscribers() {
    let upstream = Upstream()
    let shared = upstream.share()
    let first = TestSubscriber<Int, OpsMiscError>()
    let second = TestSubscriber<Int, OpsMiscError>()
    shared.subscribe(first)
    upstream.send(1)
    shared.subscribe(second)
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(upstream.subscriptions.count, 1)
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(first.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    expectEqual(second.events, [.subscription, .value(2), .completion(.finished)])
  }

  @Test func failureReachesEverySubscriber() {
    let upstream = Upstream()
    let shared = upstream.share()
    let first = TestSubscriber<Int, OpsMiscError>()
    let second = TestSubscriber<Int, OpsMiscError>()
    shared.subscribe(first)
    shared.subscribe(second)
    upstream.send(completion: .failure(OpsMiscError(3)))
    expectEqual(first.events, [.subscription, .completion(.failure(OpsMiscError(3)))])
    expectEqual(second.events, [.subscription, .completion(.failure(OpsMiscError(3)))])
  }

  @Test func synchronousUpstreamFinishesBeforeLaterSubscribers() {
    let shared = Just(1).share()
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    shared.subscribe(first)
    shared.subscribe(second)
    expectEqual(first.events, [.subscription, .value(1), .completion(.finished)])
    expectEqual(second.events, [.subscription, .completion(.finished)])
  }

  @Test func equatableByIdentity() {
    let upstream = Just(1)
    let shared = upstream.share()
    expectEqual(shared, shared)
    #expect(shared != upstream.share())
    expectEqual(shared.upstream, upstream)
  }

  @Test func cancellingAllSubscribersCancelsUpstream() {
    let upstream = Upstream()
    let shared = upstream.share()
    let first = TestSubscriber<Int, OpsMiscError>()
    let second = TestSubscriber<Int, OpsMiscError>()
    shared.subscribe(first)
    shared.subscribe(second)
    first.cancel()
    upstream.send(1)
    #expect(!upstream.isCancelled)
    second.cancel()
    #expect(upstream.isCancelled)
    upstream.send(2)
    #expect(first.values.isEmpty)
    expectEqual(second.values, [1])
  }

  @Test func cancelFromInsideReceive() {
    let upstream = TestPublisher<Int, OpsMiscError>()
    let shared = upstream.share()
    let recorder = TestSubscriber<Int, OpsMiscError>(onValue: { recorder, _ in
      recorder.cancel()
      return .none
    })
    shared.subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(recorder.events, [.subscription, .value(1)])
    #expect(upstream.isCancelled)
  }

  @Test func requestAndSendFromInsideReceive() {
    expectRequestAndSendFromInsideReceive { $0.share() }
  }

  @Test func releasedAfterCompletionAndAfterCancel() {
    let subject = PassthroughSubject<Int, Never>()
    #expect(
      opsMiscAllReleased {
        let shared = subject.share()
        let recorder = TestSubscriber<Int, Never>()
        shared.subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        subject.send(completion: .finished)
        return [recorder, subscription, shared]
      }
    )
    let other = PassthroughSubject<Int, Never>()
    #expect(
      opsMiscAllReleased {
        let shared = other.share()
        let recorder = TestSubscriber<Int, Never>()
        shared.subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        recorder.cancel()
        return [recorder, subscription, shared]
      }
    )
  }
}
