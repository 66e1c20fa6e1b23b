import Observation
import RillExt
import RillTesting

/// A model with a few kinds of property, for the Observation bridge's tests.
@Observable
final class CounterModel: @unchecked Sendable {
  var count = 0
  var name = "a"
  var child = ChildModel()
  @ObservationIgnored var ignored = 0
}

@Observable
final class ChildModel: @unchecked Sendable {
  var title = "first"
}

/// A model that says when it is freed.
@Observable
final class FreedModel: @unchecked Sendable {
  var count = 0
  @ObservationIgnored var onDeinit: () -> Void = {}

  deinit { onDeinit() }
}

/// What a user writes without the bridge, the reference for `publisher(for:)` with unlimited demand.
///
/// It reads the property in `withObservationTracking`, and on each change schedules the next read on the scheduler.
final class HandWrittenObservationLoop: @unchecked Sendable {
  private(set) var values: [Int] = []
  private let model: CounterModel
  private let scheduler: RillTesting.TestScheduler

  init(model: CounterModel, scheduler: RillTesting.TestScheduler) {
    self.model = model
    self.scheduler = scheduler
    observe()
  }

  private func observe() {
    let value = withObservationTracking {
      model.count
    } onChange: { [self] in
      scheduler.schedule { self.observe() }
    }
    values.append(value)
  }
}
