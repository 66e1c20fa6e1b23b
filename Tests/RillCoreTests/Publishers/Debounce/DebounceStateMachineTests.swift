import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

/// `debounce`'s state machine, event by event, without threads or schedulers.
@Suite struct DebounceStateMachineTests {
  typealias Machine = DebounceStateMachine<String, CombiningError>

  final class Timer: Cancellable {
    func cancel() {}
  }

  private func running() -> (Machine, TestSubscription) {
    var machine = Machine()
    let upstream = TestSubscription()
    let accepted = machine.upstreamSubscribed(upstream)
    #expect(accepted)
    return (machine, upstream)
  }

  @Test func aSecondSubscriptionIsRefused() {
    var (machine, _) = running()
    let acceptsSecond = machine.upstreamSubscribed(TestSubscription())
    #expect(!acceptsSecond)
  }

  @Test func aValueBeforeTheSubscriptionIsIgnored() {
    var machine = Machine()
    let early = machine.upstreamValue("a")
    #expect(early == nil)
    #expect(machine.pendingValue == nil)
  }

  @Test func aNewValueReplacesThePendingOneAndHandsBackItsTimer() {
    var (machine, _) = running()
    let first = machine.upstreamValue("a")!
    #expect(first.replaced == nil)
    let timer = Timer()
    let stale = machine.timerScheduled(timer, for: first.generation)
    #expect(stale == nil)
    let second = machine.upstreamValue("b")!
    #expect(second.generation != first.generation)
    #expect(second.replaced?.timer as? Timer === timer)
    expectEqual(second.replaced?.value, "a")
    expectEqual(machine.pendingValue, "b")
  }

  @Test func theTimerOfAReplacedValueIsHandedBackAtOnce() {
    var (machine, _) = running()
    let first = machine.upstreamValue("a")!
    _ = machine.upstreamValue("b")
    let late = Timer()
    let handedBack = machine.timerScheduled(late, for: first.generation)
    #expect(handedBack as? Timer === late)
  }

  @Test func aDueValueIsDeliveredOnlyWithDemand() {
    var (machine, _) = running()
    let first = machine.upstreamValue("a")!
    guard case .drop = machine.timerFired(first.generation) else {
      Issue.record("expected the value to be dropped without demand")
      return
    }
    #expect(machine.pendingValue == nil)
    machine.request(.max(1))
    let second = machine.upstreamValue("b")!
    guard case .deliver(.value("b"), _) = machine.timerFired(second.generation) else {
      Issue.record("expected b to be delivered")
      return
    }
    expectEqual(machine.demand, .none)
  }

  @Test func aValueMadeDueDuringADeliveryIsQueuedBehindIt() {
    var (machine, _) = running()
    machine.request(.unlimited)
    let first = machine.upstreamValue("a")!
    guard case .deliver(.value("a"), _) = machine.timerFired(first.generation) else {
      Issue.record("expected a to be delivered at once")
      return
    }
    let second = machine.upstreamValue("b")!
    guard case .deliver(nil, _) = machine.timerFired(second.generation) else {
      Issue.record("expected b to be queued behind a")
      return
    }
    guard case .value("b") = machine.next() else {
      Issue.record("expected b next")
      return
    }
    #expect(machine.next() == nil)
  }

  @Test func aStaleTimerDoesNothing() {
    var (machine, _) = running()
    machine.request(.unlimited)
    let first = machine.upstreamValue("a")!
    _ = machine.upstreamValue("b")
    guard case .none = machine.timerFired(first.generation) else {
      Issue.record("expected a stale timer to do nothing")
      return
    }
    expectEqual(machine.pendingValue, "b")
  }

  @Test func completionDropsThePendingValueAndIsScheduledOnce() {
    var (machine, _) = running()
    let first = machine.upstreamValue("a")!
    let timer = Timer()
    _ = machine.timerScheduled(timer, for: first.generation)
    let completed = machine.upstreamCompleted()
    #expect(completed.schedules)
    #expect(completed.released?.pending?.timer as? Timer === timer)
    expectEqual(completed.released?.pending?.value, "a")
    #expect(machine.pendingValue == nil)
    let schedulesAgain = machine.upstreamCompleted().schedules
    #expect(!schedulesAgain)
    let afterCompletion = machine.upstreamValue("b")
    #expect(afterCompletion == nil)
  }

  @Test func eventsAreDeliveredOneAtATimeInOrder() {
    var (machine, _) = running()
    guard case .value("a") = machine.push(.value("a")) else {
      Issue.record("expected the first event to be delivered at once")
      return
    }
    let queued = machine.push(.completion(.finished))
    #expect(queued == nil)
    guard case .completion(.finished) = machine.next() else {
      Issue.record("expected the completion next")
      return
    }
    _ = machine.deliveringCompletion()
    let afterDelivery = machine.next()
    #expect(afterDelivery == nil)
    let late = machine.push(.value("late"))
    #expect(late == nil)
  }

  @Test func cancelHandsBackTheUpstreamAndTheTimerAndEndsEverything() {
    var (machine, upstream) = running()
    let first = machine.upstreamValue("a")!
    let timer = Timer()
    _ = machine.timerScheduled(timer, for: first.generation)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream as? TestSubscription === upstream)
    #expect(cancelled.pending?.timer as? Timer === timer)
    let afterCancel = machine.upstreamValue("b")
    #expect(afterCancel == nil)
    let pushedAfterCancel = machine.push(.value("c"))
    #expect(pushedAfterCancel == nil)
    let upstreamAgain = machine.cancel().upstream
    #expect(upstreamAgain == nil)
    let acceptsAfterCancel = machine.upstreamSubscribed(TestSubscription())
    #expect(!acceptsAfterCancel)
  }
}
