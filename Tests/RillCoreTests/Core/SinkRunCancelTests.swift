import Testing

@testable import RillCore

/// A sink's run against a cancel from another thread that has begun but not finished.
///
/// `cancel()` sets the sink's `hasEnded` flag first, which silences the run's values at once, and takes the lock
/// after. A completion that lands in between must be silenced too: a sink never reports `finished` after values
/// it dropped.
@Suite struct SinkRunCancelTests {
  @Test func aCancelHalfwayThroughWhenTheRunFinishesSilencesTheCompletion() {
    var values: [Int] = []
    var completions: [Subscribers.Completion<Never>] = []
    weak var weakSink: Subscribers.Sink<Int, Never>?
    do {
      var sink: Subscribers.Sink<Int, Never>?
      sink = Subscribers.Sink(
        receiveCompletion: { completions.append($0) },
        receiveValue: { value in
          values.append(value)
          // What the cancel's first step does, without its second.
          if value == 2 { sink?.hasEnded.store(true, ordering: .releasing) }
        }
      )
      weakSink = sink
      (1...5).publisher.subscribe(sink!)
      #expect(values == [1, 2])
      #expect(completions.isEmpty)
      sink?.cancel()
      #expect(completions.isEmpty)
      sink = nil
    }
    #expect(weakSink == nil)
  }

  @Test func aCompletionWithoutACancelStillArrivesAfterTheRun() {
    var values: [Int] = []
    var completions: [Subscribers.Completion<Never>] = []
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { completions.append($0) },
      receiveValue: { values.append($0) }
    )
    (1...3).publisher.subscribe(sink)
    #expect(values == [1, 2, 3])
    #expect(completions == [.finished])
  }
}
