import Dispatch
import RillExt
import RillTestSupport
import RillTesting
import Synchronization
import Testing

private enum TriggerError: Error {
  case unrelated
}

@Suite struct RetryWhenTests {
  @Test func docMarbles() {
    #expect(TestScheduler.marbles("-1-^", as: Int.self) { $0.retryWhen { $0.prefix(3) } } == "-1--1--1-|")
  }

  @Test func valuesAndFinishPassThrough() {
    let (upstream, subscriber) = extSubscribe { $0.retryWhen { $0.filter { _ in false } } }
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(2)", "finished"])
  }

  @Test func aTriggerValueSubscribesAgain() {
    var attempts = 0
    let subscriber = TestSubscriber<Int, ExtTestError>()
    Deferred { () -> AnyPublisher<Int, ExtTestError> in
      attempts += 1
      return attempts == 1
        ? Fail(error: .upstream).eraseToAnyPublisher()
        : Just(5).setFailureType(to: ExtTestError.self).eraseToAnyPublisher()
    }
    .retryWhen { $0.map { _ in () } }
    .subscribe(subscriber)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(5)", "finished"])
    expectEqual(attempts, 2)
  }

  @Test func theTriggersCompletionEndsTheStream() {
    let failed = TestSubscriber<Int, ExtTestError>()
    Fail<Int, ExtTestError>(error: .upstream)
      .retryWhen { $0.tryMap { _ -> Void in throw ExtTestError.other } }
      .subscribe(failed)
    expectEqual(failed.eventDescriptions, ["subscription", "failure(other)"])

    let finished = TestSubscriber<Int, ExtTestError>()
    Fail<Int, ExtTestError>(error: .upstream).retryWhen { $0.prefix(1) }.subscribe(finished)
    expectEqual(finished.eventDescriptions, ["subscription", "finished"])

    // A trigger failure of another type is ignored.
    let trigger = PassthroughSubject<Void, TriggerError>()
    let (upstream, waiting) = extSubscribe { $0.retryWhen { _ in trigger } }
    trigger.send(completion: .failure(.unrelated))
    upstream.send(1)
    expectEqual(waiting.eventDescriptions, ["subscription", "value(1)"])

    // The trigger finishing while upstream runs cancels upstream.
    let stop = PassthroughSubject<Void, Never>()
    let (running, stopped) = extSubscribe { $0.retryWhen { _ in stop } }
    stop.send(completion: .finished)
    #expect(running.cancelCount == 1 && stopped.isFinished)
  }

  @Test func failuresGoToTheTriggerNotDownstream() {
    let trigger = PassthroughSubject<Void, Never>()
    var seen: [ExtTestError] = []
    let (upstream, subscriber) = extSubscribe { upstream in
      upstream.retryWhen { failures in
        failures.handleEvents(receiveOutput: { seen.append($0) }).flatMap { _ in trigger }
      }
    }
    upstream.send(1)
    upstream.send(completion: .failure(.upstream))
    #expect(seen == [.upstream] && !subscriber.isCompleted)
    expectEqual(upstream.subscriberCount, 1)
    trigger.send(())
    expectEqual(upstream.subscriberCount, 2)
    // The first subscription has ended: only the second one's values count.
    upstream.send(2)
    expectEqual(subscriber.values, [1, 2])
  }

  @Test func exactDemandAcrossAttempts() {
    let trigger = PassthroughSubject<Void, Never>()
    let (upstream, subscriber) = extSubscribe({ $0.retryWhen { _ in trigger } }, initialDemand: .max(3))
    expectEqual(upstream.requestedDemands, [.max(3)])
    upstream.send(1)
    upstream.send(completion: .failure(.upstream))
    trigger.send(())
    // The new subscription is asked for what is still owed.
    expectEqual(upstream.requestedDemands, [.max(3), .max(2)])
    subscriber.request(.max(4))
    expectEqual(upstream.requestedDemands, [.max(3), .max(2), .max(4)])
    expectEqual(upstream.subscriptions[0].requestedDemands, [.max(3)])

    // Between attempts, requests wait for the next subscription.
    let quiet = PassthroughSubject<Void, Never>()
    let (source, waiting) = extSubscribe({ $0.retryWhen { _ in quiet } }, initialDemand: .max(1))
    source.send(completion: .failure(.upstream))
    waiting.request(.max(2))
    quiet.send(())
    expectEqual(source.requestedDemands, [.max(1), .max(3)])
    // The trigger is asked for everything.
    let counted = TestPublisher<Void, Never>()
    _ = extSubscribe { $0.retryWhen { _ in counted } }
    expectEqual(counted.requestedDemands, [.unlimited])
  }

  /// Demand that downstream returns for a value goes to the attempt that is running when it returns: a new attempt
  /// started from inside the delivery gets it, and the stream goes on.
  @Test func demandReturnedWhileANewAttemptStartsGoesToTheNewAttempt() {
    let retry = PassthroughSubject<Void, Never>()
    let upstream = TestPublisher<Int, ExtTestError>()
    let subscriber = TestSubscriber<Int, ExtTestError>(
      initialDemand: .max(1),
      onValue: { _, value in
        if value == 1 { retry.send(()) }
        return .max(1)
      }
    )
    upstream.retryWhen { _ in retry }.subscribe(subscriber)
    upstream.send(1)
    expectEqual(upstream.subscriptions.count, 2)
    expectEqual(upstream.subscriptions[1].requestedDemands, [.max(1)])
    upstream.send(2)
    expectEqual(subscriber.values, [1, 2])
  }

