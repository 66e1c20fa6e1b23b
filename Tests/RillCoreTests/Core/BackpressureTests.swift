import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct BackpressureTests {
  @Test func oneAtATimeFromAMillionElementsByReturnedDemand() {
    var count = 0
    var finished = false
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { $0.request(.max(1)) },
      receiveValue: { value in
        expectEqual(value, count)
        count += 1
        return .max(1)
      },
      receiveCompletion: { _ in finished = true }
    )
    (0..<1_000_000).publisher.subscribe(subscriber)
    expectEqual(count, 1_000_000)
    #expect(finished)
  }

  @Test func oneAtATimeFromAMillionElementsByRequestInsideReceive() {
    var subscription: (any Subscription)?
    var count = 0
    var finished = false
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: {
        subscription = $0
        $0.request(.max(1))
      },
      receiveValue: { _ in
        count += 1
        subscription?.request(.max(1))
        return .none
      },
      receiveCompletion: { _ in finished = true }
    )
    (0..<1_000_000).publisher.subscribe(subscriber)
    expectEqual(count, 1_000_000)
    #expect(finished)
  }

  @Test func nothingIsDeliveredBeyondDemand() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(2))
    (1...10).publisher.subscribe(recorder)
    expectEqual(recorder.values, [1, 2])
    recorder.request(.max(3))
    expectEqual(recorder.values, [1, 2, 3, 4, 5])
    #expect(recorder.completions.isEmpty)
    recorder.request(.unlimited)
    expectEqual(recorder.values, Array(1...10))
    expectEqual(recorder.completions, [.finished])
  }

  @Test func finishesRightAfterTheLastElementWithoutExtraDemand() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(3))
    [1, 2, 3].publisher.subscribe(recorder)
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
  }

  @Test func emptySequenceFinishesWithoutDemand() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    [Int]().publisher.subscribe(recorder)
    expectEqual(recorder.events, [.subscription, .completion(.finished)])
  }

  /// Combine accepts a request for `.none` from a sequence's subscription, before any demand and from inside
  /// `receive`, and delivers nothing for it.
  @Test func requestForNoneDeliversNothing() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    (0..<10).publisher.subscribe(recorder)
    recorder.subscription?.request(.none)
    expectEqual(recorder.events, [.subscription])
    recorder.request(.max(3))
    recorder.subscription?.request(.none)
    expectEqual(recorder.values, [0, 1, 2])
    recorder.request(.max(7))
    expectEqual(recorder.values, Array(0..<10))
    expectEqual(recorder.completions, [.finished])
  }

  @Test func requestForNoneFromInsideReceive() {
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { recorder, _ in
        recorder.subscription?.request(.none)
        recorder.request(.max(1))
        return .none
      }
    )
    (1...5).publisher.subscribe(recorder)
    expectEqual(recorder.values, [1, 2, 3, 4, 5])
    expectEqual(recorder.completions, [.finished])
  }

  @Test func recordAcceptsARequestForNone() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(recorder)
    recorder.subscription?.request(.none)
    recorder.request(.max(2))
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
  }

  @Test func mapAndFilterKeepDemandExact() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(2))
    // Erased so that the lazy operators run: Combine specializes `filter` and `map` on `Publishers.Sequence`.
    (1...10).publisher.eraseToAnyPublisher().filter { $0.isMultiple(of: 3) }.map { $0 * 10 }.subscribe(recorder)
    expectEqual(recorder.values, [30, 60])
    recorder.request(.max(1))
    expectEqual(recorder.values, [30, 60, 90])
    #expect(recorder.completions.isEmpty)
    recorder.request(.max(1))
    expectEqual(recorder.completions, [.finished])
  }
}
