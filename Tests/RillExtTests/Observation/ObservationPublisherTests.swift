import Foundation
import Observation
import RillExt
import RillTestSupport
import RillTesting
import Testing

/// RillExt also has a `TestScheduler`, combine-schedulers' generic one; these tests use RillTesting's.
private typealias TestScheduler = RillTesting.TestScheduler

@Suite struct ObservationPublisherTests {
  /// The diagram of `publisher(for:options:scheduler:)`'s documentation: `count` set to 1 at tick 2, to 2 and 3 at
  /// tick 4.
  @Test func docMarbles() {
    let scheduler = TestScheduler()
    let model = CounterModel()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
    scheduler.advance(to: 2)
    model.count = 1
    scheduler.advance(to: 4)
    model.count = 2
    model.count = 3
    scheduler.advance(to: 5)
    expectEqual(subscriber.marbles(), "0-1-3")
  }

  @Test func sendsTheCurrentValueAtOnceThenTheNewValueOnTheScheduler() {
    let scheduler = TestScheduler()
    let model = CounterModel()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
    expectEqual(subscriber.values, [0])
    scheduler.advance(by: 5)
    model.count = 1
    expectEqual(subscriber.values, [0])
    scheduler.advance(by: 5)
    expectEqual(subscriber.values, [0, 1])
    model.count = 2
    scheduler.advance()
    let expected: [TestSubscriber<Int, Never>.Record] = [
      .init(.subscription, at: 0), .init(.value(0), at: 0), .init(.value(1), at: 5), .init(.value(2), at: 10),
    ]
    expectEqual(subscriber.records, expected)
  }

  @Test func changesBeforeTheReadAreOneValueAndEqualValuesAreNoChange() {
    let scheduler = TestScheduler()
    let model = CounterModel()
    let subscriber = TestSubscriber<Int, Never>()
    model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
    model.count = 1
    model.count = 2
    model.count = 3
    scheduler.advance()
    model.count = 3
    model.name = "b"
    scheduler.advance()
    model.count = 4
    model.count = 3
    scheduler.advance()
    expectEqual(subscriber.values, [0, 3, 3])
  }

  @Test func withoutInitialSendsChangesOnly() {
    let scheduler = TestScheduler()
    let model = CounterModel()
    let subscriber = TestSubscriber<Int, Never>()
    model.publisher(for: \.count, options: [], scheduler: scheduler).subscribe(subscriber)
    #expect(subscriber.values.isEmpty)
    model.count = 7
    scheduler.advance()
    expectEqual(subscriber.values, [7])
  }

  @Test func waitsForDemandAndThenSendsTheLatestValue() {
    let scheduler = TestScheduler()
    let model = CounterModel()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
    model.count = 1
    scheduler.advance()
    #expect(subscriber.values.isEmpty)
    subscriber.request(.max(1))
    expectEqual(subscriber.values, [1])
    model.count = 2
    model.count = 3
    scheduler.advance()
    expectEqual(subscriber.values, [1])
    model.count = 4
    subscriber.request(.max(1))
    expectEqual(subscriber.values, [1])
    scheduler.advance()
    expectEqual(subscriber.values, [1, 4])
  }

  @Test func demandReturnedFromAValueCounts() {
    let scheduler = TestScheduler()
    let model = CounterModel()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
    for value in 1...3 {
      model.count = value
      scheduler.advance()
    }
    expectEqual(subscriber.values, [0, 1, 2, 3])
  }

  @Test func followsAChainOfModels() {
    let scheduler = TestScheduler()
    let model = CounterModel()
    let subscriber = TestSubscriber<String, Never>()
    model.publisher(for: \.child.title, scheduler: scheduler).subscribe(subscriber)
    let first = model.child
    first.title = "renamed"
    scheduler.advance()
    model.child = ChildModel()
    scheduler.advance()
    first.title = "no longer observed"
    scheduler.advance()
    expectEqual(subscriber.values, ["first", "renamed", "first"])
  }

  @Test func anUntrackedPropertySendsItsValueAndNothingMore() {
    let scheduler = TestScheduler()
    let model = CounterModel()
    model.ignored = 5
    let subscriber = TestSubscriber<Int, Never>()
    model.publisher(for: \.ignored, scheduler: scheduler).subscribe(subscriber)
    model.ignored = 6
    scheduler.advance()
    #expect(subscriber.values == [5] && !subscriber.isCompleted)
    subscriber.cancel()
  }

