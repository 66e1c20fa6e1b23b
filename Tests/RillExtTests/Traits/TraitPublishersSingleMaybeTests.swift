import RillExt
import RillTestSupport
import RillTesting
import Testing

/// Keeps the promise a `TraitPublishers.Single` or `.Maybe` closure receives, and counts its runs and clean-ups.
final class PromiseKeeper<R> {
  var promises: [(R) -> Void] = []
  var cleanups = 0
  var starts = 0

  func start(_ promise: @escaping (R) -> Void) -> AnyCancellable {
    starts += 1
    promises.append(promise)
    return AnyCancellable { self.cleanups += 1 }
  }
}

@Suite struct TraitPublishersSingleTests {
  @Test func startsAtTheFirstDemandAndPublishesTheValue() {
    let keeper = PromiseKeeper<Result<Int, ExtTestError>>()
    let publisher = TraitPublishers.Single<Int, ExtTestError>(keeper.start)
    let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: .none)
    publisher.subscribe(subscriber)
    expectEqual(keeper.starts, 0)
    subscriber.request(.max(1))
    subscriber.request(.max(1))
    expectEqual(keeper.starts, 1)
    keeper.promises[0](.success(1))
    keeper.promises[0](.success(2))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
    expectEqual(keeper.cleanups, 1)
  }

  @Test func publishesTheFailure() {
    let publisher = TraitPublishers.Single<Int, ExtTestError> { promise in
      promise(.failure(.upstream))
      return AnyCancellable {}
    }
    let subscriber = TestSubscriber<Int, ExtTestError>()
    publisher.subscribe(subscriber)
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(upstream)"])
  }

  @Test func eachSubscriberGetsItsOwnJob() {
    let keeper = PromiseKeeper<Result<Int, ExtTestError>>()
    let publisher = TraitPublishers.Single<Int, ExtTestError>(keeper.start).eraseToAnySinglePublisher()
    var results: [Result<Int, ExtTestError>] = []
    let first = publisher.sinkSingle { results.append($0) }
    let second = publisher.sinkSingle { results.append($0) }
    expectEqual(keeper.starts, 2)
    keeper.promises[1](.success(2))
    keeper.promises[0](.failure(.other))
    #expect(results.map { try? $0.get() } == [2, nil])
    _ = (first, second)
  }

  @Test func cancelCancelsTheJobAndSilencesThePromise() {
    let keeper = PromiseKeeper<Result<Int, ExtTestError>>()
    let subscriber = TestSubscriber<Int, ExtTestError>()
    TraitPublishers.Single<Int, ExtTestError>(keeper.start).subscribe(subscriber)
    subscriber.cancel()
    expectEqual(keeper.cleanups, 1)
    keeper.promises[0](.success(1))
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    expectEqual(keeper.cleanups, 1)
  }

  @Test func aJobThatCompletesBeforeReturningIsCleanedUpOnce() {
    var cleanups = 0
    let publisher = TraitPublishers.Single<Int, Never> { promise in
      promise(.success(1))
      return AnyCancellable { cleanups += 1 }
    }
    var values: [Int] = []
    _ = publisher.sink { values.append($0) }
    expectEqual(values, [1])
    expectEqual(cleanups, 1)
  }

  @Test func letsGoOfTheSubscriberAndTheJob() {
    final class Token {}
    for cancel in [false, true] {
      weak var weakSubscriber: TestSubscriber<Int, ExtTestError>?
      weak var weakToken: Token?
      var promise: ((Result<Int, ExtTestError>) -> Void)?
      do {
        let token = Token()
        weakToken = token
        let subscriber = TestSubscriber<Int, ExtTestError>()
        weakSubscriber = subscriber
        TraitPublishers.Single<Int, ExtTestError> { kept in
          promise = kept
          return AnyCancellable { _ = token }
        }
        .subscribe(subscriber)
        if cancel { subscriber.cancel() } else { promise?(.success(1)) }
      }
      #expect(weakSubscriber == nil)
      #expect(weakToken == nil)
      promise = nil
    }
  }

  @Test func keepsTheContract() {
    expectContract("TraitPublishers.Single") {
      TraitPublishers.Single<Int, ExtTestError> { promise in
        promise(.success(1))
        return AnyCancellable {}
      }
    }
  }
}

@Suite struct TraitPublishersMaybeTests {
  @Test func publishesEachOutcome() {
    for (outcome, expected) in [
      (MaybeResult<Int, ExtTestError>.success(1), ["subscription", "value(1)", "finished"]),
      (.finished, ["subscription", "finished"]),
      (.failure(.upstream), ["subscription", "failure(upstream)"]),
    ] {
      let keeper = PromiseKeeper<MaybeResult<Int, ExtTestError>>()
      let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: .none)
      TraitPublishers.Maybe<Int, ExtTestError>(keeper.start).subscribe(subscriber)
      expectEqual(keeper.starts, 0)
      subscriber.request(.max(1))
      keeper.promises[0](outcome)
      keeper.promises[0](.success(9))
      expectEqual(subscriber.eventDescriptions, expected)
      expectEqual(keeper.cleanups, 1)
    }
  }

  @Test func forwardsAnotherMaybePublisher() {
    let upstream = ExtUpstream()
    let publisher = TraitPublishers.Maybe<Int, ExtTestError> { promise in
      TrustedUpstream(upstream: upstream).sinkMaybe(receive: promise)
    }
    let subscriber = TestSubscriber<Int, ExtTestError>()
    publisher.subscribe(subscriber)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished"])

    let cancelled = TestSubscriber<Int, ExtTestError>()
    let other = ExtUpstream()
    TraitPublishers.Maybe<Int, ExtTestError> { TrustedUpstream(upstream: other).sinkMaybe(receive: $0) }
      .subscribe(cancelled)
    cancelled.cancel()
    #expect(other.isCancelled)
  }

  @Test func cancelCancelsTheJob() {
    let keeper = PromiseKeeper<MaybeResult<Int, ExtTestError>>()
    let subscriber = TestSubscriber<Int, ExtTestError>()
    TraitPublishers.Maybe<Int, ExtTestError>(keeper.start).subscribe(subscriber)
    subscriber.cancel()
    keeper.promises[0](.finished)
    expectEqual(keeper.cleanups, 1)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  @Test func keepsTheContract() {
    expectContract("TraitPublishers.Maybe") {
      TraitPublishers.Maybe<Int, ExtTestError> { promise in
        promise(.finished)
        return AnyCancellable {}
      }
    }
  }
}
