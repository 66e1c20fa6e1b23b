import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct MulticastTests {

  /// Each subscriber sees a subscription of the multicast's own, described as "Multicast" with no
  /// children, not the subject's; the demand a subscriber returns for a value is requested from the subject.
  @Test func subscriptionIsTheMulticastsOwn() throws {
    let subject = PassthroughSubject<Int, Never>()
    let multicast = Just(0).multicast(subject: subject)
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { _, value in value == 1 ? .max(2) : .none }
    )
    multicast.subscribe(recorder)
    let subscription = try #require(recorder.subscription)
    expectEqual(String(describing: subscription), "Multicast")
    expectEqual((subscription as? any CustomReflectable)?.customMirror.children.isEmpty, true)
    expectEqual(
      (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String,
      "Multicast"
    )
    for value in 1...4 { subject.send(value) }
    expectEqual(recorder.values, [1, 2, 3])
  }

  /// Dropping the subject while connected frees it (the connection does not keep it), and cancelling
  /// the connection afterwards neither deadlocks nor crashes.
  @Test func connectionDoesNotKeepTheSubject() {
    let upstream = Upstream()
    weak var weakSubject: PassthroughSubject<Int, OpsMiscError>?
    var connection: (any Cancellable)?
    do {
      let subject = PassthroughSubject<Int, OpsMiscError>()
      weakSubject = subject
      connection = upstream.multicast(subject: subject).connect()
    }
    #expect(weakSubject == nil)
    expectEqual(upstream.cancelCount, 1)
    connection?.cancel()
  }
  typealias Upstream = TestPublisher<Int, OpsMiscError>

  @Test func subscribesUpstreamOnlyOnConnect() {
    let upstream = Upstream()
    let multicast = upstream.multicast { PassthroughSubject<Int, OpsMiscError>() }
    let first = TestSubscriber<Int, OpsMiscError>()
    let second = TestSubscriber<Int, OpsMiscError>()
    multicast.subscribe(first)
    multicast.subscribe(second)
    #expect(upstream.subscriptions.isEmpty)
    let connection = multicast.connect()
    expectEqual(upstream.subscriptions.count, 1)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(1)
    upstream.send(completion: .finished)
    expectEqual(first.events, [.subscription, .value(1), .completion(.finished)])
    expectEqual(second.events, [.subscription, .value(1), .completion(.finished)])
    connection.cancel()
  }

  @Test func createsTheSubjectOnce() {
    var created = 0
    let multicast = Just(1).multicast { () -> PassthroughSubject<Int, Never> in
      created += 1
      return PassthroughSubject()
    }
    multicast.subscribe(TestSubscriber<Int, Never>())
    multicast.subscribe(TestSubscriber<Int, Never>())
    _ = multicast.connect()
    expectEqual(created, 1)
  }

  @Test func failureReachesAllSubscribers() {
    let upstream = Upstream()
    let subject = PassthroughSubject<Int, OpsMiscError>()
    let multicast = upstream.multicast(subject: subject)
    let recorder = TestSubscriber<Int, OpsMiscError>()
    multicast.subscribe(recorder)
    let connection = multicast.connect()
    upstream.send(completion: .failure(OpsMiscError(2)))
    expectEqual(recorder.events, [.subscription, .completion(.failure(OpsMiscError(2)))])
    connection.cancel()
  }

  @Test func eachSubscriberHasItsOwnDemand() {
    let upstream = Upstream()
    let multicast = upstream.multicast { PassthroughSubject<Int, OpsMiscError>() }
    let limited = TestSubscriber<Int, OpsMiscError>(initialDemand: .max(1))
    let unlimited = TestSubscriber<Int, OpsMiscError>()
    multicast.subscribe(limited)
    multicast.subscribe(unlimited)
    let connection = multicast.connect()
    upstream.send(1)
    upstream.send(2)
    expectEqual(limited.values, [1])
    expectEqual(unlimited.values, [1, 2])
    connection.cancel()
  }

  @Test func cancellingTheConnectionCancelsUpstream() {
    let upstream = Upstream()
    let multicast = upstream.multicast { PassthroughSubject<Int, OpsMiscError>() }
    let recorder = TestSubscriber<Int, OpsMiscError>()
    multicast.subscribe(recorder)
    let connection = multicast.connect()
    connection.cancel()
    #expect(upstream.isCancelled)
    upstream.send(1)
    #expect(recorder.values.isEmpty)
  }

  @Test func cancellingASubscriberSilencesOnlyIt() {
    let upstream = Upstream()
    let multicast = upstream.multicast { PassthroughSubject<Int, OpsMiscError>() }
    let first = TestSubscriber<Int, OpsMiscError>()
    let second = TestSubscriber<Int, OpsMiscError>()
    multicast.subscribe(first)
    multicast.subscribe(second)
    let connection = multicast.connect()
    first.cancel()
    upstream.send(1)
    #expect(first.values.isEmpty)
    expectEqual(second.values, [1])
    #expect(!upstream.isCancelled)
    connection.cancel()
  }

  @Test func requestCancelAndSendFromInsideReceive() {
    expectConnectableHandlesCallsFromInsideReceive { $0.multicast { PassthroughSubject<Int, Never>() } }
  }

  @Test func releasedAfterCompletionAndAfterCancel() {
    #expect(
      opsMiscAllReleased {
        let subject = PassthroughSubject<Int, Never>()
        let multicast = subject.multicast { PassthroughSubject<Int, Never>() }
        let recorder = TestSubscriber<Int, Never>()
        multicast.subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        let connection = multicast.connect()
        subject.send(completion: .finished)
        _ = connection
        return [recorder, subscription, multicast]
      }
    )
    #expect(
      opsMiscAllReleased {
        let subject = PassthroughSubject<Int, Never>()
        let multicast = subject.multicast { PassthroughSubject<Int, Never>() }
        let recorder = TestSubscriber<Int, Never>()
        multicast.subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        multicast.connect().cancel()
        recorder.cancel()
        return [recorder, subscription, multicast]
      }
    )
  }
}
