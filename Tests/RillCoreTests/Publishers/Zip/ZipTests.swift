import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ZipTests {
  typealias Source = TestPublisher<Int, CombiningError>
  typealias Letters = TestPublisher<String, CombiningError>

  private struct Pipeline {
    let numbers = Source()
    let letters = Letters()
    let recorder: TestSubscriber<String, CombiningError>

    init(demand: Subscribers.Demand = .unlimited) {
      recorder = TestSubscriber(initialDemand: demand)
      numbers.zip(letters) { "\($0)\($1)" }.subscribe(recorder)
    }
  }

  @Test func pairsElementsInOrder() {
    let pipe = Pipeline()
    pipe.numbers.send(1)
    pipe.numbers.send(2)
    pipe.letters.send("a")
    pipe.numbers.send(3)
    pipe.letters.send("b")
    pipe.letters.send("c")
    pipe.letters.send("d")
    expectEqual(pipe.recorder.values, ["1a", "2b", "3c"])
  }

  @Test func finishesWhenAnUpstreamFinishesWithNothingQueued() {
    let pipe = Pipeline()
    pipe.numbers.send(1)
    pipe.letters.send(completion: .finished)
    expectEqual(pipe.recorder.completion, .finished)
    #expect(pipe.numbers.isCancelled)
    #expect(!pipe.letters.isCancelled)
  }

  @Test func waitsForQueuedElementsOfAFinishedUpstream() {
    let pipe = Pipeline()
    pipe.numbers.send(1)
    pipe.numbers.send(2)
    pipe.numbers.send(completion: .finished)
    #expect(pipe.recorder.completions.isEmpty)
    pipe.letters.send("a")
    #expect(pipe.recorder.completions.isEmpty)
    pipe.letters.send("b")
    expectEqual(pipe.recorder.values, ["1a", "2b"])
    expectEqual(pipe.recorder.completion, .finished)
    #expect(pipe.letters.isCancelled)
  }

  @Test func failureFailsAndCancelsTheOthers() {
    let pipe = Pipeline()
    pipe.numbers.send(1)
    pipe.letters.send(completion: .failure(.boom))
    expectEqual(pipe.recorder.completion, .failure(.boom))
    #expect(pipe.numbers.isCancelled)
    pipe.numbers.send(2)
    pipe.letters.send("a")
    #expect(pipe.recorder.values.isEmpty)
  }

  /// As in Combine, the upstream that failed is cancelled too.
  @Test func failureCancelsTheFailedUpstreamToo() {
    let pipe = Pipeline()
    pipe.numbers.send(completion: .failure(.boom))
    expectEqual(pipe.recorder.completion, .failure(.boom))
    #expect(pipe.numbers.isCancelled)
    #expect(pipe.letters.isCancelled)
  }

  /// As in Combine, demand requested while a value is being delivered is returned to the upstream
  /// whose value completed the pair and requested from the others, not requested from all.
  @Test(arguments: [Subscribers.Demand.unlimited, .max(10)])
  func demandRequestedWhileDeliveringGoesWithTheDelivery(initial: Subscribers.Demand) {
    let numbers = Source()
    let letters = Letters()
    let recorder = TestSubscriber<String, CombiningError>(initialDemand: initial)
    recorder.onValue = { _, _ in
      recorder.request(.max(666))
      return .none
    }
    numbers.zip(letters) { "\($0)\($1)" }.subscribe(recorder)
    expectEqual(numbers.send(1), .none)
    expectEqual(letters.send("a"), .max(666))
    expectEqual(numbers.requestedDemands, [initial, .max(666)])
    expectEqual(letters.requestedDemands, [initial])
  }

  @Test func passesDownstreamDemandToEveryUpstream() {
    let pipe = Pipeline(demand: .max(2))
    expectEqual(pipe.numbers.requestedDemands, [.max(2)])
    expectEqual(pipe.letters.requestedDemands, [.max(2)])
    pipe.recorder.request(.max(3))
    expectEqual(pipe.numbers.requestedDemands, [.max(2), .max(3)])
    expectEqual(pipe.letters.requestedDemands, [.max(2), .max(3)])
  }

  @Test func additionalDemandGoesBackToTheTriggeringUpstreamAndIsRequestedFromTheOthers() {
    let pipe = Pipeline(demand: .max(1))
    pipe.recorder.onValue = { _, _ in .max(4) }
    expectEqual(pipe.numbers.send(1), .none)
    expectEqual(pipe.letters.send("a"), .max(4))
    expectEqual(pipe.numbers.requestedDemands, [.max(1), .max(4)])
    expectEqual(pipe.letters.requestedDemands, [.max(1)])
  }

  @Test func cancelCancelsEveryUpstreamAndSilences() {
    let pipe = Pipeline()
    pipe.recorder.cancel()
    #expect(pipe.numbers.isCancelled)
    #expect(pipe.letters.isCancelled)
    pipe.numbers.send(1)
    pipe.letters.send("a")
    pipe.letters.send(completion: .finished)
    #expect(pipe.recorder.values.isEmpty)
    #expect(pipe.recorder.completions.isEmpty)
  }

  @Test func reentrantSendRequestAndCancel() {
    let pipe = Pipeline(demand: .max(1))
    let numbers = pipe.numbers
    let letters = pipe.letters
    let recorder = pipe.recorder
    pipe.recorder.onValue = { _, value in
      if value == "1a" {
        recorder.request(.max(1))
        numbers.send(2)
        letters.send("b")
      }
      if value == "2b" { recorder.cancel() }
      return .none
    }
    numbers.send(1)
    letters.send("a")
    numbers.send(3)
    letters.send("c")
    expectEqual(recorder.values, ["1a", "2b"])
    // As in Combine, "2b" arrives nested, inside the delivery of "1a".
    expectEqual(pipe.recorder.overlappingDeliveries, 1)
    #expect(numbers.isCancelled)
  }

  @Test func synchronousUpstreams() {
    let recorder = TestSubscriber<String, Never>()
    [1, 2, 3].publisher.zip(["a", "b"].publisher) { "\($0)\($1)" }.subscribe(recorder)
    expectEqual(recorder.values, ["1a", "2b"])
    expectEqual(recorder.completion, .finished)
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
    #expect(first(a.zip(b))! == (1, "b"))
    #expect(first(a.zip(b, c))! == (1, "b", 3.5))
    #expect(first(a.zip(b, c, d))! == (1, "b", 3.5, true))
    #expect(first(a.zip(b) { "\($0)\($1)" }) == "1b")
    #expect(first(a.zip(b, c) { "\($0)\($1)\($2)" }) == "1b3.5")
    #expect(first(a.zip(b, c, d) { "\($0)\($1)\($2)\($3)" }) == "1b3.5true")
    let map: Publishers.Map<Publishers.Zip<Just<Int>, Just<String>>, String> = a.zip(b) { "\($0)\($1)" }
    expectEqual(map.upstream, Publishers.Zip(a, b))
    expectEqual(Publishers.Zip4(a, b, c, d), Publishers.Zip4(a, b, c, d))
    #expect(Publishers.Zip3(a, b, c) != Publishers.Zip3(Just(2), b, c))
  }

  @Test func releasesThePipelineAfterCompletionAndCancel() {
    weak var finished: TestSubscriber<String, CombiningError>?
    weak var cancelled: TestSubscriber<String, CombiningError>?
    do {
      let pipe = Pipeline()
      finished = pipe.recorder
      pipe.numbers.send(completion: .finished)
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
