import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct BasicPublisherTests {
  @Test func justDeliversOnDemandThenFinishes() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    Just(7).subscribe(recorder)
    expectEqual(recorder.events, [.subscription])
    recorder.request(.max(1))
    recorder.request(.max(1))
    expectEqual(recorder.events, [.subscription, .value(7), .completion(.finished)])
    expectEqual(Just(1), Just(1))
  }

  @Test func justCancelledBeforeDemandIsSilent() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    Just(7).subscribe(recorder)
    let subscription = recorder.subscription
    recorder.cancel()
    subscription?.request(.max(1))
    expectEqual(recorder.events, [.subscription])
  }

  @Test func emptyFinishesImmediatelyOrNever() {
    let immediate = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
    Empty<Int, CoreTestError>().subscribe(immediate)
    expectEqual(immediate.events, [.subscription, .completion(.finished)])
    let never = TestSubscriber<Int, CoreTestError>()
    Empty(completeImmediately: false, outputType: Int.self, failureType: CoreTestError.self).subscribe(never)
    expectEqual(never.events, [.subscription])
    #expect(Empty<Int, Never>() == Empty<Int, Never>(completeImmediately: true))
    #expect(Empty<Int, Never>() != Empty<Int, Never>(completeImmediately: false))
  }

  @Test func failFailsImmediately() {
    let recorder = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
    Fail<Int, CoreTestError>(error: .boom).subscribe(recorder)
    expectEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    #expect(Fail(outputType: Int.self, failure: CoreTestError.boom) == Fail<Int, CoreTestError>(error: .boom))
  }

  @Test func deferredCreatesAPublisherPerSubscriber() {
    var created = 0
    let deferred = Deferred { () -> Just<Int> in
      created += 1
      return Just(created)
    }
    expectEqual(created, 0)
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    deferred.subscribe(first)
    deferred.subscribe(second)
    expectEqual(first.values, [1])
    expectEqual(second.values, [2])
  }

  @Test func optionalAndResultPublishers() {
    let some = TestSubscriber<Int, Never>()
    Optional(3).publisher.subscribe(some)
    expectEqual(some.events, [.subscription, .value(3), .completion(.finished)])
    let none = TestSubscriber<Int, Never>(initialDemand: .none)
    Int?.none.publisher.subscribe(none)
    expectEqual(none.events, [.subscription, .completion(.finished)])

    let success = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
    Result<Int, CoreTestError>.success(4).publisher.subscribe(success)
    expectEqual(success.events, [.subscription])
    success.request(.max(1))
    expectEqual(success.events, [.subscription, .value(4), .completion(.finished)])
    let failure = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
    Result<Int, CoreTestError>.Publisher(.boom).subscribe(failure)
    expectEqual(failure.events, [.subscription, .completion(.failure(.boom))])
    #expect(Result<Int, CoreTestError>.Publisher(1).result == .success(1))
  }

  @Test func recordPlaysBackItsRecordingToEachSubscriber() {
    let record = Record<Int, CoreTestError> { recording in
      recording.receive(1)
      recording.receive(2)
      recording.receive(completion: .failure(.boom))
    }
    expectEqual(record.recording.output, [1, 2])
    expectEqual(record.recording.completion, .failure(.boom))
    for _ in 0..<2 {
      let recorder = TestSubscriber<Int, CoreTestError>(initialDemand: .max(1))
      record.subscribe(recorder)
      expectEqual(recorder.events, [.subscription, .value(1)])
      recorder.request(.max(1))
      expectEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(.boom))])
    }
    let empty = TestSubscriber<Int, Never>(initialDemand: .none)
    Record<Int, Never>(output: [], completion: .finished).subscribe(empty)
    expectEqual(empty.events, [.subscription, .completion(.finished)])
  }

  @Test func recordingTrapsOnOutputAfterCompletion() async {
    await #expect(processExitsWith: .failure) {
      var recording = Record<Int, Never>.Recording()
      recording.receive(completion: .finished)
      recording.receive(1)
    }
  }

  @Test func sequencePublisherDescriptionIsTheSequence() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    [1, 2, 3].publisher.subscribe(recorder)
    #expect(recorder.subscription.map { "\($0)" } == "[1, 2, 3]")
    #expect(Publishers.Sequence<[Int], Never>(sequence: [1]) == [1].publisher)
    let halfOpen = TestSubscriber<Int, Never>(initialDemand: .none)
    (0..<3).publisher.subscribe(halfOpen)
    #expect(halfOpen.subscription.map { "\($0)" } == "0..<3")
    let closed = TestSubscriber<Int, Never>(initialDemand: .none)
    (1...3).publisher.subscribe(closed)
    #expect(closed.subscription.map { "\($0)" } == "1...3")
  }

  enum IntegerRange: Sendable, CustomTestStringConvertible {
    case halfOpen(Range<Int>)
    case closed(ClosedRange<Int>)

    var elements: [Int] {
      switch self {
      case .halfOpen(let range): Array(range)
      case .closed(let range): Array(range)
      }
    }

    var testDescription: String {
      switch self {
      case .halfOpen(let range): "\(range)"
      case .closed(let range): "\(range)"
      }
    }
  }

  /// Integer ranges, including those that end at `Int.max`, deliver what an array of the same integers delivers,
  /// request by request.
  @Test(arguments: [
    IntegerRange.halfOpen(0..<4), .halfOpen(-2..<1), .halfOpen(3..<3), .halfOpen((Int.max - 2)..<Int.max),
    .halfOpen(Int.min..<(Int.min + 2)), .closed(1...3), .closed(5...5), .closed((Int.max - 2)...Int.max),
  ])
  func integerRangesDeliverAsAnArrayDoes(_ range: IntegerRange) {
    let fromRange = TestSubscriber<Int, Never>(initialDemand: .none)
    switch range {
    case .halfOpen(let range): range.publisher.subscribe(fromRange)
    case .closed(let range): range.publisher.subscribe(fromRange)
    }
    let fromArray = TestSubscriber<Int, Never>(initialDemand: .none)
    range.elements.publisher.subscribe(fromArray)
    for _ in 0...range.elements.count {
      expectEqual(fromRange.events, fromArray.events)
      fromRange.request(.max(1))
      fromArray.request(.max(1))
    }
    expectEqual(fromRange.events, fromArray.events)
    expectEqual(fromRange.values, range.elements)
    expectEqual(fromRange.events.last, .completion(.finished))
  }
}
