import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct MakeConnectableTests {
  @Test func publishesOnlyAfterConnect() {
    let upstream = TestPublisher<Int, Never>()
    let connectable = upstream.makeConnectable()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(1))
    connectable.subscribe(recorder)
    #expect(upstream.subscriptions.isEmpty)
    let connection = connectable.connect()
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    connection.cancel()
  }

  @Test func connectionCancelCancelsUpstream() {
    let upstream = TestPublisher<Int, Never>()
    let connectable = upstream.makeConnectable()
    let recorder = TestSubscriber<Int, Never>()
    connectable.subscribe(recorder)
    connectable.connect().cancel()
    #expect(upstream.isCancelled)
    upstream.send(1)
    #expect(recorder.values.isEmpty)
    recorder.cancel()
  }

  @Test func releasedAfterCompletionAndAfterCancel() {
    for cancels in [false, true] {
      let released = opsMiscAllReleased {
        let subject = PassthroughSubject<Int, Never>()
        let connectable = subject.makeConnectable()
        let recorder = TestSubscriber<Int, Never>()
        connectable.subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        let connection = connectable.connect()
        if cancels {
          subject.send(1)
          expectEqual(recorder.values, [1])
          recorder.cancel()
        } else {
          subject.send(completion: .finished)
        }
        connection.cancel()
        return [recorder, subscription]
      }
      #expect(released, "released, cancels: \(cancels)")
    }
  }

  @Test func requestCancelAndSendFromInsideReceive() {
    expectConnectableHandlesCallsFromInsideReceive { $0.makeConnectable() }
  }
}
