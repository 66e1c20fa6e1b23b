import Foundation
import RillExt
import RillTestSupport
import RillTesting
import Testing

/// A cancellable that counts its cancels and logs them.
private final class CountingCancellable: Cancellable, @unchecked Sendable {
  private let count = Locked(0)
  private let onCancel: () -> Void

  init(onCancel: @escaping () -> Void = {}) {
    self.onCancel = onCancel
  }

  var cancelCount: Int { count.withLock { $0 } }

  func cancel() {
    count.withLock { $0 += 1 }
    onCancel()
  }
}

@Suite struct CancelBagTests {
  @Test func cancelCancelsEveryCancellableOnceInTheOrderTheyWereStored() {
    let bag = CancelBag()
    var log: [Int] = []
    let counters = (1...3).map { index in CountingCancellable { log.append(index) } }
    for counter in counters { AnyCancellable(counter).store(in: bag) }
    #expect(!bag.isEmpty)
    #expect(log.isEmpty)

    bag.cancel()
    expectEqual(log, [1, 2, 3])
    expectEqual(counters.map(\.cancelCount), [1, 1, 1])
    #expect(bag.isEmpty)

    bag.cancel()
    expectEqual(counters.map(\.cancelCount), [1, 1, 1])
  }

  @Test func aCancellableThatIsNotAnAnyCancellableIsWrapped() {
    let bag = CancelBag()
    let counter = CountingCancellable()
    counter.store(in: bag)
    #expect(!bag.isEmpty)
    bag.cancel()
    expectEqual(counter.cancelCount, 1)
  }

  @Test func aCancellableStoredAfterCancelIsKeptUntilTheNextCancel() {
    let bag = CancelBag()
    bag.cancel()
    let counter = CountingCancellable()
    counter.store(in: bag)
    expectEqual(counter.cancelCount, 0)
    #expect(!bag.isEmpty)
    bag.cancel()
    expectEqual(counter.cancelCount, 1)
  }

  @Test func freeingTheBagCancelsItsCancellables() {
    let counter = CountingCancellable()
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    weak var weakBag: CancelBag?
    do {
      let bag = CancelBag()
      weakBag = bag
      counter.store(in: bag)
      subject.sink { received.append($0) }.store(in: bag)
      subject.send(1)
    }
    #expect(weakBag == nil)
    expectEqual(counter.cancelCount, 1)
    subject.send(2)
    expectEqual(received, [1])
  }

  @Test func freeingTheBagCancelsACancellableThatIsStillRetainedElsewhere() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.sink { received.append($0) }
    do {
      let bag = CancelBag()
      cancellable.store(in: bag)
    }
    withExtendedLifetime(cancellable) {
      subject.send(1)
      #expect(received.isEmpty)
    }
  }

  @Test func aCancellableCancelledElsewhereStaysInTheBagAndIsNotCancelledTwice() {
    let bag = CancelBag()
    let counter = CountingCancellable()
    let cancellable = AnyCancellable(counter)
    cancellable.store(in: bag)
    cancellable.cancel()
    expectEqual(counter.cancelCount, 1)
    #expect(!bag.isEmpty)
    bag.cancel()
    expectEqual(counter.cancelCount, 1)
  }

  @Test func aCancellableMayStoreIntoAndCancelTheBagThatCancelsIt() {
    let bag = CancelBag()
    let late = CountingCancellable()
    let reentrant = CountingCancellable {
      late.store(in: bag)
      bag.cancel()
    }
    reentrant.store(in: bag)
    bag.cancel()
    expectEqual(reentrant.cancelCount, 1)
    // The inner cancel found the late cancellable in the bag and cancelled it.
    expectEqual(late.cancelCount, 1)
    #expect(bag.isEmpty)
  }

  @Test func theBagIsACancellable() {
    let bag = CancelBag()
    let counter = CountingCancellable()
    counter.store(in: bag)
    let erased: any Cancellable = bag
    erased.cancel()
    expectEqual(counter.cancelCount, 1)
  }
}

