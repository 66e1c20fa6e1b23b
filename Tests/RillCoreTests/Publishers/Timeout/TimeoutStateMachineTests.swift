import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

/// `timeout`'s state machine, event by event, without threads or schedulers.
@Suite struct TimeoutStateMachineTests {
  typealias Machine = TimeoutStateMachine<String, CombiningError>

  final class Timer: Cancellable {
    func cancel() {}
  }

  /// A subscribed machine whose clock runs with `timer`, as after `receive(subscription:)`.
  private func running() -> (Machine, TestSubscription, Timer, generation: UInt64) {
    var machine = Machine()
    let upstream = TestSubscription()
    let accepted = machine.upstreamSubscribed(upstream)
    #expect(accepted)
    let (generation, previous) = machine.restartClock()
    #expect(previous == nil)
    let timer = Timer()
    let stale = machine.timerScheduled(timer, for: generation)
    #expect(stale == nil)
    return (machine, upstream, timer, generation)
  }

  private func describe(_ event: Machine.Event?) -> String {
    switch event {
    case .value(let value): value
    case .completion(.finished): "|"
    case .completion(.failure): "^"
    case .dropped(let value): "dropped \(value)"
    case nil: "nil"
    }
  }

  @Test func aSecondSubscriptionIsRefused() {
    var (machine, _, _, _) = running()
    let second = machine.upstreamSubscribed(TestSubscription())
    #expect(!second)
  }

  @Test func nothingIsTakenInBeforeTheSubscription() {
    var machine = Machine()
    #expect(!machine.acceptsEvents)
    let completed = machine.upstreamCompleted(.finished)
    #expect(!completed.schedules)
    let request = machine.request()
    #expect(request.upstream == nil)
    #expect(!request.restartsClock)
    #expect(machine.upstream == nil)
  }

  /// As in Combine, a cancel before the upstream subscribes does nothing: the subscription is taken afterwards.
  @Test func aCancelBeforeTheSubscriptionDoesNothing() {
    var machine = Machine()
    let cancelled = machine.cancel()
    #expect(cancelled.upstream == nil && cancelled.timer == nil)
    let accepted = machine.upstreamSubscribed(TestSubscription())
    #expect(accepted)
    #expect(machine.acceptsEvents)
  }

  @Test func restartingTheClockHandsBackThePreviousTimer() {
    var (machine, _, timer, first) = running()
    let restart = machine.restartClock()
    #expect(restart.generation != first)
    #expect(restart.cancelling as? Timer === timer)
    #expect(machine.timer == nil)
    let next = Timer()
    let stale = machine.timerScheduled(next, for: restart.generation)
    #expect(stale == nil)
    #expect(machine.timer as? Timer === next)
  }

  @Test func aTimerOfAnEarlierStartIsHandedBackAtOnce() {
    var (machine, _, _, first) = running()
    _ = machine.restartClock()
    let late = Timer()
    let handedBack = machine.timerScheduled(late, for: first)
    #expect(handedBack as? Timer === late)
  }

  @Test func aStaleTimerDoesNothing() {
    var (machine, _, _, first) = running()
    _ = machine.restartClock()
    let fired = machine.timerFired(first)
    #expect(fired == nil)
    #expect(machine.acceptsEvents)
  }

  @Test func onlyTheFirstRequestThatReachesTheUpstreamRestartsTheClock() {
    var (machine, upstream, _, _) = running()
    let first = machine.request()
    #expect(first.upstream as? TestSubscription === upstream)
    #expect(first.restartsClock)
    let second = machine.request()
    #expect(second.upstream as? TestSubscription === upstream)
    #expect(!second.restartsClock)
  }

  @Test func timingOutEndsTheSubscriptionAndQueuesItsCompletion() {
    var (machine, upstream, timer, generation) = running()
    let fired = machine.timerFired(generation)
    #expect(fired?.upstream as? TestSubscription === upstream)
    #expect(fired?.timer as? Timer === timer)
    #expect(!machine.acceptsEvents)
    #expect(machine.upstream == nil)
    let again = machine.timerFired(generation)
    #expect(again == nil)
    expectEqual(describe(machine.timedOut(with: .failure(.boom))), "^")
    #expect(describe(machine.next()) == "nil")
    let late = machine.arrive("late")
    #expect(late == nil)
  }

  /// Values released while another call delivers are dropped by the time-out; its completion follows at once.
  @Test func timingOutDropsTheValuesNotYetDelivered() {
    var (machine, _, _, generation) = running()
    expectEqual(describe(machine.arrive("a")), "a")
    let queued = machine.arrive("b")
    #expect(queued == nil)
    _ = machine.timerFired(generation)
    let completion = machine.timedOut(with: .finished)
    #expect(completion == nil)
    expectEqual(describe(machine.next()), "|")
    #expect(describe(machine.next()) == "nil")
  }