  /// A completion from the trigger on another thread waits for a value being delivered: downstream gets one call at
  /// a time, and nothing after the completion.
  @Test(.timeLimit(.minutes(1))) func aCompletionFromTheTriggerWaitsForAValueBeingDelivered() {
    let upstream = PassthroughSubject<Int, ExtTestError>()
    let trigger = PassthroughSubject<Void, Never>()
    let events = Mutex<[String]>([])
    let sent = DispatchSemaphore(value: 0)
    let cancellable = upstream.retryWhen { _ in trigger }.sink(
      receiveCompletion: { _ in events.withLock { $0.append("completion") } },
      receiveValue: { value in
        events.withLock { $0.append("value \(value)") }
        DispatchQueue.global().async {
          trigger.send(completion: .finished)
          sent.signal()
        }
        // Long enough for the completion to get here if nothing held it back; the order is checked below.
        _ = sent.wait(timeout: .now() + .milliseconds(50))
        events.withLock { $0.append("value returns") }
      }
    )
    upstream.send(1)
    // Bounded: if the completion came early, the wait above took the signal.
    _ = sent.wait(timeout: .now() + .seconds(10))
    #expect(events.withLock { $0 } == ["value 1", "value returns", "completion"])
    cancellable.cancel()
  }

  @Test func cancellation() {
    let trigger = TestPublisher<Void, Never>()
    let (upstream, subscriber) = extSubscribe { $0.retryWhen { _ in trigger } }
    subscriber.cancel()
    #expect(upstream.cancelCount == 1 && trigger.cancelCount == 1)
    trigger.send(())
    upstream.send(1)
    #expect(upstream.subscriberCount == 1 && subscriber.eventDescriptions == ["subscription"])

    // A trigger value while upstream runs replaces the running subscription.
    let again = PassthroughSubject<Void, Never>()
    let (source, _) = extSubscribe { $0.retryWhen { _ in again } }
    again.send(())
    #expect(source.subscriptions[0].isCancelled && source.subscriberCount == 2)
    // Events of the replaced subscription are ignored.

    // Cancelling inside receive(subscription:) subscribes nothing.
    let untouched = ExtUpstream()
    let idleTrigger = TestPublisher<Void, Never>()
    let early = TestSubscriber<Int, ExtTestError>(onSubscription: { subscriber, _ in subscriber.cancel() })
    untouched.retryWhen { _ in idleTrigger }.subscribe(early)
    #expect(untouched.subscriberCount == 0 && idleTrigger.subscriberCount == 0)
  }

  @Test func reentrancy() {
    // Downstream cancels from inside a value of the second attempt.
    var attempts = 0
    let subscriber = TestSubscriber<Int, ExtTestError>(onValue: { subscriber, _ in
      subscriber.cancel()
      return .none
    })
    Deferred { () -> AnyPublisher<Int, ExtTestError> in
      attempts += 1
      return attempts == 1
        ? Fail(error: .upstream).eraseToAnyPublisher()
        : [7, 8].publisher.setFailureType(to: ExtTestError.self).eraseToAnyPublisher()
    }
    .retryWhen { $0.map { _ in () } }
    .subscribe(subscriber)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(7)"])
  }

  @Test func memory() {
    let make = { (upstream: ExtUpstream) in upstream.retryWhen { $0.prefix(1) } }
    #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }))
    #expect(
      extPipelineIsFreed(
        make,
        drive: { upstream, _ in
          upstream.send(completion: .failure(.upstream))
          upstream.send(completion: .failure(.upstream))
        }
      )
    )
    weak var inner: AnyObject?
    do {
      let subscriber = TestSubscriber<Int, ExtTestError>()
      Fail<Int, ExtTestError>(error: .upstream).retryWhen { $0.prefix(3) }.subscribe(subscriber)
      inner = subscriber.subscription as AnyObject?
      #expect(subscriber.isFinished)
    }
    #expect(inner == nil)
  }

  @Test func contract() {
    expectContract("retryWhen") {
      [1, 2, 3].publisher.setFailureType(to: ExtTestError.self).retryWhen { $0.prefix(1) }
    }
    expectContract("retryWhen, retried") {
      Record<Int, ExtTestError>(output: [1, 2], completion: .failure(.upstream)).retryWhen { $0.prefix(2) }
    }
  }

  @Test func publicSurface() {
    let retried:
      Publishers.RetryWhen<
        PassthroughSubject<Int, ExtTestError>, Publishers.Output<AnyPublisher<ExtTestError, Never>>, Int, ExtTestError
      > = PassthroughSubject().retryWhen { $0.prefix(1) }
    let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: .none)
    retried.subscribe(subscriber)
    #expect(subscriber.subscription.map { String(describing: $0) } == "RetryWhen.Subscription<Int, ExtTestError>")
  }
}
