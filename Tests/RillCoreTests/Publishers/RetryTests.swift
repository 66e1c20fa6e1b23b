import RillCore
import RillTestSupport
import RillTesting
import Testing

/// An upstream that fails at once, then runs `afterFailing` (a cancel of the subscription below, say).
private struct FailThenRun: Publisher {
  typealias Output = Int
  typealias Failure = OpsMiscError
  let afterFailing: () -> Void

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == OpsMiscError {
    subscriber.receive(subscription: Subscriptions.empty)
    subscriber.receive(completion: .failure(OpsMiscError(1)))
    afterFailing()
  }
}

@Suite struct RetryTests {
  /// A cancel that returns while a failed attempt is being subscribed again ends the retries: no attempt starts
  /// after it.
  @Test func noAttemptStartsAfterACancelThatReturnedDuringAnAttempt() {
    var attempts = 0
    let recorder = TestSubscriber<Int, OpsMiscError>()
    let upstream = Deferred {
      attempts += 1
      return FailThenRun { if attempts == 2 { recorder.subscription?.cancel() } }
    }
    upstream.retry(10).subscribe(recorder)
    expectEqual(attempts, 2)
    expectEqual(recorder.events, [.subscription])
  }

  typealias Upstream = TestPublisher<Int, OpsMiscError>

  @Test func republishesValuesAndFinish() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>()
    upstream.retry(2).subscribe(recorder)
    upstream.sendToLatest(1)
    upstream.sendToLatest(2)
    upstream.sendToLatest(completion: .finished)
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    expectEqual(upstream.subscriptions.count, 1)
  }

  @Test func resubscribesUpToRetriesThenFails() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>()
    upstream.retry(2).subscribe(recorder)
    upstream.sendToLatest(1)
    upstream.sendToLatest(completion: .failure(OpsMiscError(1)))
    upstream.sendToLatest(2)
    upstream.sendToLatest(completion: .failure(OpsMiscError(2)))
    upstream.sendToLatest(3)
    upstream.sendToLatest(completion: .failure(OpsMiscError(3)))
    expectEqual(upstream.subscriptions.count, 3)
    #expect(
      recorder.events == [.subscription, .value(1), .value(2), .value(3), .completion(.failure(OpsMiscError(3)))]
    )
  }

  @Test func retryZeroFailsAtOnce() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>()
    upstream.retry(0).subscribe(recorder)
    upstream.sendToLatest(completion: .failure(OpsMiscError()))
    expectEqual(upstream.subscriptions.count, 1)
    expectEqual(recorder.events, [.subscription, .completion(.failure(OpsMiscError(1)))])
  }

  @Test func carriesOutstandingDemandOver() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .max(3))
    upstream.retry(1).subscribe(recorder)
    expectEqual(upstream.subscriptions.last?.requestedDemands, [.max(3)])
    upstream.sendToLatest(1)
    upstream.sendToLatest(completion: .failure(OpsMiscError()))
    expectEqual(upstream.subscriptions.count, 2)
    expectEqual(upstream.subscriptions.last?.requestedDemands, [.max(2)])
    recorder.request(.max(4))
    expectEqual(upstream.subscriptions.last?.requestedDemands, [.max(2), .max(4)])
  }

  @Test func noDemandIsNotRequestedOnRetry() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .max(1))
    upstream.retry(1).subscribe(recorder)
    upstream.sendToLatest(1)
    upstream.sendToLatest(completion: .failure(OpsMiscError()))
    expectEqual(upstream.subscriptions.last?.requestedDemands.isEmpty, true)
    expectEqual(recorder.events, [.subscription, .value(1)])
  }

  @Test func synchronousFailuresDoNotRecurse() {
    var subscriptions = 0
    let recorder = TestSubscriber<Int, OpsMiscError>()
    Deferred { () -> Fail<Int, OpsMiscError> in
      subscriptions += 1
      return Fail(error: OpsMiscError())
    }
    .retry(10_000)
    .subscribe(recorder)
    expectEqual(subscriptions, 10_001)
    expectEqual(recorder.events, [.subscription, .completion(.failure(OpsMiscError(1)))])
  }

  @Test func equatableWhenUpstreamIs() {
    // `Just.retry` is specialized to return `Just`; build the operator type itself.
    expectEqual(Publishers.Retry(upstream: Just(1), retries: 2), Publishers.Retry(upstream: Just(1), retries: 2))
    #expect(Publishers.Retry(upstream: Just(1), retries: 2) != Publishers.Retry(upstream: Just(1), retries: 3))
    #expect(Publishers.Retry(upstream: Just(1), retries: 2) != Publishers.Retry(upstream: Just(2), retries: 2))
    #expect(Publishers.Retry(upstream: Just(1), retries: nil).retries == nil)
  }

  @Test func cancelCancelsUpstreamAndSilences() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>()
    upstream.retry(3).subscribe(recorder)
    recorder.cancel()
    expectEqual(upstream.subscriptions.last?.isCancelled, true)
    upstream.sendToLatest(1)
    upstream.sendToLatest(completion: .failure(OpsMiscError()))
    expectEqual(upstream.subscriptions.count, 1)
    expectEqual(recorder.events, [.subscription])
  }

  @Test func secondSubscriptionIsCancelled() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>()
    upstream.retry(1).subscribe(recorder)
    let extra = TestSubscription()
    upstream.send(subscription: extra)
    #expect(extra.isCancelled)
  }

  @Test func requestAndCancelFromInsideReceive() {
    let upstream = Upstream()
    let recorder = TestSubscriber<Int, OpsMiscError>(
      initialDemand: .max(1),
      onValue: { recorder, value in
        if value == 1 { recorder.request(.max(1)) } else { recorder.cancel() }
        return .none
      }
    )
    upstream.retry(1).subscribe(recorder)
    upstream.sendToLatest(1)
    expectEqual(upstream.subscriptions.last?.requestedDemands, [.max(1), .max(1)])
    upstream.sendToLatest(2)
    expectEqual(upstream.subscriptions.last?.isCancelled, true)
    upstream.sendToLatest(3)
    expectEqual(recorder.values, [1, 2])
  }

  @Test func sendFromInsideReceiveKeepsOrder() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, OpsMiscError>(onValue: { _, value in
      if value == 1 { subject.send(2) }
      return .none
    })
    subject.retry(1).subscribe(recorder)
    subject.send(1)
    subject.send(completion: .finished)
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
  }

  @Test func releasedAfterCompletionAndAfterCancel() {
    let subject = PassthroughSubject<Int, OpsMiscError>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, OpsMiscError>()
        subject.retry(1).subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        subject.send(completion: .finished)
        return [recorder, subscription]
      }
    )
    let other = PassthroughSubject<Int, OpsMiscError>()
    #expect(
      opsMiscAllReleased {
        let recorder = TestSubscriber<Int, OpsMiscError>()
        other.retry(1).subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        recorder.cancel()
        return [recorder, subscription]
      }
    )
  }
}

