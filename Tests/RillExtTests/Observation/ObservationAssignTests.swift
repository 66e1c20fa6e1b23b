import Observation
import RillExt
import RillTestSupport
import RillTesting
import Testing

/// RillExt also has a `TestScheduler`, combine-schedulers' generic one; these tests use RillTesting's.
private typealias TestScheduler = RillTesting.TestScheduler

@Suite struct ObservationAssignTests {
  @Test func assignsEachValueThroughTheSetterSoObserversSeeIt() {
    let scheduler = TestScheduler()
    let model = CounterModel()
    let upstream = TestPublisher<Int, Never>()
    let observed = TestSubscriber<Int, Never>()
    model.publisher(for: \.count, scheduler: scheduler).subscribe(observed)
    let cancellable = upstream.assign(to: \.count, on: model, ownership: .weak)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(4)
    expectEqual(model.count, 4)
    scheduler.advance()
    upstream.send(5)
    scheduler.advance()
    expectEqual(observed.values, [0, 4, 5])
    cancellable.cancel()
    #expect(upstream.isCancelled)
  }

  @Test func strongKeepsTheModelAlive() {
    let upstream = TestPublisher<Int, Never>()
    weak var weakModel: FreedModel?
    var cancellable: AnyCancellable?
    do {
      let model = FreedModel()
      weakModel = model
      cancellable = upstream.assign(to: \.count, on: model)
    }
    upstream.send(3)
    #expect(weakModel?.count == 3 && cancellable != nil)
    cancellable = nil
    upstream.releaseSubscribers()
    #expect(weakModel == nil)
  }

  @Test func weakEndsTheSubscriptionOnceTheModelIsFreed() {
    let upstream = TestPublisher<Int, Never>()
    weak var weakModel: FreedModel?
    var cancellable: AnyCancellable?
    do {
      let model = FreedModel()
      weakModel = model
      cancellable = upstream.assign(to: \.count, on: model, ownership: .weak)
      upstream.send(1)
      expectEqual(model.count, 1)
    }
    #expect(weakModel == nil && !upstream.isCancelled)
    upstream.send(2)
    #expect(upstream.isCancelled)
    _ = cancellable
  }

  @Test func unownedDoesNotKeepTheModel() {
    let upstream = TestPublisher<Int, Never>()
    let model = FreedModel()
    var freed = false
    model.onDeinit = { freed = true }
    var cancellable: AnyCancellable? = upstream.assign(to: \.count, on: model, ownership: .unowned)
    upstream.send(9)
    expectEqual(model.count, 9)
    cancellable?.cancel()
    cancellable = nil
    #expect(!freed)
  }

  @Test func completionLetsGoOfTheModelAndLaterValuesDoNothing() {
    let upstream = TestPublisher<Int, Never>()
    weak var weakModel: FreedModel?
    var cancellable: AnyCancellable?
    do {
      let model = FreedModel()
      weakModel = model
      cancellable = upstream.assign(to: \.count, on: model)
    }
    upstream.send(1)
    expectEqual(weakModel?.count, 1)
    upstream.send(completion: .finished)
    #expect(weakModel == nil && cancellable != nil)
    upstream.send(7)
    cancellable = nil
  }

  @Test func aSecondSubscriptionIsCancelled() {
    let model = CounterModel()
    let upstream = TestPublisher<Int, Never>()
    let cancellable = upstream.assign(to: \.count, on: model)
    let extra = TestSubscription()
    upstream.send(subscription: extra)
    #expect(extra.isCancelled)
    cancellable.cancel()
  }

  @Test func combinesTwoArgumentSpellingWithCombines() {
    let model = CounterModel()
    let cancellable = Just(8).assign(to: \.count, on: model)
    expectEqual(model.count, 8)
    _ = cancellable
  }
}
