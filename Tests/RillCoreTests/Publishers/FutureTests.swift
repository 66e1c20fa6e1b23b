import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct FutureTests {
  @Test func runsItsClosureAtCreationOnce() {
    var runs = 0
    let future = Future<Int, Never> { promise in
      runs += 1
      promise(.success(1))
    }
    expectEqual(runs, 1)
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    future.subscribe(first)
    future.subscribe(second)
    expectEqual(runs, 1)
    expectEqual(first.events, [.subscription, .value(1), .completion(.finished)])
    expectEqual(second.events, [.subscription, .value(1), .completion(.finished)])
  }

  @Test func deliversToEarlierSubscribersWhenFulfilledLater() {
    var fulfil: ((Result<Int, CoreTestError>) -> Void)?
    let future = Future<Int, CoreTestError> { fulfil = $0 }
    let early = TestSubscriber<Int, CoreTestError>()
    let waiting = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
    future.subscribe(early)
    future.subscribe(waiting)
    expectEqual(early.events, [.subscription])
    fulfil?(.success(5))
    fulfil?(.success(6))
    expectEqual(early.events, [.subscription, .value(5), .completion(.finished)])
    expectEqual(waiting.events, [.subscription])
    waiting.request(.max(1))
    expectEqual(waiting.values, [5])
  }

  @Test func failureIsDeliveredWithoutDemand() {
    let future = Future<Int, CoreTestError> { $0(.failure(.boom)) }
    let recorder = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
    future.subscribe(recorder)
    expectEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
  }

  @Test func cancelledSubscriberGetsNothing() {
    var fulfil: ((Result<Int, Never>) -> Void)?
    let future = Future<Int, Never> { fulfil = $0 }
    let recorder = TestSubscriber<Int, Never>()
    future.subscribe(recorder)
    recorder.cancel()
    fulfil?(.success(1))
    expectEqual(recorder.events, [.subscription])
  }

  @Test func deferredFutureRunsPerSubscriber() {
    var runs = 0
    let deferred = Deferred {
      Future<Int, Never> { promise in
        runs += 1
        promise(.success(runs))
      }
    }
    expectEqual(runs, 0)
    var values: [Int] = []
    _ = deferred.sink { values.append($0) }
    _ = deferred.sink { values.append($0) }
    expectEqual(values, [1, 2])
  }

  /// Threads, not tasks: while the whole suite runs, synchronous tests can hold every thread of the cooperative
  /// pool, and tasks would wait for them.
  @Test func promiseCalledFromManyThreadsResolvesOnce() {
    for _ in 0..<50 {
      final class PromiseBox: @unchecked Sendable {
        var promise: ((Result<Int, Never>) -> Void)?
      }
      let box = PromiseBox()
      let future = Future<Int, Never> { box.promise = $0 }
      let recorder = TestSubscriber<Int, Never>()
      future.subscribe(recorder)
      #expect(StressThreads.run(8) { value in box.promise?(.success(value)) })
      expectEqual(recorder.values.count, 1)
      expectEqual(recorder.completions, [.finished])
      let late = TestSubscriber<Int, Never>()
      future.subscribe(late)
      expectEqual(late.values, recorder.values)
    }
  }
}

/// When results reach a subscriber that is receiving its subscription.
@Suite struct FutureAttachingSubscriberTests {
  /// Records what it is told, and in `receive(subscription:)` runs `onSubscription` before returning.
  final class AttachingSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = CoreTestError

    private let lock = NSLock()
    private var log: [String] = []
    let onSubscription: () -> Void

    init(onSubscription: @escaping () -> Void) {
      self.onSubscription = onSubscription
    }

    var events: [String] { lock.withLock { log } }

    private func record(_ event: String) { lock.withLock { log.append(event) } }

    func receive(subscription: any Subscription) {
      record("subscription begins")
      subscription.request(.unlimited)
      onSubscription()
      record("subscription ends")
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      record("value \(input)")
      return .none
    }