  @Test func theUpstreamsCompletionStopsTheClockAndKeepsTheLink() {
    var (machine, upstream, timer, generation) = running()
    let completed = machine.upstreamCompleted(.finished)
    #expect(completed.schedules)
    #expect(completed.cancelling as? Timer === timer)
    #expect(!machine.acceptsEvents)
    #expect(machine.upstream as? TestSubscription === upstream)
    let again = machine.upstreamCompleted(.finished)
    #expect(!again.schedules)
    let fired = machine.timerFired(generation)
    #expect(fired == nil)
    // A first request still reaches the upstream; the clock it restarts is dropped at once.
    let request = machine.request()
    #expect(request.upstream as? TestSubscription === upstream)
    #expect(request.restartsClock)
    let restart = machine.restartClock()
    #expect(restart.cancelling == nil)
    let stale = Timer()
    let handedBack = machine.timerScheduled(stale, for: restart.generation)
    #expect(handedBack as? Timer === stale)
    #expect(!machine.request().restartsClock)
  }

  /// Each scheduler action releases the oldest event, whichever action runs first, so a concurrent scheduler
  /// cannot reorder them.
  @Test func eventsAreReleasedInArrivalOrder() {
    var (machine, _, _, _) = running()
    let acceptsA = machine.upstreamValue("a")
    let acceptsB = machine.upstreamValue("b")
    #expect(acceptsA && acceptsB)
    _ = machine.upstreamCompleted(.finished)
    expectEqual(describe(machine.release()), "a")
    #expect(describe(machine.next()) == "nil")
    expectEqual(describe(machine.release()), "b")
    #expect(describe(machine.next()) == "nil")
    expectEqual(describe(machine.release()), "|")
  }

  @Test func eventsAreDeliveredOneAtATimeInOrder() {
    var (machine, upstream, _, _) = running()
    expectEqual(describe(machine.arrive("a")), "a")
    let queued = machine.arrive("b")
    #expect(queued == nil)
    _ = machine.upstreamCompleted(.finished)
    let completion = machine.release()
    #expect(completion == nil)
    expectEqual(describe(machine.next()), "b")
    expectEqual(describe(machine.next()), "|")
    _ = machine.deliveringCompletion()
    #expect(machine.upstream == nil)
    #expect(describe(machine.next()) == "nil")
    let cancelled = machine.cancel()
    #expect(cancelled.upstream == nil)
    expectEqual(upstream.cancelCount, 0)
  }

  @Test func cancelWhileRunningHandsBackTheUpstreamAndTheTimer() {
    var (machine, upstream, timer, generation) = running()
    expectEqual(describe(machine.arrive("a")), "a")
    _ = machine.arrive("b")
    let cancelled = machine.cancel()
    #expect(cancelled.upstream as? TestSubscription === upstream)
    #expect(cancelled.timer as? Timer === timer)
    #expect(describe(machine.next()) == "nil")
    let fired = machine.timerFired(generation)
    #expect(fired == nil)
    let pushed = machine.arrive("c")
    #expect(pushed == nil)
    let request = machine.request()
    #expect(request.upstream == nil)
    let again = machine.cancel()
    #expect(again.upstream == nil && again.timer == nil)
    let acceptsAfterCancel = machine.upstreamSubscribed(TestSubscription())
    #expect(!acceptsAfterCancel)
  }

  /// As in Combine, a cancel while the upstream's completion waits on the scheduler still reaches the upstream,
  /// and the completion is not delivered.
  @Test func cancelWhileCompletingReachesTheUpstream() {
    var (machine, upstream, _, _) = running()
    _ = machine.upstreamCompleted(.finished)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream as? TestSubscription === upstream)
    #expect(cancelled.timer == nil)
    let completion = machine.release()
    #expect(completion == nil)
  }

  /// A cancel during the delivery of a value drops the time-out's completion queued behind it.
  @Test func cancelAfterTheTimeOutDropsItsQueuedCompletion() {
    var (machine, _, _, generation) = running()
    expectEqual(describe(machine.arrive("a")), "a")
    _ = machine.timerFired(generation)
    let completion = machine.timedOut(with: .finished)
    #expect(completion == nil)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream == nil)
    #expect(describe(machine.next()) == "nil")
  }

  /// A cancel between the timer firing and its completion being queued ends the subscription first: the
  /// completion is not queued behind a value another call is delivering.
  @Test func cancelWhileTheTimeOutIsMadeQueuesNoCompletion() {
    var (machine, _, _, generation) = running()
    expectEqual(describe(machine.arrive("a")), "a")
    _ = machine.timerFired(generation)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream == nil && cancelled.timer == nil)
    let completion = machine.timedOut(with: .finished)
    #expect(completion == nil)
    #expect(describe(machine.next()) == "nil")
  }
}

extension TimeoutStateMachine {
  /// A value arrives and its scheduler action runs at once.
  fileprivate mutating func arrive(_ value: Value) -> Event? {
    guard upstreamValue(value) else { return nil }
    return release()
  }
}
