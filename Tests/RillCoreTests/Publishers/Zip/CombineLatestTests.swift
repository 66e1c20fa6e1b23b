import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct CombineLatestTests {
  typealias Source = TestPublisher<Int, CombiningError>
  typealias Letters = TestPublisher<String, CombiningError>

  private struct Pipeline {
    let numbers = Source()
    let letters = Letters()
    let recorder: TestSubscriber<String, CombiningError>

    init(demand: Subscribers.Demand = .unlimited) {
      recorder = TestSubscriber(initialDemand: demand)
      numbers.combineLatest(letters) { "\($0)\($1)" }.subscribe(recorder)
    }
  }

  @Test func emitsOnceEveryUpstreamHasAValueThenOnEachValue() {
    let pipe = Pipeline()
    pipe.numbers.send(1)
    pipe.numbers.send(2)
    pipe.letters.send("a")
    pipe.numbers.send(3)
    pipe.letters.send("b")
    expectEqual(pipe.recorder.values, ["2a", "3a", "3b"])
  }

  @Test func finishesOnlyWhenEveryUpstreamFinishes() {
    let pipe = Pipeline()
    pipe.numbers.send(1)
    pipe.letters.send("a")
    pipe.numbers.send(completion: .finished)
    #expect(pipe.recorder.completions.isEmpty)
    pipe.letters.send("b")
    expectEqual(pipe.recorder.values, ["1a", "1b"])
    pipe.letters.send(completion: .finished)
    expectEqual(pipe.recorder.completion, .finished)
  }

  @Test func failureFailsAndCancelsTheOthers() {
    let pipe = Pipeline()
    pipe.numbers.send(completion: .failure(.boom))
    expectEqual(pipe.recorder.completion, .failure(.boom))
    #expect(pipe.letters.isCancelled)
    #expect(!pipe.numbers.isCancelled)
    pipe.letters.send("a")
    #expect(pipe.recorder.values.isEmpty)
  }

  @Test func passesDemandToEveryUpstreamAndDropsCombinationsWithoutDemand() {
    let pipe = Pipeline(demand: .max(1))
    expectEqual(pipe.numbers.requestedDemands, [.max(1)])
    expectEqual(pipe.letters.requestedDemands, [.max(1)])
    pipe.numbers.send(1)
    pipe.letters.send("a")
    pipe.numbers.send(2)
    expectEqual(pipe.recorder.values, ["1a"])
    pipe.recorder.request(.max(2))
    expectEqual(pipe.numbers.requestedDemands, [.max(1), .max(2)])
    pipe.letters.send("b")
    expectEqual(pipe.recorder.values, ["1a", "2b"])
  }

  @Test func additionalDemandGoesBackToTheTriggeringUpstreamAndIsRequestedFromTheOthers() {
    let pipe = Pipeline(demand: .max(1))
    pipe.recorder.onValue = { _, _ in .max(2) }
    pipe.numbers.send(1)
    expectEqual(pipe.letters.send("a"), .max(2))
    expectEqual(pipe.numbers.requestedDemands, [.max(1), .max(2)])
  }

  @Test func cancelCancelsEveryUpstreamAndSilences() {
    let pipe = Pipeline()
    pipe.numbers.send(1)
    pipe.recorder.cancel()
    #expect(pipe.numbers.isCancelled)
    #expect(pipe.letters.isCancelled)
    pipe.letters.send("a")
    pipe.letters.send(completion: .finished)
    pipe.numbers.send(completion: .finished)
    #expect(pipe.recorder.values.isEmpty)
    #expect(pipe.recorder.completions.isEmpty)
  }

  /// As in Combine, a value sent from inside downstream becomes its upstream's latest without being emitted.
  @Test func reentrantSendRequestAndCancel() {
    let pipe = Pipeline(demand: .max(1))
    let numbers = pipe.numbers
    let letters = pipe.letters
    let recorder = pipe.recorder
    pipe.recorder.onValue = { _, value in
      if value == "1a" {
        recorder.request(.max(1))
        numbers.send(2)
      }
      if value == "2b" { recorder.cancel() }
      return .none
    }
    numbers.send(1)
    letters.send("a")
    letters.send("b")
    numbers.send(3)
    expectEqual(recorder.values, ["1a", "2b"])
    expectEqual(pipe.recorder.overlappingDeliveries, 0)
    #expect(letters.isCancelled)
  }

  @Test func everyArityWithAndWithoutTransform() {
    let a = Just(1)
    let b = Just("b")
    let c = Just(3.5)
    let d = Just(true)
    func first<P: Publisher>(_ publisher: P) -> P.Output? where P.Failure == Never {
      let recorder = TestSubscriber<P.Output, Never>()
      publisher.subscribe(recorder)
      expectEqual(recorder.completion, .finished)
      return recorder.values.first
    }
    #expect(first(a.combineLatest(b))! == (1, "b"))
    #expect(first(a.combineLatest(b, c))! == (1, "b", 3.5))
    #expect(first(a.combineLatest(b, c, d))! == (1, "b", 3.5, true))
    #expect(first(a.combineLatest(b) { "\($0)\($1)" }) == "1b")
    #expect(first(a.combineLatest(b, c) { "\($0)\($1)\($2)" }) == "1b3.5")
    #expect(first(a.combineLatest(b, c, d) { "\($0)\($1)\($2)\($3)" }) == "1b3.5true")
    let map: Publishers.Map<Publishers.CombineLatest<Just<Int>, Just<String>>, String> = a.combineLatest(b) {
      "\($0)\($1)"
    }
    expectEqual(map.upstream, Publishers.CombineLatest(a, b))
    expectEqual(Publishers.CombineLatest4(a, b, c, d), Publishers.CombineLatest4(a, b, c, d))
    #expect(Publishers.CombineLatest3(a, b, c) != Publishers.CombineLatest3(Just(2), b, c))
  }

  @Test func synchronousUpstreams() {
    let recorder = TestSubscriber<String, Never>()
    [1, 2].publisher.combineLatest(["a", "b"].publisher) { "\($0)\($1)" }.subscribe(recorder)
    expectEqual(recorder.values, ["2a", "2b"])
    expectEqual(recorder.completion, .finished)
  }

  @Test func releasesThePipelineAfterCompletionAndCancel() {
    weak var finished: TestSubscriber<String, CombiningError>?
    weak var cancelled: TestSubscriber<String, CombiningError>?
    do {
      let pipe = Pipeline()
      finished = pipe.recorder
      pipe.numbers.send(completion: .finished)
      pipe.letters.send(completion: .finished)
      pipe.numbers.releaseSubscribers()
      pipe.letters.releaseSubscribers()
    }
    do {
      let pipe = Pipeline()
      cancelled = pipe.recorder
      pipe.recorder.cancel()
      pipe.numbers.releaseSubscribers()
      pipe.letters.releaseSubscribers()
    }
    #expect(finished == nil)
    #expect(cancelled == nil)
  }
}
