import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct CatchTests {
  typealias Upstream = TestPublisher<Int, OpsMiscError>

  @Test func republishesValuesAndFinish() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, Never>()
    upstream.catch { _ in Just(9) }.subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
  }

  @Test func replacesFailedUpstream() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, Never>()
    var caught: [OpsMiscError] = []
    upstream.catch { error -> Just<Int> in
      caught.append(error)
      return Just(9)
    }
    .subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(OpsMiscError(7)))
    expectEqual(caught, [OpsMiscError(7)])
    expectEqual(recorder.events, [.subscription, .value(1), .value(9), .completion(.finished)])
  }

  @Test func replacementFailureReachesDownstream() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>()
    upstream.catch { _ in Fail<Int, OpsMiscError>(error: OpsMiscError(2)) }.subscribe(recorder)
    upstream.send(completion: .failure(OpsMiscError(1)))
    expectEqual(recorder.events, [.subscription, .completion(.failure(OpsMiscError(2)))])
  }

  @Test func replacementIsAskedForOutstandingDemand() {
    let upstream = Upstream()
    let replacement = TestPublisher<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(3))
    upstream.catch { _ in replacement }.subscribe(recorder)
    expectEqual(upstream.requestedDemands, [.max(3)])
    upstream.send(1)
    recorder.request(.max(2))
    expectEqual(upstream.requestedDemands, [.max(3), .max(2)])
    upstream.send(completion: .failure(OpsMiscError()))
    expectEqual(replacement.requestedDemands, [.max(4)])
    recorder.request(.max(1))
    expectEqual(replacement.requestedDemands, [.max(4), .max(1)])
    replacement.send(5)
    replacement.send(completion: .finished)
    expectEqual(recorder.events, [.subscription, .value(1), .value(5), .completion(.finished)])
  }

  @Test func demandReturnedFromReceiveCountsTowardsReplacement() {
    let upstream = Upstream()
    let replacement = TestPublisher<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _, _ in .max(2) })
    upstream.catch { _ in replacement }.subscribe(recorder)
    expectEqual(upstream.send(1), .max(2))
    upstream.send(completion: .failure(OpsMiscError()))
    expectEqual(replacement.requestedDemands, [.max(2)])
  }

  @Test func noDemandIsNotRequestedFromReplacement() {
    let upstream = Upstream()
    let replacement = TestPublisher<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.catch { _ in replacement }.subscribe(recorder)
    #expect(upstream.requestedDemands.isEmpty)
    upstream.send(completion: .failure(OpsMiscError()))
    #expect(replacement.requestedDemands.isEmpty)
    recorder.request(.max(1))
    expectEqual(replacement.requestedDemands, [.max(1)])
  }

  /// As in Combine, upstream's values after a cancel still arrive, with downstream's demand returned, but its failure
  /// neither reaches downstream nor runs the handler.
  @Test func cancelCancelsUpstreamAndSilencesItsCompletion() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _, _ in .max(3) })
    var caught = 0
    upstream.catch { _ -> Just<Int> in
      caught += 1
      return Just(9)
    }
    .subscribe(recorder)
    let subscription = recorder.subscription
    recorder.cancel()
    subscription?.request(.max(199))
    expectEqual(upstream.cancelCount, 1)
    expectEqual(upstream.requestedDemands, [.max(1)])
    expectEqual(upstream.send(1), .max(3))
    upstream.send(completion: .failure(OpsMiscError()))
    expectEqual(caught, 0)
    expectEqual(recorder.events, [.subscription, .value(1)])
  }

  /// As in Combine, the replacement's values after a cancel still arrive, but its completion and a later
  /// subscription do not.
  @Test func cancelCancelsReplacement() {
    let upstream = Upstream()
    let replacement = TestPublisher<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none, onValue: { _, _ in .max(3) })
    upstream.catch { _ in replacement }.subscribe(recorder)
    upstream.send(completion: .failure(OpsMiscError()))
    recorder.cancel()
    #expect(replacement.isCancelled)
    expectEqual(replacement.send(1), .max(3))
    replacement.send(completion: .finished)
    let extra = TestSubscription()
    replacement.send(subscription: extra)
    #expect(extra.isCancelled)
    expectEqual(recorder.events, [.subscription, .value(1)])
    expectEqual(upstream.cancelCount, 0)
  }

  /// As in Combine, a cancel while the replacement publisher is being subscribed finds nothing to cancel and changes
  /// nothing: the replacement is asked for the demand not met, and its completion arrives.
  @Test func cancelWhileTheReplacementSubscribesChangesNothing() {
    let upstream = Upstream()
    let replacement = TestPublisher<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(3))
    let cancellingReplacement = BeforeSubscribing(replacement) { _ in recorder.cancel() }
    upstream.catch { _ in cancellingReplacement }.subscribe(recorder)
    upstream.send(completion: .failure(OpsMiscError()))
    expectEqual(replacement.requestedDemands, [.max(3)])
    #expect(!replacement.isCancelled)
    replacement.send(completion: .finished)
    expectEqual(recorder.events, [.subscription, .completion(.finished)])
    expectEqual(upstream.cancelCount, 0)
  }

  @Test func secondSubscriptionIsCancelled() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, Never>()
    upstream.catch { _ in Just(9) }.subscribe(recorder)
    let extra = TestSubscription()
    upstream.send(subscription: extra)
    #expect(extra.isCancelled)
    expectEqual(recorder.events, [.subscription])
  }

  @Test func requestAndCancelFromInsideReceive() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { recorder, value in
        if value == 1 { recorder.request(.max(1)) } else { recorder.cancel() }
        return .none
      }
    )
    upstream.catch { _ in Just(9) }.subscribe(recorder)
    upstream.send(1)
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
    upstream.send(2)
    #expect(upstream.isCancelled)
    // As in Combine, upstream's values after the cancel still arrive.
    upstream.send(3)
    expectEqual(recorder.values, [1, 2, 3])
  }

  @Test func sendFromInsideReceiveKeepsOrder() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, Never>(onValue: { _, value in
      if value == 1 { subject.send(2) }
      return .none
    })
    subject.catch { _ in Just(9) }.subscribe(recorder)
    subject.send(1)
    subject.send(completion: .failure(OpsMiscError()))
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .value(9), .completion(.finished)])
  }

  @Test func releasedAfterCompletionAndAfterCancel() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, Never>()
        subject.catch { _ in Just(9) }.subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        subject.send(completion: .failure(OpsMiscError()))
        return [recorder, subscription]
      }
    )
    let other = PassthroughSubject<Int, OpsMiscError>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, Never>()
        other.catch { _ in Just(9) }.subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        recorder.cancel()
        return [recorder, subscription]
      }
    )
  }
}

