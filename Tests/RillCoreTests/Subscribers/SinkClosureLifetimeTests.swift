import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

/// A sink that ends while its closure runs keeps the closure until the call returns, then releases it.
@Suite struct SinkClosureLifetimeTests {
  private final class Captured: @unchecked Sendable {
    var values: [Int] = []
  }

  /// As in Combine, a sink without a subscription keeps its closures on cancel, and releases them on
  /// completion.
  @Test func withoutSubscriptionCancelKeepsTheClosuresAndCompletionReleasesThem() {
    weak var weakCaptured: Captured?
    var sink: Subscribers.Sink<Int, Never>?
    do {
      let captured = Captured()
      weakCaptured = captured
      sink = Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { captured.values.append($0) })
    }
    sink?.cancel()
    #expect(weakCaptured != nil)
    _ = sink?.receive(1)
    expectEqual(weakCaptured?.values, [1])
    sink?.receive(completion: .finished)
    #expect(weakCaptured == nil)
    withExtendedLifetime(sink) {}
  }

  @Test func cancelFromInsideTheClosureReleasesItWhenTheCallReturns() {
    weak var weakCaptured: Captured?
    var sink: Subscribers.Sink<Int, Never>?
    var aliveInsideTheCall = false
    do {
      let captured = Captured()
      weakCaptured = captured
      sink = Subscribers.Sink(
        receiveCompletion: { _ in },
        receiveValue: { value in
          captured.values.append(value)
          sink?.cancel()
          captured.values.append(value * 10)
          aliveInsideTheCall = weakCaptured != nil
        }
      )
    }
    let subject = PassthroughSubject<Int, Never>()
    subject.subscribe(sink!)
    subject.send(1)
    #expect(aliveInsideTheCall)
    #expect(weakCaptured == nil)
    subject.send(2)
    #expect(weakCaptured == nil)
  }

  @Test func completionFromInsideTheValueClosureRunsAndReleasesBothClosures() {
    weak var weakCaptured: Captured?
    var events: [String] = []
    let sink: Subscribers.Sink<Int, Never>
    do {
      let captured = Captured()
      weakCaptured = captured
      var reentrant: Subscribers.Sink<Int, Never>?
      sink = Subscribers.Sink(
        receiveCompletion: { _ in events.append("finished \(captured.values)") },
        receiveValue: { value in
          captured.values.append(value)
          reentrant?.receive(completion: .finished)
          events.append("returned \(value)")
        }
      )
      reentrant = sink
      sink.receive(subscription: Subscriptions.empty)
      _ = sink.receive(1)
      reentrant = nil
    }
    expectEqual(events, ["finished [1]", "returned 1"])
    #expect(weakCaptured == nil)
    _ = sink.receive(2)
    sink.receive(completion: .finished)
    expectEqual(events, ["finished [1]", "returned 1"])
  }

  @Test func cancelFromAnotherThreadDuringACallKeepsTheClosureUntilItReturns() {
    weak var weakCaptured: Captured?
    let entered = DispatchSemaphore(value: 0)
    let cancelled = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let subject = PassthroughSubject<Int, Never>()
    nonisolated(unsafe) var cancellable: AnyCancellable?
    do {
      let captured = Captured()
      weakCaptured = captured
      cancellable = subject.sink { value in
        entered.signal()
        cancelled.wait()
        captured.values.append(value)  // after cancel returned on the other thread: must still be alive
        expectEqual(captured.values, [1])
      }
    }
    DispatchQueue.global().async {
      subject.send(1)
      finished.signal()
    }
    entered.wait()
    cancellable?.cancel()
    #expect(weakCaptured != nil)
    cancelled.signal()
    finished.wait()
    #expect(weakCaptured == nil)
    cancellable = nil
  }

  @Test func closuresAreReleasedWithTheSinkWhenItNeverEnds() {
    weak var weakCaptured: Captured?
    do {
      let captured = Captured()
      weakCaptured = captured
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in _ = captured }, receiveValue: { _ in })
      _ = sink.receive(1)
    }
    #expect(weakCaptured == nil)
  }

  // A sequence delivers to a sink in one run, without the sink's lock per value: the same values, order,
  // completion and release as value by value.

  @Test func aSequenceRunDeliversEveryValueThenTheCompletionAndReleasesTheClosures() {
    weak var weakCaptured: Captured?
    var completions = 0
    do {
      let captured = Captured()
      weakCaptured = captured
      let cancellable = (1...5).publisher.sink(
        receiveCompletion: { _ in completions += 1 },
        receiveValue: { captured.values.append($0) }
      )
      expectEqual(captured.values, [1, 2, 3, 4, 5])
      _ = cancellable
    }
    expectEqual(completions, 1)
    #expect(weakCaptured == nil)
  }

  @Test func aSequenceRunStopsWhenTheSinkIsCancelledFromAnotherThread() {
    let started = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let captured = Captured()
    nonisolated(unsafe) var completions = 0
    // A sink is not `Sendable`; this one's closures run on the other thread alone, and the cancel that reaches it
    // from here goes through its `Sendable` cancellable.
    nonisolated(unsafe) let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in completions += 1 },
      receiveValue: { value in
        if value == 0 { started.signal() }
        captured.values.append(value)
      }
    )
    let cancellable = AnyCancellable(sink)
    DispatchQueue.global().async {
      (0..<50_000_000).publisher.subscribe(sink)
      finished.signal()
    }
    started.wait()
    cancellable.cancel()
    finished.wait()
    expectEqual(completions, 0)
    #expect(captured.values.count < 50_000_000)
    expectEqual(captured.values, Array(0..<captured.values.count))
  }

  @Test func aRunPassesThroughMapFilterAndErasureWithTheSameValuesAndCompletion() {
    weak var weakCaptured: Captured?
    var completions: [Subscribers.Completion<Never>] = []
    do {
      let captured = Captured()
      weakCaptured = captured
      let cancellable = (1...10).publisher.eraseToAnyPublisher()
        .map { $0 * 3 }
        .filter { $0 % 2 == 0 }
        .eraseToAnyPublisher()
        .sink(receiveCompletion: { completions.append($0) }, receiveValue: { captured.values.append($0) })
      expectEqual(captured.values, [6, 12, 18, 24, 30])
      _ = cancellable
    }
    expectEqual(completions, [.finished])
    #expect(weakCaptured == nil)
  }

  @Test(arguments: [false, true])
  func aRunStopsWhenTheSinkIsCancelledFromInsideItsClosure(throughOperators: Bool) {
    weak var weakCaptured: Captured?
    var completions = 0
    var delivered: [Int] = []
    var sink: Subscribers.Sink<Int, Never>?
    do {
      let captured = Captured()
      weakCaptured = captured
      sink = Subscribers.Sink(
        receiveCompletion: { _ in completions += 1 },
        receiveValue: { value in
          captured.values.append(value)
          delivered.append(value)
          if value == 4 { sink?.cancel() }
        }
      )
    }
    let source = (1...1_000).publisher
    if throughOperators {
      source.eraseToAnyPublisher().map { $0 }.filter { _ in true }.subscribe(sink!)
    } else {
      source.subscribe(sink!)
    }
    expectEqual(delivered, [1, 2, 3, 4])
    expectEqual(completions, 0)
    #expect(weakCaptured == nil)
    sink = nil
  }

  @Test func aRunRespectsLimitedDemandFromASubscriberThatIsNotASink() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(2))
    (1...5).publisher.eraseToAnyPublisher().map { $0 * 10 }.filter { _ in true }.subscribe(recorder)
    expectEqual(recorder.values, [10, 20])
    recorder.request(.max(2))
    expectEqual(recorder.values, [10, 20, 30, 40])
  }
}