@Suite struct RetryCombineFidelityTests {
  /// As in Combine, a negative number of retries never runs out.
  @Test func negativeRetriesRetryIndefinitely() {
    let upstream = TestPublisher<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .max(1))
    Publishers.Retry(upstream: upstream, retries: -1).subscribe(recorder)
    for _ in 0..<100 { upstream.sendToLatest(completion: .failure(OpsMiscError(1))) }
    upstream.sendToLatest(0)
    expectEqual(recorder.events, [.subscription, .value(0)])
    expectEqual(upstream.subscriptions.count, 101)
  }

  /// As in Combine, the demand downstream returns for a value is requested from upstream rather than
  /// returned.
  @Test func demandReturnedByDownstreamIsRequestedUpstream() {
    let upstream = TestPublisher<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .max(3), onValue: { _, value in .max(value) })
    upstream.retry(5).subscribe(recorder)
    expectEqual(upstream.sendToLatest(5), .none)
    expectEqual(upstream.subscriptions.last?.requestedDemands, [.max(3), .max(5)])
    upstream.sendToLatest(completion: .failure(OpsMiscError(1)))
    expectEqual(upstream.subscriptions.last?.requestedDemands, [.max(7)])
  }

  /// As in Combine, a value the resubscribed upstream sends before its subscription is delivered, and
  /// the subscription is then asked for the demand outstanding.
  @Test func valueBeforeTheResubscriptionIsDelivered() {
    let upstream = TestPublisher<Int, OpsMiscError>()
    var sendsBeforeSubscribing = false
    let resubscribed = BeforeSubscribing(upstream) { subscriber in
      if sendsBeforeSubscribing { _ = subscriber.receive(1) }
    }
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .max(3), onValue: { _, _ in .max(2) })
    resubscribed.retry(1).subscribe(recorder)
    expectEqual(upstream.subscriptions.last?.requestedDemands, [.max(3)])
    sendsBeforeSubscribing = true
    upstream.sendToLatest(completion: .failure(OpsMiscError()))
    expectEqual(recorder.events, [.subscription, .value(1)])
    expectEqual(upstream.subscriptions.last?.requestedDemands, [.max(4)])
  }

  /// As in Combine, a completion before the subscription is passed on; a value is not, as there is no
  /// demand for it.
  @Test func completionBeforeSubscriptionIsPassedOn() throws {
    let holder = SubscriberHolder<Int, OpsMiscError>()
    let recorder = TestSubscriber<Int, OpsMiscError>()
    holder.retry(3).subscribe(recorder)
    #expect(try #require(holder.subscriber).receive(7) == .none)
    try #require(holder.subscriber).receive(completion: .finished)
    expectEqual(recorder.events, [.completion(.finished)])
  }
}
