import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct HandleEventsTests {
  typealias Upstream = TestPublisher<Int, OpsMiscError>

  /// Records what the closures see, in order.
  private final class Log {
    var entries: [String] = []
  }

  private func logged(_ upstream: Upstream, _ log: Log) -> Publishers.HandleEvents<Upstream> {
    upstream.handleEvents(
      receiveSubscription: { log.entries.append("subscription \($0)") },
      receiveOutput: { log.entries.append("output \($0)") },
      receiveCompletion: { log.entries.append("completion \($0)") },
      receiveCancel: { log.entries.append("cancel") },
      receiveRequest: { log.entries.append("request \($0)") }
    )
  }

  @Test func runsClosuresForEveryEvent() {
    let log = Log()
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(
      initialDemand: .max(2),
      onValue: { _, value in value == 1 ? .max(1) : .none }
    )
    logged(upstream, log).subscribe(recorder)
    let subscription = recorder.subscription
    expectEqual(upstream.send(1), .max(1))
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(
      log.entries == [
        "subscription TestSubscription(requested: [], cancelled: 0)", "request max(2)", "output 1", "request max(1)",
        "output 2",
        "completion finished",
      ]
    )
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    expectEqual(upstream.requestedDemands, [.max(2)])
    subscription?.cancel()
    expectEqual(log.entries.last, "completion finished")
  }

  @Test func failureAndCancel() {
    let log = Log()
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .none)
    logged(upstream, log).subscribe(recorder)
    upstream.send(completion: .failure(OpsMiscError(2)))
    expectEqual(log.entries.last, "completion failure(OpsMiscError(2))")
    expectEqual(recorder.events, [.subscription, .completion(.failure(OpsMiscError(2)))])

    let other = Upstream()
    let cancelled = TestSubscriber<Int, OpsMiscError>(initialDemand: .none)
    let otherLog = Log()
    logged(other, otherLog).subscribe(cancelled)
    let cancelledSubscription = cancelled.subscription
    cancelled.cancel()
    cancelledSubscription?.cancel()
    expectEqual(otherLog.entries, ["subscription TestSubscription(requested: [], cancelled: 0)", "cancel"])
    expectEqual(other.cancelCount, 1)
    // As in Combine, what upstream sends after the cancel still reaches the subscriber, but no closure runs.
    other.send(1)
    other.send(completion: .finished)
    expectEqual(cancelled.events, [.subscription, .value(1), .completion(.finished)])
    expectEqual(otherLog.entries, ["subscription TestSubscription(requested: [], cancelled: 0)", "cancel"])
  }

  /// As in Combine, what upstream sends after its completion still reaches the subscriber, with the subscriber's
  /// demand returned, but the closures, released at the completion, no longer run.
  @Test func eventsAfterTheCompletionReachTheSubscriberWithoutTheClosures() {
    let log = Log()
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .none, onValue: { _, value in .max(value) })
    logged(upstream, log).subscribe(recorder)
    let subscription = recorder.subscription
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(OpsMiscError(2)))
    expectEqual(upstream.send(7), .max(7))
    subscription?.request(.max(1))
    #expect(
      recorder.events == [.subscription, .completion(.finished), .completion(.failure(OpsMiscError(2))), .value(7)]
    )
    expectEqual(log.entries, ["subscription TestSubscription(requested: [], cancelled: 0)", "completion finished"])
    #expect(upstream.requestedDemands.isEmpty)
  }

  /// Rill does not keep the subscriber alive after the subscription ended, also where Combine does: a subscriber
  /// that keeps its subscription is freed once nothing else keeps it.
  @Test func theSubscriberIsNotKeptAliveAfterTheEnd() {
    /// Keeps the subscription, as the subscriber's own hook stores it there.
    final class SubscriptionBox {
      var subscription: (any Subscription)?
    }
    weak var weakRecorder: TestSubscriber<Int, OpsMiscError>?
    let upstream = Upstream()
    do {
      let box = SubscriptionBox()
      let recorder = TestSubscriber<Int, OpsMiscError>(onSubscription: { _, subscription in
        box.subscription = subscription
      })
      weakRecorder = recorder
      upstream.handleEvents().subscribe(recorder)
      upstream.send(completion: .finished)
    }
    #expect(weakRecorder == nil)
    expectEqual(upstream.send(1), .none)
    upstream.send(completion: .finished)
  }

  @Test func closuresAreVarsAndInitDefaults() {
    var events = Publishers.HandleEvents(upstream: Just(1), receiveRequest: nil)
    #expect(events.receiveOutput == nil)
    var seen: [Int] = []
    events.receiveOutput = { seen.append($0) }
    events.subscribe(TestSubscriber<Int, Never>())
    expectEqual(seen, [1])
  }

  @Test func requestAndCancelFromInsideReceive() {
    let log = Log()
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(
      initialDemand: .max(1),
      onValue: { recorder, value in
        if value == 1 { recorder.request(.max(1)) } else { recorder.cancel() }
        return .none
      }
    )
    logged(upstream, log).subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
    #expect(upstream.isCancelled)
    // As in Combine, a value after the cancel still arrives, without running `receiveOutput`.
    expectEqual(recorder.values, [1, 2, 3])
    expectEqual(log.entries.suffix(3), ["request max(1)", "output 2", "cancel"])
  }

  @Test func sendFromInsideReceiveKeepsOrder() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(onValue: { _, value in
      if value == 1 { subject.send(2) }
      return .none
    })
    var outputs: [Int] = []
    subject.handleEvents(receiveOutput: { outputs.append($0) }).subscribe(recorder)
    subject.send(1)
    expectEqual(outputs, [1, 2])
    expectEqual(recorder.values, [1, 2])
  }

  @Test func releasesClosuresAndPipeline() {
    let subject = PassthroughSubject<Int, Never>()
    #expect(
      opsMiscAllReleased {
        let captured = Log()
        let recorder = TestSubscriber<Int, Never>()
        subject.handleEvents(receiveOutput: { _ in captured.entries.append("x") }).subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        subject.send(completion: .finished)
        return [recorder, subscription, captured]
      }
    )
    let other = PassthroughSubject<Int, Never>()
    #expect(
      opsMiscAllReleased {
        let captured = Log()
        let recorder = TestSubscriber<Int, Never>()
        other.handleEvents(receiveCancel: { captured.entries.append("x") }).subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        recorder.cancel()
        return [recorder, subscription, captured]
      }
    )
  }

  /// The subscription keeps only the closures, not the publisher, so an upstream that holds its
  /// subscriber (as a relay does) is freed while the subscription is still live.
  @Test func liveSubscriptionDoesNotKeepUpstreamAlive() {
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .max(1))
    #expect(
      opsMiscAllReleased {
        let upstream = Upstream()
        upstream.handleEvents(receiveOutput: { _ in }).subscribe(recorder)
        return [upstream]
      }
    )
    recorder.cancel()
  }
}