extension CatchTests {
  /// The subscribers that `catch` gives its upstream and its replacement describe and mirror themselves
  /// as the subscription does, as Combine's do.
  @Test func subscribersDescribeThemselvesAsTheSubscription() {
    let upstream = SubscriberHolder<Int, OpsMiscError>()
    upstream.catch { _ in Just(1) }.subscribe(TestSubscriber<Int, Never>(initialDemand: .none))
    let replacement = SubscriberHolder<Int, Never>()
    Fail<Int, OpsMiscError>(error: OpsMiscError()).tryCatch { _ in replacement }
      .subscribe(TestSubscriber<Int, any Error>(initialDemand: .none))
    let subscribers: [(Any, String)] = [(upstream.rawSubscriber!, "Catch"), (replacement.rawSubscriber!, "TryCatch")]
    for (subscriber, name) in subscribers {
      expectEqual((subscriber as? any CustomStringConvertible)?.description, name)
      expectEqual((subscriber as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, name)
      let mirror = (subscriber as? any CustomReflectable)?.customMirror
      expectEqual(mirror?.children.map(\.label), ["downstream", "demand"])
    }
  }
}

@Suite struct TryCatchTests {
  typealias Upstream = TestPublisher<Int, OpsMiscError>

  @Test func replacesFailedUpstream() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, any Error>()
    upstream.tryCatch { _ in Just(9) }.subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(OpsMiscError()))
    expectEqual(recorder.opsMiscEvents, [.subscription, .value(1), .value(9), .finished])
  }

  @Test func thrownErrorFailsDownstream() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, any Error>()
    upstream.tryCatch { _ -> Just<Int> in throw OpsMiscError(5) }.subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(OpsMiscError()))
    expectEqual(recorder.opsMiscEvents, [.subscription, .value(1), .failure("OpsMiscError(5)")])
    // As in Combine, upstream's values after the failure still arrive, but its completions do not.
    upstream.send(2)
    upstream.send(completion: .failure(OpsMiscError()))
    upstream.send(completion: .finished)
    expectEqual(recorder.opsMiscEvents, [.subscription, .value(1), .failure("OpsMiscError(5)"), .value(2)])
    #expect(!upstream.isCancelled)
  }

  @Test func finishesAndReplacementFailure() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, any Error>()
    upstream.tryCatch { _ in Fail<Int, OpsMiscError>(error: OpsMiscError(3)) }.subscribe(recorder)
    upstream.send(completion: .failure(OpsMiscError()))
    expectEqual(recorder.opsMiscEvents, [.subscription, .failure("OpsMiscError(3)")])
    let finishing = Upstream()
    let other = TestSubscriber<Int, any Error>()
    finishing.tryCatch { _ in Just(9) }.subscribe(other)
    finishing.send(completion: .finished)
    expectEqual(other.opsMiscEvents, [.subscription, .finished])
  }

  @Test func demandAndCancel() {
    let upstream = Upstream()
    let replacement = TestPublisher<Int, Never>()
    let recorder = TestSubscriber<Int, any Error>(initialDemand: .max(2))
    upstream.tryCatch { _ in replacement }.subscribe(recorder)
    expectEqual(upstream.requestedDemands, [.max(2)])
    upstream.send(1)
    upstream.send(completion: .failure(OpsMiscError()))
    expectEqual(replacement.requestedDemands, [.max(1)])
    recorder.cancel()
    #expect(replacement.isCancelled)
  }

  @Test func releasedAfterCompletion() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, any Error>()
        subject.tryCatch { _ -> Just<Int> in throw OpsMiscError() }.subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        subject.send(completion: .failure(OpsMiscError()))
        return [recorder, subscription]
      }
    )
  }

  @Test func requestAndCancelFromInsideReceive() {
    let upstream = Upstream()
    let replacement = TestPublisher<Int, Never>()
    let recorder = TestSubscriber<Int, any Error>(
      initialDemand: .max(1),
      onValue: { recorder, value in
        if value == 1 { recorder.request(.max(1)) } else { recorder.cancel() }
        return .none
      }
    )
    upstream.tryCatch { _ in replacement }.subscribe(recorder)
    upstream.send(1)
    expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
    upstream.send(completion: .failure(OpsMiscError()))
    expectEqual(replacement.requestedDemands, [.max(1)])
    replacement.send(2)
    #expect(replacement.isCancelled)
    #expect(!upstream.isCancelled)
    expectEqual(recorder.values, [1, 2])
  }

  @Test func sendFromInsideReceiveKeepsOrder() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, any Error>(onValue: { _, value in
      if value == 1 { subject.send(2) }
      return .none
    })
    subject.tryCatch { _ in Just(9) }.subscribe(recorder)
    subject.send(1)
    subject.send(completion: .failure(OpsMiscError()))
    expectEqual(recorder.opsMiscEvents, [.subscription, .value(1), .value(2), .value(9), .finished])
  }

  /// The subscriber, the subscription and what the handler captures are freed after a cancel, before and after the
  /// handler ran.
  @Test func releasedWithItsHandlerAfterCancel() {
    final class Captured {
      let replacement = 9
    }
    let subject = PassthroughSubject<Int, OpsMiscError>()
    #expect(
      opsMiscAllReleased {
        let captured = Captured()
        let recorder = TestSubscriber<Int, any Error>()
        subject.tryCatch { _ in Just(captured.replacement) }.subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        subject.send(1)
        recorder.cancel()
        return [recorder, subscription, captured]
      }
    )
    let other = PassthroughSubject<Int, OpsMiscError>()
    let replacement = PassthroughSubject<Int, Never>()
    let released = opsMiscAllReleased {
      let captured = Captured()
      let recorder = TestSubscriber<Int, any Error>()
      other.tryCatch { _ in withExtendedLifetime(captured) { replacement } }.subscribe(recorder)
      let subscription = recorder.subscription! as AnyObject
      other.send(completion: .failure(OpsMiscError()))
      replacement.send(1)
      expectEqual(recorder.values, [1])
      recorder.cancel()
      return [recorder, subscription, captured]
    }
    #expect(released)
  }
}
