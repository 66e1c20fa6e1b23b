import RillCore
import RillTestSupport
import Testing

/// `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)` end the trigger's subscription once it has fired: a
/// subject's subscription keeps the subject alive until it is cancelled or completes, so a trigger subject let go of
/// without a cancel would live on, with the operator's objects, in a cycle nothing breaks.
@Suite struct UntilOutputTriggerSoakTests {
  /// One pipeline on a shared bus whose trigger subject fires, then a cancel; returns whether the trigger subject
  /// outlived it.
  private func triggerOutlivesItsPipeline(
    _ untilOutputOperator: UntilOutputOperator,
    bus: PassthroughSubject<Int, Never>
  ) -> Bool {
    weak var weakStop: PassthroughSubject<Void, Never>?
    do {
      let stop = PassthroughSubject<Void, Never>()
      weakStop = stop
      let values = bus.map { $0 + 1 }
      let cancellable =
        switch untilOutputOperator {
        case .prefix: values.prefix(untilOutputFrom: stop).sink { _ in }
        case .drop: values.drop(untilOutputFrom: stop).sink { _ in }
        }
      bus.send(1)
      stop.send(())
      bus.send(2)
      cancellable.cancel()
    }
    return weakStop != nil
  }

  @Test(arguments: [UntilOutputOperator.prefix, .drop])
  func aFiredTriggerSubjectIsFreed(_ untilOutputOperator: UntilOutputOperator) {
    #expect(!triggerOutlivesItsPipeline(untilOutputOperator, bus: PassthroughSubject()))
  }

  /// The isolated case of a server that ends a client's stream this way: 100,000 streams, none of whose trigger
  /// subjects may stay alive.
  @Test(arguments: [UntilOutputOperator.prefix, .drop])
  func everyFiredTriggerSubjectIsFreed(_ untilOutputOperator: UntilOutputOperator) {
    let bus = PassthroughSubject<Int, Never>()
    let rounds = StressThreads.scaled(100_000)
    var alive = 0
    for _ in 0..<rounds where triggerOutlivesItsPipeline(untilOutputOperator, bus: bus) {
      alive += 1
    }
    expectEqual(alive, 0, "\(alive) of \(rounds) trigger subjects are still alive")
  }
}
