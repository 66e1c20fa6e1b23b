import RillCore
import RillTestSupport
import RillTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct BreakpointTests {
  typealias Upstream = TestPublisher<Int, OpsMiscError>

  @Test func passesEventsThroughWhenClosuresReturnFalse() {
    var seen: [String] = []
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .max(2))
    upstream.breakpoint(
      receiveSubscription: { _ in
        seen.append("subscription")
        return false
      },
      receiveOutput: {
        seen.append("output \($0)")
        return false
      },
      receiveCompletion: { _ in
        seen.append("completion")
        return false
      }
    )
    .subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .finished)
    expectEqual(seen, ["subscription", "output 1", "completion"])
    expectEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    expectEqual(upstream.requestedDemands, [.max(2)])
  }

  /// Without a debugger, SIGTRAP ends the process, as in Combine, even where Swift's backtracer handles the signal.
  @Test func aClosureReturningTrueEndsTheProcessWithSIGTRAP() async {
    await #expect(processExitsWith: .signal(SIGTRAP)) {
      let upstream = TestPublisher<Int, OpsMiscError>()
      upstream.breakpoint(receiveOutput: { $0 < 0 }).subscribe(TestSubscriber<Int, OpsMiscError>())
      upstream.send(-1)
    }
  }

  @Test func breakpointOnErrorIgnoresValuesAndFinish() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .max(1))
    let publisher = upstream.breakpointOnError()
    #expect(publisher.receiveOutput == nil)
    #expect(publisher.receiveSubscription == nil)
    #expect(publisher.receiveCompletion?(.finished) == false)
    #expect(publisher.receiveCompletion?(.failure(OpsMiscError())) == true)
    publisher.subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .finished)
    expectEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
  }

  @Test func cancelAndReentrancyGoStraightUpstream() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(
      initialDemand: .max(1),
      onValue: { recorder, value in
        if value == 1 { recorder.request(.max(1)) } else { recorder.cancel() }
        return .none
      }
    )
    upstream.breakpointOnError().subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
    #expect(upstream.isCancelled)
  }

  @Test func releasedAfterCompletion() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, OpsMiscError>()
        subject.breakpointOnError().subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        subject.send(completion: .finished)
        return [recorder, subscription]
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
        upstream.breakpoint(receiveOutput: { _ in false }).subscribe(recorder)
        return [upstream]
      }
    )
    recorder.cancel()
  }

  @Test func failurePassesThroughWhenTheClosureReturnsFalse() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>()
    var seen: [Subscribers.Completion<OpsMiscError>] = []
    upstream.breakpoint(receiveCompletion: {
      seen.append($0)
      return false
    })
    .subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(OpsMiscError(2)))
    expectEqual(seen, [.failure(OpsMiscError(2))])
    expectEqual(recorder.events, [.subscription, .value(1), .completion(.failure(OpsMiscError(2)))])
  }

  /// The subscriber, the subscription and what the closures capture are freed after a cancel.
  @Test func releasedWithItsClosuresAfterCancel() {
    final class Captured {
      let traps = false
    }
    let subject = PassthroughSubject<Int, OpsMiscError>()
    let released = opsMiscAllReleased {
      let captured = Captured()
      let recorder = TestSubscriber<Int, OpsMiscError>()
      subject.breakpoint(receiveOutput: { _ in captured.traps }).subscribe(recorder)
      let subscription = recorder.subscription! as AnyObject
      subject.send(1)
      expectEqual(recorder.values, [1])
      recorder.cancel()
      return [recorder, subscription, captured]
    }
    #expect(released)
  }

  @Test func sendFromInsideReceiveKeepsOrder() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, OpsMiscError>(onValue: { _, value in
      if value == 1 { subject.send(2) }
      return .none
    })
    subject.breakpoint(receiveOutput: { _ in false }).subscribe(recorder)
    subject.send(1)
    subject.send(3)
    expectEqual(recorder.values, [1, 2, 3])
  }
}
