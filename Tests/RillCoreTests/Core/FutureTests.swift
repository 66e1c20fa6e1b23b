import Foundation
import RillCore
import Testing

@Suite struct FutureTests {
  @Test func runsItsClosureAtCreationOnce() {
    var runs = 0
    let future = Future<Int, Never> { promise in
      runs += 1
      promise(.success(1))
    }
    #expect(runs == 1)
    let first = CoreRecorder<Int, Never>()
    let second = CoreRecorder<Int, Never>()
    future.subscribe(first)
    future.subscribe(second)
    #expect(runs == 1)
    #expect(first.events == [.subscription, .value(1), .completion(.finished)])
    #expect(second.events == [.subscription, .value(1), .completion(.finished)])
  }

  @Test func deliversToEarlierSubscribersWhenFulfilledLater() {
    var fulfil: ((Result<Int, CoreTestError>) -> Void)?
    let future = Future<Int, CoreTestError> { fulfil = $0 }
    let early = CoreRecorder<Int, CoreTestError>()
    let waiting = CoreRecorder<Int, CoreTestError>(initialDemand: .none)
    future.subscribe(early)
    future.subscribe(waiting)
    #expect(early.events == [.subscription])
    fulfil?(.success(5))
    fulfil?(.success(6))
    #expect(early.events == [.subscription, .value(5), .completion(.finished)])
    #expect(waiting.events == [.subscription])
    waiting.request(.max(1))
    #expect(waiting.values == [5])
  }

  @Test func failureIsDeliveredWithoutDemand() {
    let future = Future<Int, CoreTestError> { $0(.failure(.boom)) }
    let recorder = CoreRecorder<Int, CoreTestError>(initialDemand: .none)
    future.subscribe(recorder)
    #expect(recorder.events == [.subscription, .completion(.failure(.boom))])
  }

  @Test func cancelledSubscriberGetsNothing() {
    var fulfil: ((Result<Int, Never>) -> Void)?
    let future = Future<Int, Never> { fulfil = $0 }
    let recorder = CoreRecorder<Int, Never>()
    future.subscribe(recorder)
    recorder.cancel()
    fulfil?(.success(1))
    #expect(recorder.events == [.subscription])
  }

  @Test func deferredFutureRunsPerSubscriber() {
    var runs = 0
    let deferred = Deferred {
      Future<Int, Never> { promise in
        runs += 1
        promise(.success(runs))
      }
    }
    #expect(runs == 0)
    var values: [Int] = []
    _ = deferred.sink { values.append($0) }
    _ = deferred.sink { values.append($0) }
    #expect(values == [1, 2])
  }

  @Test(.timeLimit(.minutes(1))) func promiseCalledFromManyThreadsResolvesOnce() async {
    for _ in 0..<50 {
      final class PromiseBox: @unchecked Sendable {
        var promise: ((Result<Int, Never>) -> Void)?
      }
      let box = PromiseBox()
      let future = Future<Int, Never> { box.promise = $0 }
      let recorder = CoreRecorder<Int, Never>()
      future.subscribe(recorder)
      await withTaskGroup(of: Void.self) { group in
        for value in 0..<8 {
          group.addTask { box.promise?(.success(value)) }
        }
      }
      #expect(recorder.values.count == 1)
      #expect(recorder.completions == [.finished])
      let late = CoreRecorder<Int, Never>()
      future.subscribe(late)
      #expect(late.values == recorder.values)
    }
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
    let recorder = CoreRecorder<Int, Never>()
    future.subscribe(recorder)
    #expect(counter.calls == 0)
    recorder.cancel()
    recorder.cancel()
    #expect(counter.calls == 1)
  }

  @Test func firesOnlyWhenTheLastOfSeveralSubscribersCancels() {
    let (future, counter, _) = makeFuture()
    let first = CoreRecorder<Int, Never>()
    let second = CoreRecorder<Int, Never>()
    future.subscribe(first)
    future.subscribe(second)
    first.cancel()
    first.cancel()
    #expect(counter.calls == 0)
    second.cancel()
    #expect(counter.calls == 1)
    let third = CoreRecorder<Int, Never>()
    future.subscribe(third)
    third.cancel()
    #expect(counter.calls == 1)
  }

  @Test func aSecondCancelOfOneSubscriptionIsNotCountedAgain() {
    let (future, counter, _) = makeFuture()
    var subscriptions: [any Subscription] = []
    for _ in 0..<2 {
      future.subscribe(AnySubscriber<Int, Never>(receiveSubscription: { subscriptions.append($0) }))
    }
    subscriptions[0].cancel()
    subscriptions[0].cancel()
    #expect(counter.calls == 0)
    subscriptions[1].cancel()
    #expect(counter.calls == 1)
  }

  @Test func neverFiresWithoutSubscribersOrOnceTheResultIsIn() {
    let (future, counter, fulfil) = makeFuture()
    let waiting = CoreRecorder<Int, Never>(initialDemand: .none)
    future.subscribe(waiting)
    fulfil(.success(1))
    waiting.cancel()
    let late = CoreRecorder<Int, Never>()
    future.subscribe(late)
    late.cancel()
    #expect(counter.calls == 0)
    #expect(late.values == [1])
  }

  @Test func isIgnoredOnAFutureAlreadyFulfilled() {
    let future = Future<Int, Never> { $0(.success(1)) }
    let counter = Counter()
    future.whenAbandoned { counter.calls += 1 }
    let recorder = CoreRecorder<Int, Never>(initialDemand: .none)
    future.subscribe(recorder)
    recorder.cancel()
    #expect(counter.calls == 0)
  }

  @Test func releasesTheFutureAndItsSubscribersAfterAbandonment() {
    weak var weakFuture: Future<Int, Never>?
    weak var weakRecorder: CoreRecorder<Int, Never>?
    do {
      let (future, counter, _) = makeFuture()
      let recorder = CoreRecorder<Int, Never>()
      weakFuture = future
      weakRecorder = recorder
      future.subscribe(recorder)
      recorder.cancel()
      #expect(counter.calls == 1)
    }
    #expect(weakFuture == nil)
    #expect(weakRecorder == nil)
  }
}
