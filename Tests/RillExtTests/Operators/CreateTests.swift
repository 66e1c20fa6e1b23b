import RillExt
import RillTestSupport
import RillTesting
import Testing

/// Counts how often a create closure's cleanup runs.
private final class CleanupCounter: @unchecked Sendable {
  private let count = Locked(0)

  var value: Int { count.withLock { $0 } }

  func cancellable() -> AnyCancellable {
    AnyCancellable { [count] in count.withLock { $0 += 1 } }
  }
}

/// A create publisher that keeps its `Subscriber` for the test to send to by hand.
private final class Handle<Output, Failure: Error>: @unchecked Sendable {
  let cleanup = CleanupCounter()

  private let kept = Locked<Publishers.Create<Output, Failure>.Subscriber?>(nil)

  var subscriber: Publishers.Create<Output, Failure>.Subscriber { kept.withLock { $0! } }

  var publisher: AnyPublisher<Output, Failure> {
    AnyPublisher { [kept, cleanup] subscriber in
      kept.withLock { $0 = subscriber }
      return cleanup.cancellable()
    }
  }
}

@Suite struct CreateTests {
  @Test func docMarbles() {
    let scheduler = TestScheduler()
    func render<P: Publisher>(_ publisher: P) -> String {
      let subscriber = TestSubscriber<P.Output, P.Failure>(scheduler: scheduler)
      publisher.subscribe(subscriber)
      scheduler.run()
      return subscriber.marbles()
    }
    let initialized = AnyPublisher<Int, MarbleError> { subscriber in
      subscriber.send(1)
      subscriber.send(2)
      subscriber.send(completion: .finished)
      return AnyCancellable {}
    }
    expectEqual(render(initialized), "[12|]")
    let created = AnyPublisher<Int, MarbleError>.create { subscriber in
      subscriber.send(1)
      subscriber.send(completion: .failure(MarbleError()))
      return AnyCancellable {}
    }
    expectEqual(render(created), "[1^]")
    let publisher = Publishers.Create<Int, MarbleError> { subscriber in
      subscriber.send(1)
      subscriber.send(completion: .finished)
      return AnyCancellable {}
    }
    expectEqual(render(publisher), "[1|]")
  }

  @Test func valuesThenCompletion() {
    for completion in [Subscribers.Completion<ExtTestError>.finished, .failure(.upstream)] {
      let cleanup = CleanupCounter()
      let publisher = AnyPublisher<Int, ExtTestError>.create { subscriber in
        subscriber.send(1)
        subscriber.send(2)
        subscriber.send(completion: completion)
        subscriber.send(3)
        subscriber.send(completion: .finished)
        return cleanup.cancellable()
      }
      let subscriber = TestSubscriber<Int, ExtTestError>()
      publisher.subscribe(subscriber)
      expectEqual(subscriber.values, [1, 2])
      #expect(subscriber.completion == completion && subscriber.completionCount == 1)
      expectEqual(cleanup.value, 1)
    }
  }

  @Test func theFactoryRunsOncePerSubscriberAfterTheSubscription() {
    let runs = Locked(0)
    let publisher = AnyPublisher<Int, Never> { subscriber in
      let run = runs.withLock { count -> Int in
        count += 1
        return count
      }
      subscriber.send(run)
      return AnyCancellable {}
    }
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    publisher.subscribe(first)
    publisher.subscribe(second)
    expectEqual(first.eventDescriptions, ["subscription", "value(1)"])
    expectEqual(second.eventDescriptions, ["subscription", "value(2)"])
  }

  @Test func valuesBeyondDemandWaitInOrder() {
    let handle = Handle<Int, ExtTestError>()
    let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: .max(2))
    handle.publisher.subscribe(subscriber)
    for value in 1...5 { handle.subscriber.send(value) }
    expectEqual(subscriber.values, [1, 2])
    subscriber.request(.max(1))
    #expect(subscriber.values == [1, 2, 3] && !subscriber.isCompleted)
    subscriber.request(.max(1))
    expectEqual(subscriber.values, [1, 2, 3, 4])
    expectEqual(handle.cleanup.value, 0)