@Suite struct CancelBagSinkTests {
  @Test func sinkStoresTheSubscriptionUntilItFinishes() {
    let bag = CancelBag()
    let upstream = ExtUpstream()
    var events: [String] = []
    let cancellable = upstream.sink(
      in: bag,
      receiveCompletion: { events.append("\($0)") },
      receiveValue: { events.append("\($0)") }
    )
    expectEqual(upstream.requestedDemands, [.unlimited])
    #expect(!bag.isEmpty)
    _ = upstream.send(1)
    _ = upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(events, ["1", "2", "finished"])
    #expect(bag.isEmpty)
    #expect(!upstream.isCancelled)
    withExtendedLifetime(cancellable) {}
  }

  @Test func sinkTakesTheSubscriptionOutOfTheBagWhenItFails() {
    let bag = CancelBag()
    let upstream = ExtUpstream()
    var events: [String] = []
    upstream.sink(in: bag, receiveCompletion: { events.append("\($0)") }, receiveValue: { events.append("\($0)") })
    upstream.send(completion: .failure(.upstream))
    expectEqual(events, ["failure(RillExtTests.ExtTestError.upstream)"])
    #expect(bag.isEmpty)
  }

  @Test func cancellingTheBagCancelsTheSubscription() {
    let bag = CancelBag()
    let upstream = ExtUpstream()
    var events: [String] = []
    upstream.sink(in: bag, receiveCompletion: { events.append("\($0)") }, receiveValue: { events.append("\($0)") })
    bag.cancel()
    expectEqual(upstream.cancelCount, 1)
    #expect(bag.isEmpty)
    _ = upstream.send(1)
    #expect(events.isEmpty)
  }

  @Test func cancellingTheReturnedCancellableTakesItOutOfTheBag() {
    let bag = CancelBag()
    let upstream = ExtUpstream()
    let cancellable = upstream.sink(in: bag, receiveCompletion: { _ in }, receiveValue: { _ in })
    cancellable.cancel()
    expectEqual(upstream.cancelCount, 1)
    #expect(bag.isEmpty)
    bag.cancel()
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func freeingTheBagCancelsTheSubscription() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancelled = false
    do {
      let bag = CancelBag()
      subject.handleEvents(receiveCancel: { cancelled = true }).sink(in: bag) { received.append($0) }
      subject.send(1)
    }
    #expect(cancelled)
    subject.send(2)
    expectEqual(received, [1])
  }

  /// A subscription that completes while `sink(in:)` sets it up leaves the bag on the main queue's next turn.
  ///
  /// As in CombineTraits, its cancellable is in the bag when `sink(in:)` returns. The test runs on the main actor, so
  /// that the main queue runs only when it waits.
  @MainActor
  @Test func aPublisherThatCompletesAtOnceLeavesTheBagOnTheMainQueue() async {
    let bag = CancelBag()
    var received: [Int] = []
    var cancelled = false
    bag.cancel()
    Just(1).sink(in: bag) { received.append($0) }
    Empty<Int, Never>().sink(in: bag) { received.append($0) }
    Fail<Int, ExtTestError>(error: .other).sink(in: bag, receiveCompletion: { _ in }, receiveValue: { _ in })
    expectEqual(received, [1])
    #expect(!bag.isEmpty)
    await mainQueueTurn()
    #expect(bag.isEmpty)

    // Cancelling the bag before then is too late to cancel anything.
    Just(2).handleEvents(receiveCancel: { cancelled = true }).sink(in: bag) { received.append($0) }
    #expect(!bag.isEmpty)
    bag.cancel()
    #expect(bag.isEmpty && !cancelled)
    await mainQueueTurn()
    #expect(bag.isEmpty && received == [1, 2])
  }

