import RillCore
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
    #expect(upstream.requestedDemands == [.unlimited])
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
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

  @Test func releasedAfterCompletion() {
    #expect(
      opsMiscAllReleased {
        let subject = PassthroughSubject<Int, Never>()
        let connectable = subject.makeConnectable()
        let recorder = TestSubscriber<Int, Never>()
        connectable.subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        let connection = connectable.connect()
        subject.send(completion: .finished)
        connection.cancel()
        return [recorder, subscription]
      }
    )
  }

  @Test func requestCancelAndSendFromInsideReceive() {
    let subject = PassthroughSubject<Int, Never>()
    let connectable = subject.makeConnectable()
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { recorder, value in
        switch value {
        case 1:
          recorder.request(.max(2))
          subject.send(2)
        case 2: break
        default: recorder.cancel()
        }
        return .none
      }
    )
    connectable.subscribe(recorder)
    let connection = connectable.connect()
    subject.send(1)
    subject.send(3)
    subject.send(4)
    #expect(recorder.values == [1, 2, 3])
    connection.cancel()
  }

  @Test func releasedAfterCancel() {
    let released = opsMiscAllReleased {
      let subject = PassthroughSubject<Int, Never>()
      let connectable = subject.makeConnectable()
      let recorder = TestSubscriber<Int, Never>()
      connectable.subscribe(recorder)
      let subscription = recorder.subscription! as AnyObject
      let connection = connectable.connect()
      subject.send(1)
      #expect(recorder.values == [1])
      recorder.cancel()
      connection.cancel()
      return [recorder, subscription]
    }
    #expect(released)
  }
}
