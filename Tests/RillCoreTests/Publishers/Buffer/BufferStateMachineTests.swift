import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

@Suite struct BufferStateMachineTests {
  typealias Machine = BufferStateMachine<Int, OpsMiscError>

  private func subscribed(size: Int, keepsFull: Bool, whenFull: Machine.FullAction) -> Machine {
    var machine = Machine(size: size, keepsFull: keepsFull, whenFull: whenFull)
    _ = machine.upstreamSubscribed(TestSubscription())
    machine.downstreamSubscribed()
    return machine
  }

  private func drainAll(_ machine: inout Machine) -> [String] {
    guard machine.startDraining() else { return [] }
    var steps: [String] = []
    while true {
      switch machine.nextStep() {
      case .deliver(let value): steps.append("\(value)")
      case .complete(.finished): return steps + ["|"]
      case .complete(.failure): return steps + ["^"]
      case .stop: return steps
      }
    }
  }

  @Test func initialDemandPerPrefetchStrategy() {
    var keepFull = Machine(size: 4, keepsFull: true, whenFull: .dropNewest)
    let first = keepFull.upstreamSubscribed(TestSubscription())
    let second = keepFull.upstreamSubscribed(TestSubscription())
    expectEqual(first, .max(4))
    #expect(second == nil)
    var byRequest = Machine(size: 4, keepsFull: false, whenFull: .dropNewest)
    let unlimited = byRequest.upstreamSubscribed(TestSubscription())
    expectEqual(unlimited, .unlimited)
  }

  @Test func deliversOnlyWithDemand() {
    var machine = subscribed(size: 3, keepsFull: false, whenFull: .dropNewest)
    for value in 1...3 { _ = machine.upstreamValue(value) }
    #expect(drainAll(&machine).isEmpty)
    _ = machine.request(.max(2))
    expectEqual(drainAll(&machine), ["1", "2"])
    _ = machine.upstreamCompleted(.finished)
    #expect(drainAll(&machine).isEmpty)
    _ = machine.request(.max(1))
    expectEqual(drainAll(&machine), ["3"])
    _ = machine.request(.max(1))
    expectEqual(drainAll(&machine), ["|"])
  }

  @Test func aFailureDuringADrainGoesOutBeforeTheRestOfTheBatch() {
    var machine = subscribed(size: 5, keepsFull: false, whenFull: .dropNewest)
    for value in 1...5 { _ = machine.upstreamValue(value) }
    _ = machine.request(.max(3))
    let claimed = machine.startDraining()
    #expect(claimed)
    var steps: [String] = []
    if case .deliver(let value) = machine.nextStep() { steps.append("\(value)") }
    _ = machine.upstreamCompleted(.failure(OpsMiscError()))
    loop: while true {
      switch machine.nextStep() {
      case .deliver(let value): steps.append("\(value)")
      case .complete: steps.append("^")
      case .stop: break loop
      }
    }
    expectEqual(steps, ["1", "^", "2", "3"])
    #expect(machine.isDone)
    let accepted = machine.request(.max(1))
    #expect(!accepted)
  }

  @Test func cancelBeforeSubscriptionOrAfterCompletionKeepsDownstream() {
    var early = Machine(size: 2, keepsFull: false, whenFull: .dropNewest)
    let earlyCancel = early.cancel()
    expectEqual(earlyCancel.releasesDownstream, false)
    let demand = early.upstreamSubscribed(TestSubscription())
    expectEqual(demand, .unlimited)
    var late = subscribed(size: 2, keepsFull: false, whenFull: .dropNewest)
    _ = late.upstreamCompleted(.failure(OpsMiscError()))
    expectEqual(drainAll(&late), ["^"])
    let lateCancel = late.cancel()
    expectEqual(lateCancel.releasesDownstream, false)
    var running = subscribed(size: 2, keepsFull: false, whenFull: .dropNewest)
    _ = running.upstreamValue(1)
    let runningCancel = running.cancel()
    #expect(runningCancel.releasesDownstream)
    // What the buffer held is handed back, to be released after unlocking.
    expectEqual(runningCancel.released?.values.elements, [1])
  }

  @Test func fullStrategies() {
    var newest = subscribed(size: 2, keepsFull: false, whenFull: .dropNewest)
    var oldest = subscribed(size: 2, keepsFull: false, whenFull: .dropOldest)
    var failing = subscribed(size: 2, keepsFull: false, whenFull: .fail)
    var droppedOldest: [Int] = []
    for value in 1...3 {
      _ = newest.upstreamValue(value)
      if let dropped = oldest.upstreamValue(value).dropped { droppedOldest.append(dropped) }
    }
    // Handed back, to be released after unlocking.
    expectEqual(droppedOldest, [1])
    _ = failing.upstreamValue(1)
    _ = failing.upstreamValue(2)
    guard case .makeError = failing.upstreamValue(3).action else {
      Issue.record("a full buffer should ask for the custom error")
      return
    }
    let cancelled = failing.failWhenFull(OpsMiscError())
    #expect(cancelled != nil)
    _ = newest.request(.unlimited)
    _ = oldest.request(.unlimited)
    _ = failing.request(.unlimited)
    expectEqual(drainAll(&newest), ["1", "2"])
    expectEqual(drainAll(&oldest), ["2", "3"])
    expectEqual(drainAll(&failing), ["1", "2", "^"])
  }

  @Test func drainLoopIsClaimedOnce() {
    var machine = subscribed(size: 2, keepsFull: false, whenFull: .dropNewest)
    let claimed = machine.startDraining()
    let claimedAgain = machine.startDraining()
    let step = machine.nextStep()
    let reclaimed = machine.startDraining()
    #expect(claimed)
    #expect(!claimedAgain)
    #expect(step.isStop)
    #expect(reclaimed)
  }

  @Test func nothingIsDeliveredBeforeDownstreamIsReady() {
    var machine = Machine(size: 2, keepsFull: false, whenFull: .dropNewest)
    _ = machine.upstreamSubscribed(TestSubscription())
    _ = machine.upstreamCompleted(.failure(OpsMiscError()))
    let early = machine.startDraining()
    #expect(!early)
    machine.downstreamSubscribed()
    expectEqual(drainAll(&machine), ["^"])
  }
}

extension BufferStateMachine.Step {
  fileprivate var isStop: Bool {
    if case .stop = self { return true }
    return false
  }
}
