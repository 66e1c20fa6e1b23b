import RillCore
import Testing

/// Cases found by the differential tests against OpenCombine (Differential/), kept as regular tests.
@Suite struct DifferentialRegressionTests {
  /// Seed 6760071291456555664: when downstream demand turned unlimited, flatMap asked its children for more in
  /// hash order, so the children's remaining values arrived in an order that changed from run to run.
  @Test func flatMapUpgradesChildrenToUnlimitedInSubscriptionOrder() {
    let recorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: .none)
    (1...16).publisher.flatMap { [$0, $0 + 100].publisher }.subscribe(recorder)
    recorder.request(.unlimited)
    #expect(recorder.values == Array(1...16) + Array(101...116))
    #expect(recorder.completions == 1)
  }
}
