import Foundation
import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct SinglePublisherOperationTests {
  @Test func theOperationFinishesWithThePublishersValue() {
    let queue = OperationQueue()
    let operation = Just(1).makeOperation()
    #expect(operation.result == nil)
    queue.addOperation(operation)
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(operation.isFinished)
    expectEqual(operation.result?.get(), 1)
  }

  @Test func theOperationFinishesWithThePublishersFailure() {
    let queue = OperationQueue()
    let operation = AnySinglePublisher<Int, ExtTestError>.fail(.upstream).makeOperation()
    queue.addOperation(operation)
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(throws: ExtTestError.upstream) { try operation.result?.get() }
  }

  @Test func thePublisherIsSubscribedWhenTheOperationStartsAndFinishesItLater() throws {
    let queue = OperationQueue()
    queue.isSuspended = true
    let upstream = ExtUpstream()
    let operation = TrustedUpstream(upstream: upstream).makeOperation()
    queue.addOperation(operation)
    expectEqual(upstream.subscriberCount, 0)
    queue.isSuspended = false
    // The upstream counts its subscriber before the sink, on the queue's thread, asks for the value.
    #expect(eventually { upstream.subscriberCount == 1 && !upstream.requestedDemands.isEmpty })
    expectEqual(upstream.requestedDemands, [.unlimited])
    #expect(operation.isExecuting)
    _ = upstream.send(2)
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(try operation.result?.get() == 2)
  }

  @Test func cancellingTheOperationCancelsTheSubscription() {
    let queue = OperationQueue()
    let upstream = ExtUpstream()
    let operation = TrustedUpstream(upstream: upstream).makeOperation()
    queue.addOperation(operation)
    #expect(eventually { upstream.subscriberCount == 1 && operation.isExecuting })
    operation.cancel()
    // A cancel that comes while `main()` is still subscribing is carried out by `main()`, on the queue's thread.
    #expect(eventually { upstream.cancelCount == 1 })
    #expect(operation.isFinished && operation.isCancelled)
    #expect(waitUntilAllOperationsAreFinished(queue))
    expectEqual(upstream.cancelCount, 1)
    _ = upstream.send(3)
    #expect(operation.result == nil)
  }

  @Test func anOperationCancelledBeforeItStartsNeverSubscribes() {
    let queue = OperationQueue()
    queue.isSuspended = true
    let upstream = ExtUpstream()
    let operation = TrustedUpstream(upstream: upstream).makeOperation()
    queue.addOperation(operation)
    operation.cancel()
    queue.isSuspended = false
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(operation.isFinished)
    expectEqual(upstream.subscriberCount, 0)
  }

  /// A cancel in the gap that the tests above can fall into, made on purpose.
  ///
  /// The operation is cancelled after its publisher has handed the sink a subscription, before `main()` has stored
  /// it; the subscription is then cancelled once.
  @Test func aCancelWhileMainSubscribesIsCarriedOutByMainOnce() {
    let queue = OperationQueue()
    let upstream = ExtUpstream()
    let target = OperationTarget()
    let operation = CancellingOnceSubscribed(upstream: upstream) { target.operation?.cancel() }.makeOperation()
    target.operation = operation
    queue.addOperation(operation)
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(operation.isCancelled)
    expectEqual(upstream.subscriberCount, 1)
    #expect(eventually { upstream.cancelCount == 1 })
    _ = upstream.send(1)
    #expect(operation.result == nil)
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func theOperationAndThePublisherAreFreedAfterCompletionAndAfterCancel() {
    weak var finished: AnyObject?
    weak var cancelled: AnyObject?
    weak var cancelledSubscription: AnyObject?
    let queue = OperationQueue()
    do {
      let upstream = ExtUpstream()
      let finishing = Just(1).makeOperation()
      let cancelling = TrustedUpstream(upstream: upstream).makeOperation()
      finished = finishing
      cancelled = cancelling
      queue.addOperations([finishing, cancelling], waitUntilFinished: false)
      #expect(eventually { upstream.subscriberCount == 1 })
      cancelledSubscription = upstream.subscriptions.first
      cancelling.cancel()
      #expect(waitUntilAllOperationsAreFinished(queue))
      upstream.releaseSubscribers()
    }
    #expect(eventually { finished == nil && cancelled == nil && cancelledSubscription == nil })
  }
}

@Suite(.timeLimit(.minutes(1))) struct AsOperationTests {
  @Test func theSubscriptionRunsThePublisherInAnOperationOfTheQueue() {
    let queue = OperationQueue()
    queue.isSuspended = true
    let subscriber = TestSubscriber<Int, Never>()
    Just(1).asOperation(in: queue).subscribe(subscriber)
    expectEqual(queue.operationCount, 1)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    queue.isSuspended = false
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(eventually { subscriber.isCompleted })
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
  }

  @Test func theOperationIsAddedOnTheFirstDemandWithTheGivenPriority() {
    let queue = OperationQueue()
    queue.isSuspended = true
    let publisher = Just(1).asOperation(in: queue, queuePriority: .high)
    expectEqual(publisher.queuePriority, .high)
    #expect(publisher.operationQueue === queue)
    expectEqual(Just(1).asOperation(in: queue).queuePriority, .normal)
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    publisher.subscribe(subscriber)
    expectEqual(queue.operationCount, 0)
    subscriber.request(.max(1))
    subscriber.request(.max(1))
    expectEqual(queue.operationCount, 1)
    expectEqual(queue.operations.first?.queuePriority, .high)
    queue.isSuspended = false
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(eventually { subscriber.isCompleted })
    expectEqual(subscriber.values, [1])
  }

  @Test func aFailureIsPublished() {
    let queue = OperationQueue()
    let subscriber = TestSubscriber<Int, ExtTestError>()
    TraitPublishers.AsOperation(
      upstream: AnySinglePublisher<Int, ExtTestError>.fail(.other),
      operationQueue: queue,
      queuePriority: .low
    ).subscribe(subscriber)
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(eventually { subscriber.isCompleted })
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(other)"])
  }

  @Test func cancellingTheSubscriptionCancelsTheOperationAndItsSubscription() {
    let queue = OperationQueue()
    let upstream = ExtUpstream()
    let subscriber = TestSubscriber<Int, ExtTestError>()
    TrustedUpstream(upstream: upstream).asOperation(in: queue).subscribe(subscriber)
    #expect(eventually { upstream.subscriberCount == 1 })
    subscriber.cancel()
    // A cancel that comes while the operation's `main()` is still subscribing is carried out by `main()`.
    #expect(eventually { upstream.cancelCount == 1 })
    #expect(waitUntilAllOperationsAreFinished(queue))
    expectEqual(upstream.cancelCount, 1)
    _ = upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  @Test func cancellingBeforeTheQueueStartsTheOperationNeverSubscribes() {
    let queue = OperationQueue()
    queue.isSuspended = true
    let upstream = ExtUpstream()
    let subscriber = TestSubscriber<Int, ExtTestError>()
    TrustedUpstream(upstream: upstream).asOperation(in: queue).subscribe(subscriber)
    subscriber.cancel()
    queue.isSuspended = false
    #expect(waitUntilAllOperationsAreFinished(queue))
    expectEqual(upstream.subscriberCount, 0)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  @Test func anOperationCancelledByItsQueueEndsTheSubscriptionWithoutCompletion() {
    let queue = OperationQueue()
    let upstream = ExtUpstream()
    let subscriber = TestSubscriber<Int, ExtTestError>()
    TrustedUpstream(upstream: upstream).asOperation(in: queue).subscribe(subscriber)
    #expect(eventually { upstream.subscriberCount == 1 })
    queue.cancelAllOperations()
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(eventually { upstream.cancelCount == 1 })
    _ = upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  @Test func aSerialQueueRunsThePublishersOneAfterTheOther() {
    let queue = OperationQueue(qualityOfService: .default, maxConcurrentOperationCount: 1)
    let first = ExtUpstream()
    let second = ExtUpstream()
    let firstSubscriber = TestSubscriber<Int, ExtTestError>()
    let secondSubscriber = TestSubscriber<Int, ExtTestError>()
    TrustedUpstream(upstream: first).asOperation(in: queue).subscribe(firstSubscriber)
    TrustedUpstream(upstream: second).asOperation(in: queue).subscribe(secondSubscriber)
    #expect(eventually { first.subscriberCount == 1 })
    Thread.sleep(forTimeInterval: 0.05)
    expectEqual(second.subscriberCount, 0)
    _ = first.send(1)
    #expect(eventually { second.subscriberCount == 1 })
    _ = second.send(2)
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(eventually { firstSubscriber.isCompleted && secondSubscriber.isCompleted })
    expectEqual(firstSubscriber.values, [1])
    expectEqual(secondSubscriber.values, [2])
  }

  @Test func theSubscriptionIsFreedAfterCompletionAndAfterCancel() {
    weak var completedSubscription: AnyObject?
    weak var cancelledSubscription: AnyObject?
    let queue = OperationQueue()
    let upstream = ExtUpstream()
    do {
      let completing = TestSubscriber<Int, Never>()
      Just(1).asOperation(in: queue).subscribe(completing)
      completedSubscription = completing.subscription as AnyObject?
      let cancelling = TestSubscriber<Int, ExtTestError>()
      TrustedUpstream(upstream: upstream).asOperation(in: queue).subscribe(cancelling)
      cancelledSubscription = cancelling.subscription as AnyObject?
      #expect(eventually { completing.isCompleted && upstream.subscriberCount == 1 })
      cancelling.cancel()
    }
    #expect(waitUntilAllOperationsAreFinished(queue))
    upstream.releaseSubscribers()
    #expect(eventually { completedSubscription == nil && cancelledSubscription == nil })
  }
}

/// A single publisher that calls `afterSubscribing` once its upstream has given the subscriber a subscription.
private struct CancellingOnceSubscribed: SinglePublisher {
  typealias Output = Int
  typealias Failure = ExtTestError

  let upstream: ExtUpstream
  let afterSubscribing: () -> Void

  func receive<S>(subscriber: S) where S: Subscriber, S.Input == Int, S.Failure == ExtTestError {
    upstream.receive(subscriber: subscriber)
    afterSubscribing()
  }
}

/// The operation a publisher cancels, held weakly so that the publisher does not keep it alive.
private final class OperationTarget: @unchecked Sendable {
  weak var operation: Operation?
}