  @Test func theSubscriptionIsFreedOnceItCompletesOrIsCancelled() {
    weak var finished: AnyCancellable?
    weak var cancelled: AnyCancellable?
    let bag = CancelBag()
    let finishing = ExtUpstream()
    let cancelling = ExtUpstream()
    do {
      finished = finishing.sink(in: bag, receiveCompletion: { _ in }, receiveValue: { _ in })
      cancelled = cancelling.sink(in: bag, receiveCompletion: { _ in }, receiveValue: { _ in })
    }
    #expect(finished != nil && cancelled != nil)
    finishing.send(completion: .finished)
    bag.cancel()
    finishing.releaseSubscribers()
    cancelling.releaseSubscribers()
    #expect(finished == nil)
    #expect(cancelled == nil)
  }

  /// On the main actor, as the immediate publishers among them leave the bag on the main queue.
  @MainActor
  @Test func sinkSingleAndSinkMaybeReportTheOutcomeAndLeaveTheBag() async {
    let bag = CancelBag()
    var singles: [Result<Int, ExtTestError>] = []
    let single = ExtUpstream()
    TrustedUpstream(upstream: single).sinkSingle(in: bag) { singles.append($0) }
    AnySinglePublisher<Int, ExtTestError>.fail(.other).sinkSingle(in: bag) { singles.append($0) }
    _ = single.send(1)
    single.send(completion: .finished)
    #expect(singles.map { try? $0.get() } == [nil, 1])
    await mainQueueTurn()
    #expect(bag.isEmpty)

    var maybes: [MaybeResult<Int, ExtTestError>] = []
    let maybe = ExtUpstream()
    TrustedUpstream(upstream: maybe).sinkMaybe(in: bag) { maybes.append($0) }
    AnyMaybePublisher<Int, ExtTestError>.empty().sinkMaybe(in: bag) { maybes.append($0) }
    AnyMaybePublisher<Int, ExtTestError>.just(2).sinkMaybe(in: bag) { maybes.append($0) }
    #expect(!bag.isEmpty)
    maybe.send(completion: .failure(.upstream))
    expectEqual(maybes, [.finished, .success(2), .failure(.upstream)])
    await mainQueueTurn()
    #expect(bag.isEmpty)

    let silent = ExtUpstream()
    TrustedUpstream(upstream: silent).sinkSingle(in: bag) { singles.append($0) }
    bag.cancel()
    _ = silent.send(3)
    expectEqual(singles.count, 2)
    expectEqual(silent.cancelCount, 1)
  }
}

@Suite(.tags(.stress), .timeLimit(.minutes(1))) struct CancelBagStressTests {
  @Test func concurrentStoresAndCancelsCancelEachCancellableExactlyOnce() async {
    for _ in 0..<20 {
      let bag = CancelBag()
      let counters = (0..<400).map { _ in CountingCancellable() }
      await withTaskGroup(of: Void.self) { group in
        for slice in 0..<4 {
          group.addTask {
            for index in stride(from: slice, to: counters.count, by: 4) {
              AnyCancellable(counters[index]).store(in: bag)
            }
          }
        }
        group.addTask { for _ in 0..<100 { bag.cancel() } }
        group.addTask { for _ in 0..<100 { _ = bag.isEmpty } }
      }
      bag.cancel()
      #expect(bag.isEmpty)
      #expect(counters.allSatisfy { $0.cancelCount == 1 })
    }
  }

  @Test func concurrentSinksCompletionsAndCancelsLeaveNothingBehind() async {
    for _ in 0..<20 {
      let bag = CancelBag()
      let subjects = (0..<100).map { _ in PassthroughSubject<Int, Never>() }
      await withTaskGroup(of: Void.self) { group in
        for slice in 0..<2 {
          group.addTask {
            for index in stride(from: slice, to: subjects.count, by: 2) {
              subjects[index].sink(in: bag) { _ in }
              subjects[index].send(completion: .finished)
            }
          }
        }
        group.addTask { for _ in 0..<50 { bag.cancel() } }
      }
      #expect(bag.isEmpty)
    }
  }
}

/// Returns once the main queue has run everything queued on it before the call.
private func mainQueueTurn() async {
  await withCheckedContinuation { continuation in
    DispatchQueue.main.async { continuation.resume() }
  }
}