    func receive(completion: Subscribers.Completion<CoreTestError>) {
      record("completion")
    }
  }

  final class PromiseBox: @unchecked Sendable {
    var promise: ((Result<Int, CoreTestError>) -> Void)?
  }

  /// A promise fulfilled from inside `receive(subscription:)` delivers once it has returned. (Combine delivers
  /// inside it; Rill never calls a subscriber before its `receive(subscription:)` has returned, which also rules out
  /// a result from another thread overlapping it.)
  @Test func aValueFulfilledInsideReceiveSubscriptionFollowsIt() {
    let box = PromiseBox()
    let future = Future<Int, CoreTestError> { box.promise = $0 }
    let subscriber = AttachingSubscriber { box.promise?(.success(7)) }
    future.subscribe(subscriber)
    expectEqual(subscriber.events, ["subscription begins", "subscription ends", "value 7", "completion"])
  }

  @Test func aFailureFromAnotherThreadDuringReceiveSubscriptionWaitsForIt() {
    let box = PromiseBox()
    let future = Future<Int, CoreTestError> { box.promise = $0 }
    let subscriber = AttachingSubscriber {
      let fulfilled = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        box.promise?(.failure(.boom))
        fulfilled.signal()
      }
      fulfilled.wait()
    }
    future.subscribe(subscriber)
    expectEqual(subscriber.events, ["subscription begins", "subscription ends", "completion"])
  }

  /// Many subscribers attach while another thread fails the future: each hears of the failure once, after its
  /// `receive(subscription:)` has returned.
  ///
  /// Threads, not tasks, as in `FutureTests.promiseCalledFromManyThreadsResolvesOnce`.
  @Test func aFailureRacingWithSubscribersNeverPrecedesTheirSubscription() {
    for _ in 0..<200 {
      let box = PromiseBox()
      let future = Future<Int, CoreTestError> { box.promise = $0 }
      let subscribers = (0..<8).map { _ in AttachingSubscriber {} }
      let finished = StressThreads.run(9) { index in
        if index < subscribers.count {
          future.subscribe(subscribers[index])
        } else {
          box.promise?(.failure(.boom))
        }
      }
      #expect(finished)
      for subscriber in subscribers {
        expectEqual(subscriber.events, ["subscription begins", "subscription ends", "completion"])
      }
    }
  }

  @Test func anEarlierResultFollowsReceiveSubscription() {
    let future = Future<Int, CoreTestError> { $0(.failure(.boom)) }
    let subscriber = AttachingSubscriber {}
    future.subscribe(subscriber)
    expectEqual(subscriber.events, ["subscription begins", "subscription ends", "completion"])
  }
}

/// The package hook behind RillExt's `Future(awaiting:)`: it fires once the last waiting subscriber cancels.
@Suite struct FutureAbandonmentTests {
  private final class Counter: @unchecked Sendable {
    // SAFETY: only touched from the test's thread.
    var calls = 0
  }

  private func makeFuture() -> (Future<Int, Never>, Counter, (Result<Int, Never>) -> Void) {
    var fulfil: ((Result<Int, Never>) -> Void)?
    let future = Future<Int, Never> { fulfil = $0 }
    let counter = Counter()
    future.whenAbandoned { counter.calls += 1 }
    return (future, counter, fulfil!)
  }

  @Test func firesWhenTheOnlySubscriberCancels() {
    let (future, counter, _) = makeFuture()
    let recorder = TestSubscriber<Int, Never>()
    future.subscribe(recorder)
    expectEqual(counter.calls, 0)
    recorder.cancel()
    recorder.cancel()
    expectEqual(counter.calls, 1)
  }

  @Test func firesOnlyWhenTheLastOfSeveralSubscribersCancels() {
    let (future, counter, _) = makeFuture()
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    future.subscribe(first)
    future.subscribe(second)
    first.cancel()
    first.cancel()
    expectEqual(counter.calls, 0)
    second.cancel()
    expectEqual(counter.calls, 1)
    let third = TestSubscriber<Int, Never>()
    future.subscribe(third)
    third.cancel()
    expectEqual(counter.calls, 1)
  }

  @Test func aSecondCancelOfOneSubscriptionIsNotCountedAgain() {
    let (future, counter, _) = makeFuture()
    var subscriptions: [any Subscription] = []
    for _ in 0..<2 {
      future.subscribe(AnySubscriber<Int, Never>(receiveSubscription: { subscriptions.append($0) }))
    }
    subscriptions[0].cancel()
    subscriptions[0].cancel()
    expectEqual(counter.calls, 0)
    subscriptions[1].cancel()
    expectEqual(counter.calls, 1)
  }

  @Test func neverFiresWithoutSubscribersOrOnceTheResultIsIn() {
    let (future, counter, fulfil) = makeFuture()
    let waiting = TestSubscriber<Int, Never>(initialDemand: .none)
    future.subscribe(waiting)
    fulfil(.success(1))
    waiting.cancel()
    let late = TestSubscriber<Int, Never>()
    future.subscribe(late)
    late.cancel()
    expectEqual(counter.calls, 0)
    expectEqual(late.values, [1])
  }

  @Test func isIgnoredOnAFutureAlreadyFulfilled() {
    let future = Future<Int, Never> { $0(.success(1)) }
    let counter = Counter()
    future.whenAbandoned { counter.calls += 1 }
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    future.subscribe(recorder)
    recorder.cancel()
    expectEqual(counter.calls, 0)
  }

  @Test func releasesTheFutureAndItsSubscribersAfterAbandonment() {
    weak var weakFuture: Future<Int, Never>?
    weak var weakRecorder: TestSubscriber<Int, Never>?
    do {
      let (future, counter, _) = makeFuture()
      let recorder = TestSubscriber<Int, Never>()
      weakFuture = future
      weakRecorder = recorder
      future.subscribe(recorder)
      recorder.cancel()
      expectEqual(counter.calls, 1)
    }
    #expect(weakFuture == nil)
    #expect(weakRecorder == nil)
  }
}