  @Test func cancelStopsTheStreamAndFreesTheSubscription() {
    let scheduler = TestScheduler()
    let model = CounterModel()
    let subscriber = TestSubscriber<Int, Never>()
    weak var subscription: AnyObject?
    do {
      model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
      subscription = subscriber.subscription as AnyObject?
      model.count = 1
      subscriber.cancel()
      scheduler.advance()
    }
    model.count = 2
    scheduler.advance()
    #expect(subscriber.values == [0] && !subscriber.isCompleted)
    #expect(subscription == nil)
  }

  @Test func aFreedModelFinishesTheStreamOnTheScheduler() {
    let scheduler = TestScheduler()
    var model: FreedModel? = FreedModel()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    let publisher = model!.publisher(for: \.count, scheduler: scheduler)
    publisher.subscribe(subscriber)
    scheduler.advance(by: 3)
    model = nil
    #expect(publisher.object == nil && !subscriber.isCompleted)
    scheduler.advance(by: 2)
    let expected: [TestSubscriber<Int, Never>.Record] = [
      .init(.subscription, at: 0), .init(.value(0), at: 0), .init(.completion(.finished), at: 3),
    ]
    expectEqual(subscriber.records, expected)
    let late = TestSubscriber<Int, Never>()
    publisher.subscribe(late)
    expectEqual(late.events, [.subscription, .completion(.finished)])
  }

  @Test func aModelFreedAfterAChangeFinishesAtTheRead() {
    let scheduler = TestScheduler()
    var model: FreedModel? = FreedModel()
    let subscriber = TestSubscriber<Int, Never>()
    model!.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
    model!.count = 1
    model = nil
    scheduler.advance()
    expectEqual(subscriber.events, [.subscription, .value(0), .completion(.finished)])
  }

  @Test func neitherThePublisherNorTheSubscriptionKeepsTheModel() {
    let scheduler = TestScheduler()
    var freed = false
    var model: FreedModel? = FreedModel()
    model!.onDeinit = { freed = true }
    let publisher = model!.publisher(for: \.count, scheduler: scheduler)
    let cancellable = publisher.sink { _ in }
    model = nil
    #expect(freed)
    cancellable.cancel()
  }

  @Test func aChangeFromInsideDeliveryIsReadOnTheNextRun() {
    let scheduler = TestScheduler()
    let model = CounterModel()
    let subscriber = TestSubscriber<Int, Never>(onValue: { _, value in
      if value < 3 { model.count = value + 1 }
      return .none
    })
    model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
    expectEqual(subscriber.values, [0])
    scheduler.advance()
    expectEqual(subscriber.values, [0, 1, 2, 3])
    expectEqual(subscriber.overlappingDeliveries, 0)
  }

  @Test func theDefaultSchedulerIsTheMainQueue() {
    let model = CounterModel()
    let publisher = model.publisher(for: \.count)
    #expect(publisher.scheduler.label == DispatchQueue.main.label && publisher.options == [.initial])
    #expect(publisher.keyPath == \CounterModel.count && publisher.object === model)
  }

  @Test func deliversOnTheMainQueueAfterTheJobThatChangedTheModel() async {
    let model = CounterModel()
    let values = await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
      DispatchQueue.main.async {
        var received: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = model.publisher(for: \.count).sink { value in
          received.append(value)
          if value == 2 {
            cancellable?.cancel()
            continuation.resume(returning: received)
          }
        }
        model.count = 1
        model.count = 2
      }
    }
    expectEqual(values, [0, 2])
  }

  @Test func keepsTheContract() {
    for demand in ContractDemand.standard {
      let scheduler = TestScheduler()
      let model = CounterModel()
      let report = PublisherContract.check(model.publisher(for: \.count, scheduler: scheduler), demand: demand) { _ in
        for value in 1...5 {
          model.count = value
          scheduler.advance()
        }
      }
      #expect(report.isSatisfied, "\(demand): \(report)")
      var freed = false
      var freedModel: FreedModel? = FreedModel()
      freedModel!.onDeinit = { freed = true }
      let ending = PublisherContract.check(
        freedModel!.publisher(for: \.count, scheduler: scheduler),
        demand: demand,
        expectsCompletion: demand.initial > .none && demand.cancelAfterValues == nil
      ) { _ in
        freedModel = nil
        scheduler.advance()
      }
      #expect(freed && ending.isSatisfied, "\(demand): \(ending)")
    }
  }
}