    // Nothing requested: the completion needs no demand, and the waiting values are dropped.
    let idle = TestSubscriber<Int, Never>(initialDemand: .none)
    AnyPublisher<Int, Never> { subscriber in
      subscriber.send(1)
      subscriber.send(2)
      subscriber.send(completion: .finished)
      return AnyCancellable {}
    }
    .subscribe(idle)
    expectEqual(idle.eventDescriptions, ["subscription", "finished"])
  }

  /// As in CombineExt: the completion follows the values the subscriber asked for, and the others are dropped.
  @Test func theCompletionFollowsTheValuesAskedFor() {
    for completion in [Subscribers.Completion<ExtTestError>.finished, .failure(.upstream)] {
      let cleanup = CleanupCounter()
      let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: .max(2))
      AnyPublisher<Int, ExtTestError> { subscriber in
        for value in 1...4 { subscriber.send(value) }
        subscriber.send(completion: completion)
        return cleanup.cancellable()
      }
      .subscribe(subscriber)
      expectEqual(subscriber.values, [1, 2])
      expectEqual(subscriber.completion, completion)
      expectEqual(cleanup.value, 1)
    }

    // Sent later, when the demand has run out.
    let handle = Handle<Int, ExtTestError>()
    let later = TestSubscriber<Int, ExtTestError>(initialDemand: .max(1))
    handle.publisher.subscribe(later)
    for value in 1...3 { handle.subscriber.send(value) }
    handle.subscriber.send(completion: .failure(.other))
    expectEqual(later.eventDescriptions, ["subscription", "value(1)", "failure(other)"])
    expectEqual(handle.cleanup.value, 1)

    // The demand a delivered value returns counts: the completion waits for the values it covers.
    let oneAtATime = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    let reentrant = Handle<Int, Never>()
    reentrant.publisher.subscribe(oneAtATime)
    oneAtATime.onValue = { _, value in
      if value == 1 {
        reentrant.subscriber.send(2)
        reentrant.subscriber.send(3)
        reentrant.subscriber.send(completion: .finished)
      }
      return .none
    }
    reentrant.subscriber.send(1)
    expectEqual(oneAtATime.eventDescriptions, ["subscription", "value(1)", "value(2)", "value(3)", "finished"])
  }

  /// As in CombineExt: a request of `.none` is accepted.
  @Test func aRequestForNoneGetsTheCompletion() {
    for completion in [Subscribers.Completion<ExtTestError>.finished, .failure(.upstream)] {
      let cleanup = CleanupCounter()
      let subscriber = TestSubscriber<Int, ExtTestError>(
        initialDemand: .none,
        onSubscription: { _, subscription in subscription.request(.none) }
      )
      AnyPublisher<Int, ExtTestError> { subscriber in
        for value in 1...4 { subscriber.send(value) }
        subscriber.send(completion: completion)
        return cleanup.cancellable()
      }
      .subscribe(subscriber)
      #expect(subscriber.values.isEmpty)
      expectEqual(subscriber.completion, completion)
      expectEqual(cleanup.value, 1)
    }

    // Without any request, the completion goes all the same.
    let empty = TestSubscriber<Int, Never>(initialDemand: .none)
    AnyPublisher<Int, Never> { subscriber in
      subscriber.send(completion: .finished)
      return AnyCancellable {}
    }
    .subscribe(empty)
    expectEqual(empty.eventDescriptions, ["subscription", "finished"])
  }

  @Test func demandReturnedFromAValueCounts() {
    let handle = Handle<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    handle.publisher.subscribe(subscriber)
    for value in 1...3 { handle.subscriber.send(value) }
    expectEqual(subscriber.values, [1, 2, 3])
    let limited = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { _, value in value == 1 ? .max(1) : .none }
    )
    let second = Handle<Int, Never>()
    second.publisher.subscribe(limited)
    for value in 1...3 { second.subscriber.send(value) }
    expectEqual(limited.values, [1, 2])
    limited.request(.max(1))
    expectEqual(limited.values, [1, 2, 3])
  }

  @Test func cancellation() {
    let handle = Handle<Int, ExtTestError>()
    let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: .max(1))
    handle.publisher.subscribe(subscriber)
    handle.subscriber.send(1)
    handle.subscriber.send(2)
    expectEqual(handle.cleanup.value, 0)
    subscriber.cancel()
    expectEqual(handle.cleanup.value, 1)
    // The waiting value is dropped, and nothing more arrives.
    handle.subscriber.send(3)
    handle.subscriber.send(completion: .finished)
    subscriber.subscription?.request(.max(5))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)"])
    expectEqual(handle.cleanup.value, 1)

    // Cancelling from receive(subscription:) means the factory never runs.
    let runs = Locked(0)
    let early = TestSubscriber<Int, Never>(onSubscription: { subscriber, _ in subscriber.cancel() })
    AnyPublisher<Int, Never> { _ in
      runs.withLock { $0 += 1 }
      return AnyCancellable {}
    }
    .subscribe(early)
    #expect(runs.withLock { $0 } == 0)

    // Cancelling while the factory runs cancels what it returns as soon as it returns.
    let cleanup = CleanupCounter()
    let canceller = TestSubscriber<Int, Never>(onValue: { subscriber, _ in
      subscriber.cancel()
      return .none
    })
    AnyPublisher<Int, Never> { subscriber in
      subscriber.send(1)
      subscriber.send(2)
      expectEqual(cleanup.value, 0)
      return cleanup.cancellable()
    }
    .subscribe(canceller)
    expectEqual(canceller.values, [1])
    expectEqual(cleanup.value, 1)
  }

  @Test func reentrancy() {
    // Sending from inside a delivery queues behind it.
    let handle = Handle<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(onValue: { _, value in
      if value == 1 {
        handle.subscriber.send(2)
        handle.subscriber.send(completion: .finished)
      }
      return .none
    })
    handle.publisher.subscribe(subscriber)
    handle.subscriber.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "value(2)", "finished"])

    // Requesting from inside a delivery releases the next waiting value after this one returns.
    let second = Handle<Int, Never>()
    let requester = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { subscriber, _ in
        subscriber.request(.max(1))
        return .none
      }
    )
    second.publisher.subscribe(requester)
    for value in 1...3 { second.subscriber.send(value) }
    expectEqual(requester.values, [1, 2, 3])
  }

  @Test func concurrentSendersNeverLoseOrDuplicate() async {
    let handle = Handle<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(10))
    handle.publisher.subscribe(subscriber)
    let sender = handle.subscriber
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<4 {
        group.addTask {
          for value in 0..<250 { sender.send(thread * 1000 + value) }
        }
      }
      group.addTask {
        for _ in 0..<99 { subscriber.request(.max(10)) }
      }
    }
    sender.send(completion: .finished)
    let values = subscriber.values
    #expect(values.count == 1000 && Set(values).count == 1000)
    for thread in 0..<4 {
      let mine = values.filter { $0 / 1000 == thread }
      expectEqual(mine, mine.sorted())
    }
    #expect(subscriber.isFinished)
  }

  @Test func memory() {
    weak var inner: AnyObject?
    do {
      let handle = Handle<Int, Never>()
      let subscriber = TestSubscriber<Int, Never>()
      handle.publisher.subscribe(subscriber)
      inner = subscriber.subscription as AnyObject?
      handle.subscriber.send(1)
      handle.subscriber.send(completion: .finished)
      #expect(subscriber.isFinished)
      // The kept `Subscriber` does not keep the subscription alive.
      _ = handle.subscriber
    }
    #expect(inner == nil)

    weak var cancelledInner: AnyObject?
    let keptHandle = Handle<Int, Never>()
    do {
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
      keptHandle.publisher.subscribe(subscriber)
      cancelledInner = subscriber.subscription as AnyObject?
      keptHandle.subscriber.send(1)
      keptHandle.subscriber.send(2)
      subscriber.cancel()
    }
    #expect(cancelledInner == nil)
    keptHandle.subscriber.send(3)

    // The cancellable is let go of once the subscription ends.
    final class Resource: Cancellable {
      func cancel() {}
    }
    weak var resource: Resource?
    let subscriber = TestSubscriber<Int, Never>()
    AnyPublisher<Int, Never> { subscriber in
      let made = Resource()
      resource = made
      subscriber.send(completion: .finished)
      return made
    }
    .subscribe(subscriber)
    #expect(resource == nil)
  }

  @Test func contract() {
    expectContract("create, finished") {
      AnyPublisher<Int, Never> { subscriber in
        for value in 1...3 { subscriber.send(value) }
        subscriber.send(completion: .finished)
        return AnyCancellable {}
      }
    }
    for demand in ContractDemand.standard {
      let handle = Handle<Int, ExtTestError>()
      let report = PublisherContract.check(handle.publisher, demand: demand) { checker in
        handle.subscriber.send(1)
        handle.subscriber.send(2)
        checker.request(.max(1))
        handle.subscriber.send(completion: .failure(.upstream))
        checker.request(.max(1))
      }
      #expect(report.isSatisfied, "create, by hand, \(demand): \(report)")
    }
  }

  @Test func publicSurface() {
    let handler: Publishers.Create<Int, ExtTestError>.SubscriberHandler = { subscriber in
      subscriber.send(1)
      return AnyCancellable {}
    }
    let publisher: Publishers.Create<Int, ExtTestError> = Publishers.Create(factory: handler)
    let _: AnyPublisher<Int, ExtTestError> = AnyPublisher(handler)
    let _: AnyPublisher<Int, ExtTestError> = AnyPublisher.create(handler)
    let subscriber = TestSubscriber<Int, ExtTestError>()
    publisher.subscribe(subscriber)
    #expect(subscriber.subscription.map { String(describing: $0) } == "Create.Subscription<Int, ExtTestError>")
    // The erasing initializer still takes a publisher.
    let erased: AnyPublisher<Int, Never> = AnyPublisher(Just(1))
    expectEqual(String(describing: erased), "AnyPublisher")
  }
}