/// A future's subscription mirrors Combine's conduit: its future, its subscriber, whether it has demand.
@Suite struct FutureSubscriptionMirrorTests {
  private typealias Sut = Future<Int, CoreTestError>

  private func child(_ label: String, of subscription: (any Subscription)?) -> Any? {
    guard let subscription else { return nil }
    return Mirror(reflecting: subscription).children.first { $0.label == label }?.value
  }

  private func parent(of subscription: (any Subscription)?) -> Sut? {
    child("parent", of: subscription) as? Sut
  }

  @Test func mirrorsItsFutureSubscriberAndDemandWhileWaiting() throws {
    let future = Sut { _ in }
    let recorder = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
    future.subscribe(recorder)
    let subscription = try #require(recorder.subscription)
    let mirror = Mirror(reflecting: subscription)
    expectEqual(mirror.children.map(\.label), ["parent", "downstream", "hasAnyDemand", "subject"])
    #expect(parent(of: subscription) === future)
    #expect(child("subject", of: subscription) as? Sut === future)
    #expect(child("downstream", of: subscription) as? TestSubscriber<Int, CoreTestError> === recorder)
    expectEqual(child("hasAnyDemand", of: subscription) as? Bool, false)
    subscription.request(.max(1))
    expectEqual(child("hasAnyDemand", of: subscription) as? Bool, true)
  }

  @Test func releasesItsFutureOnlyAfterDeliveringTheResultTheFuturePushed() throws {
    var fulfil: Sut.Promise?
    let future = Sut { fulfil = $0 }
    var subscription: (any Subscription)?
    var parentWhileDelivering: Sut?
    let recorder = TestSubscriber<Int, CoreTestError>(onValue: { recorder, _ in
      parentWhileDelivering = self.parent(of: recorder.subscription)
      return .none
    })
    future.subscribe(recorder)
    subscription = recorder.subscription
    fulfil?(.success(1))
    #expect(parentWhileDelivering === future)
    #expect(parent(of: subscription) == nil)
    #expect(child("downstream", of: subscription) as? TestSubscriber<Int, CoreTestError> == nil)
    expectEqual(child("hasAnyDemand", of: subscription) as? Bool, false)
    expectEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
  }

  @Test func keepsItsFutureAfterDeliveringAResultItsDemandPulled() throws {
    var fulfil: Sut.Promise?
    let future = Sut { fulfil = $0 }
    let recorder = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
    future.subscribe(recorder)
    let subscription = try #require(recorder.subscription)
    fulfil?(.success(1))
    #expect(parent(of: subscription) === future)
    subscription.request(.max(1))
    expectEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    #expect(parent(of: subscription) === future)
  }

  @Test func mirrorsNothingOnceAFailedFutureFailedIt() throws {
    let future = Sut { $0(.failure(.boom)) }
    var subscription: (any Subscription)?
    future.subscribe(AnySubscriber(receiveSubscription: { subscription = $0 }))
    #expect(parent(of: subscription) == nil)
    #expect(child("subject", of: subscription) as? Sut == nil)
    #expect(child("downstream", of: subscription) as? AnySubscriber<Int, CoreTestError> == nil)
    expectEqual(child("hasAnyDemand", of: subscription) as? Bool, false)
  }
}

/// Neither a future nor its subscriptions outlive a subscription's end, however it ends.
@Suite struct FutureReleaseTests {
  private typealias Sut = Future<Int, CoreTestError>

  /// A subscriber that keeps its subscription, so only the subscription's end breaks their cycle.
  private final class Keeper: Subscriber {
    var subscription: (any Subscription)?
    func receive(subscription: any Subscription) {
      self.subscription = subscription
      subscription.request(.max(1))
    }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<CoreTestError>) {}
  }

  @Test(arguments: ["cancelled", "finished", "failed"])
  func releasesEverythingWhenASubscriptionEnds(_ ending: String) {
    weak var weakFuture: Sut?
    weak var weakKeeper: Keeper?
    weak var weakSubscription: AnyObject?
    do {
      var fulfil: Sut.Promise?
      let future = Sut { fulfil = $0 }
      weakFuture = future
      do {
        let keeper = Keeper()
        weakKeeper = keeper
        future.subscribe(keeper)
        weakSubscription = keeper.subscription as AnyObject?
      }
      switch ending {
      case "cancelled": (weakSubscription as? any Subscription)?.cancel()
      case "finished": fulfil?(.success(1))
      default: fulfil?(.failure(.boom))
      }
      #expect(weakKeeper == nil)
      #expect(weakSubscription == nil)
    }
    #expect(weakFuture == nil)
  }
}
