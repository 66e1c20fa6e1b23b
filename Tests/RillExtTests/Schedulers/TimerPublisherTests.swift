import Dispatch
import Foundation
import Rill
import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct TimerPublisherTests {
  @Test func sendsTheSchedulersTimeEveryIntervalAfterConnecting() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    var times: [DispatchQueue.SchedulerTimeType] = []
    let timer = scheduler.timerPublisher(every: .seconds(2))
    let subscription = timer.sink { times.append($0) }
    scheduler.advance(by: .seconds(5))
    expectEqual(times, [])
    let connection = timer.connect()
    scheduler.advance(by: .seconds(1))
    expectEqual(times, [])
    scheduler.advance(by: .seconds(1))
    expectEqual(times, [start.advanced(by: .seconds(7))])
    scheduler.advance(by: .seconds(4))
    #expect(times == [7, 9, 11].map { start.advanced(by: .seconds($0)) })
    connection.cancel()
    subscription.cancel()
  }

  @Test func autoconnectCountsAThousandTicksInVirtualTime() {
    let scheduler = RunLoop.test
    var count = 0
    let cancellable = Publishers.Timer(every: 1, scheduler: scheduler).autoconnect().sink { _ in count += 1 }
    scheduler.advance(by: 1)
    expectEqual(count, 1)
    scheduler.advance(by: 1_000)
    expectEqual(count, 1_001)
    cancellable.cancel()
  }

  @Test func runEndsOnceAPrefixFinishesTheTimer() {
    let scheduler = OperationQueue.test
    let recorder = TestSubscriber<OperationQueue.SchedulerTimeType, Never>()
    scheduler.timerPublisher(every: 1).autoconnect().prefix(3).subscribe(recorder)
    scheduler.run()
    expectEqual(recorder.values.count, 3)
    expectEqual(recorder.completion, .finished)
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test func sharesOneRepetitionAmongSubscribersAndHonoursEachDemand() {
    let scheduler = DispatchQueue.test
    let timer = scheduler.timerPublisher(every: .seconds(1))
    let eager = TestSubscriber<DispatchQueue.SchedulerTimeType, Never>()
    let lazy = TestSubscriber<DispatchQueue.SchedulerTimeType, Never>(initialDemand: .max(1))
    timer.subscribe(eager)
    timer.subscribe(lazy)
    let connection = timer.connect()
    let again = timer.connect()
    expectEqual(scheduler.scheduledActionCount, 1)
    scheduler.advance(by: .seconds(3))
    expectEqual(eager.values.count, 3)
    // Without demand the value is missed, not buffered.
    expectEqual(lazy.values.count, 1)
    lazy.request(.max(1))
    scheduler.advance(by: .seconds(1))
    expectEqual(eager.values.count, 4)
    expectEqual(lazy.values, [eager.values[0], eager.values[3]])
    again.cancel()
    connection.cancel()
  }

  @Test func cancellingTheConnectionStopsTheRepetitionAndKeepsSubscribers() {
    let scheduler = DispatchQueue.test
    let timer = scheduler.timerPublisher(every: .seconds(1))
    var count = 0
    let subscription = timer.sink { _ in count += 1 }
    let connection = timer.connect()
    scheduler.advance(by: .seconds(2))
    connection.cancel()
    expectEqual(scheduler.scheduledActionCount, 0)
    scheduler.advance(by: .seconds(5))
    expectEqual(count, 2)
    let reconnection = timer.connect()
    scheduler.advance(by: .seconds(1))
    expectEqual(count, 3)
    reconnection.cancel()
    subscription.cancel()
  }

  @Test func cancellingASubscriptionStopsItsValuesAndFreesIt() {
    let scheduler = DispatchQueue.test
    let timer = scheduler.timerPublisher(every: .seconds(1))
    let connection = timer.connect()
    weak var subscription: AnyObject?
    weak var capturedBySink: AnyObject?
    var count = 0
    do {
      let object = NSObject()
      capturedBySink = object
      let cancellable = timer.sink { _ in
        _ = object
        count += 1
      }
      scheduler.advance(by: .seconds(1))
      expectEqual(count, 1)
      cancellable.cancel()
    }
    weak var weakRecorder: TestSubscriber<DispatchQueue.SchedulerTimeType, Never>?
    do {
      let recorder = TestSubscriber<DispatchQueue.SchedulerTimeType, Never>()
      weakRecorder = recorder
      timer.subscribe(recorder)
      subscription = recorder.subscription as AnyObject?
      recorder.cancel()
      scheduler.advance(by: .seconds(3))
      expectEqual(recorder.values, [])
    }
    expectEqual(count, 1)
    #expect(capturedBySink == nil)
    #expect(weakRecorder == nil)
    connection.cancel()
    #expect(subscription == nil)
  }

  @Test func freesThePublisherAndItsRepetitionAfterAutoconnectIsCancelled() {
    let scheduler = DispatchQueue.test
    weak var timer: Publishers.Timer<TestSchedulerOf<DispatchQueue>>?
    do {
      let publisher = scheduler.timerPublisher(every: .seconds(1))
      timer = publisher
      let cancellable = publisher.autoconnect().sink { _ in }
      scheduler.advance(by: .seconds(2))
      expectEqual(scheduler.scheduledActionCount, 1)
      cancellable.cancel()
    }
    expectEqual(scheduler.scheduledActionCount, 0)
    #expect(timer == nil)
  }

  @Test func runsOnAnErasedScheduler() {
    let scheduler = DispatchQueue.test
    let erased: AnySchedulerOf<DispatchQueue> = scheduler.eraseToAnyScheduler()
    var count = 0
    let cancellable = erased.timerPublisher(every: .milliseconds(100)).autoconnect().sink { _ in count += 1 }
    scheduler.advance(by: .seconds(1))
    expectEqual(count, 10)
    cancellable.cancel()
  }

  @Test func coexistsWithFoundationsTimerPublisher() {
    // With Rill and RillExt imported, `Timer` is still Foundation's and `Timer.publish` still builds.
    let foundation: Timer.TimerPublisher = Timer.publish(every: 1, on: .main, in: .default)
    expectEqual(foundation.interval, 1)
    let scheduled = Publishers.Timer(every: .seconds(1), scheduler: DispatchQueue.main)
    expectEqual(scheduled.interval, .seconds(1))
    expectEqual(scheduled.description, "Timer")
  }

  @Test func timersOfDifferentIntervalsInterleaveByTime() {
    // Ticks at 2, 4 and 6 s and at 3 and 6 s: at 6 s the timer that was connected first ticks first.
    let scheduler = DispatchQueue.test
    var order: [String] = []
    let cancellable = Publishers.MergeMany(
      scheduler.timerPublisher(every: .seconds(2)).autoconnect().map { _ in "two" },
      scheduler.timerPublisher(every: .seconds(3)).autoconnect().map { _ in "three" }
    )
    .sink { order.append($0) }
    scheduler.advance(by: .seconds(5))
    expectEqual(order, ["two", "three", "two"])
    scheduler.advance(by: .seconds(1))
    expectEqual(order, ["two", "three", "two", "two", "three"])
    cancellable.cancel()
    expectEqual(scheduler.scheduledActionCount, 0)
  }
}
