import Foundation
import Observation
import RillExt
import RillTestSupport
import RillTesting
import Testing

/// Requests and cancels from many threads while the model changes on its queue; also run under ThreadSanitizer:
/// `swift test --sanitize=thread --filter "LaneStressTests|ObservationStressTests"`.
@Suite(.tags(.stress), .timeLimit(.minutes(1)))
struct ObservationStressTests {
  @Test func valuesOnlyGoForwardAndTheLastOneArrives() {
    let queue = DispatchQueue(label: "model")
    let model = CounterModel()
    let changes = LaneStressTests.perThread * 2
    let kept = (0..<3).map { _ in TestSubscriber<Int, Never>(initialDemand: .max(1)) }
    let cancelled = (0..<3).map { _ in TestSubscriber<Int, Never>(initialDemand: .max(1)) }
    queue.sync {
      for subscriber in kept + cancelled { model.publisher(for: \.count, scheduler: queue).subscribe(subscriber) }
    }
    LaneStressTests.concurrently(5) { index in
      switch index {
      case 0:
        for value in 1...changes { queue.async { model.count = value } }
      case 1, 2:
        for _ in 0..<changes {
          for subscriber in kept { subscriber.request(.max(1)) }
        }
      case 3:
        for subscriber in cancelled {
          for _ in 0..<50 { subscriber.request(.max(1)) }
        }
      default:
        for subscriber in cancelled { subscriber.cancel() }
      }
    }
    for subscriber in kept { subscriber.request(.unlimited) }
    queue.sync {}
    queue.sync {}
    for subscriber in kept + cancelled {
      let values = subscriber.values
      #expect(values == values.sorted() && Set(values).count == values.count, "\(values)")
      expectEqual(subscriber.overlappingDeliveries, 0)
      #expect(!subscriber.isCompleted)
    }
    for subscriber in kept { #expect(subscriber.values.last == changes) }
  }
}
