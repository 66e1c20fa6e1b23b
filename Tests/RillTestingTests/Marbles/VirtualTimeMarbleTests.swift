import Foundation
import Rill
import RillExt
import RillTestSupport
import RillTesting
import Testing

/// Marble diagrams run on RillExt's virtual-time schedulers, which code under test holds type-erased.
@Suite struct VirtualTimeMarbleTests {
  @Test func aDebounceOnAnErasedDispatchQueueTestScheduler() {
    let scheduler = DispatchQueue.test
    let erased = scheduler.eraseToAnyScheduler()
    let result = scheduler.marbles("-a-b-----c----|", tick: .milliseconds(100)) {
      $0.debounce(for: .milliseconds(300), scheduler: erased)
    }
    expectEqual(result, "------b-----c-|")
  }

  @Test func sourcesOfDifferentTypesOnADispatchQueueTestScheduler() {
    let scheduler = DispatchQueue.test
    let result = scheduler.marbles(
      Marbles("-a--b---c-|"),
      Marbles("t--f--t---|", values: ["t": true, "f": false]),
      tick: .seconds(1)
    ) { query, isEnabled in
      query.combineLatest(isEnabled).filter { $1 }.map(\.0)
    }
    expectEqual(result, "-a----b-c-|")
  }

  @Test func aRunLoopTestSchedulerCountsTicksInItsOwnTime() {
    let scheduler = RunLoop.test
    let result = scheduler.marbles("-1-2-|", as: Int.self, tick: .seconds(1)) {
      $0.delay(for: .milliseconds(1500), scheduler: scheduler.eraseToAnyScheduler())
    }
    expectEqual(result, "---1-2-|")
  }

  @Test func anOperationQueueTestSchedulerTakesSeveralSourcesOfOneType() {
    let scheduler = OperationQueue.test
    let result = scheduler.marbles(["-1-|", "--2|", "3--|"], as: Int.self, tick: .seconds(1)) {
      Publishers.MergeMany($0).delay(for: .seconds(1), scheduler: scheduler)
    }
    expectEqual(result, "-312|")
  }

  @Test func hotSourcesSubscriptionAndCancellationPoints() {
    let scheduler = DispatchQueue.test
    #expect(scheduler.marbles("-a>-b-c!-d|", hot: true, tick: .seconds(1)) { $0 } == "----b-c!")
  }

  @Test func aRepeatingActionThatNeverStopsEndsTheRunAfterTheCap() {
    let scheduler = DispatchQueue.test
    let result = scheduler.marbles("-a|", tick: .seconds(1)) { source in
      source.prefix(untilOutputFrom: scheduler.timerPublisher(every: .seconds(10)).autoconnect().filter { _ in false })
    }
    expectEqual(result, "-a|")
  }

  @Test func aMalformedDiagramIsAMarbleError() {
    let scheduler = DispatchQueue.test
    #expect(
      scheduler.marbles("-1-[2", as: Int.self, tick: .seconds(1)) { $0 }
        == "marble error at index 3 of \"-1-[2\": an unterminated group"
    )
  }
}
