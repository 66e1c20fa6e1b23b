import Testing

@testable import RillCore

/// `collect(.byTime)`'s state machine, event by event, without threads or schedulers.
@Suite struct CollectByTimeStateMachineTests {
  typealias Machine = CollectByTimeStateMachine<Int, CombiningError>

  final class Timer: Cancellable {
    func cancel() {}
  }

  /// A subscribed machine with its clock's timer, as after `receive(subscription:)`.
  typealias Started = (Machine, CombiningTestSubscription, Timer)

  private func running(limit: Int = .max, demand: Subscribers.Demand = .none) -> Started {
    var machine = Machine(limit: limit)
    let upstream = CombiningTestSubscription()
    let accepted = machine.subscribed(upstream)
    #expect(accepted)
    let timer = Timer()
    let stale = machine.timerScheduled(timer)
    #expect(stale == nil)
    if demand > 0 { _ = machine.request(demand) }
    return (machine, upstream, timer)
  }

  private func describe(_ event: Machine.Event?) -> String {
    switch event {
    case .value(let values): "\(values)"
    case .completion(.finished): "|"
    case .completion(.failure): "^"
    case nil: "nil"
    }
  }

  @Test func aSecondSubscriptionIsRefused() {
    var (machine, _, _) = running()
    let second = machine.subscribed(CombiningTestSubscription())
    #expect(!second)
  }

  @Test func aValueBeforeTheSubscriptionIsIgnored() {
    var machine = Machine(limit: .max)
    let batch = machine.received(1)
    #expect(batch == nil)
    #expect(machine.buffer.isEmpty)
  }

  /// A completion before the subscription ends the subscription: the upstream is refused afterwards.
  @Test func aCompletionBeforeTheSubscriptionEndsIt() {
    var machine = Machine(limit: .max)
    let action = machine.upstreamCompleted(.finished)
    #expect(action == nil)
    let accepted = machine.subscribed(CombiningTestSubscription())
    #expect(!accepted)
  }

  @Test func eachTickTakesWhatWasCollectedWhenThereIsDemand() {
    var (machine, _, _) = running(demand: .max(1))
    #expect(machine.tick() == nil)
    _ = machine.received(1)
    _ = machine.received(2)
    #expect(machine.buffer == [1, 2])
    #expect(machine.tick() == [1, 2])
    #expect(machine.demand == .none)
    _ = machine.received(3)
    #expect(machine.tick() == nil)
    #expect(machine.buffer == [3])
    _ = machine.request(.max(1))
    #expect(machine.tick() == [3])
  }

  @Test func aFullBufferIsTakenAtOnce() {
    var (machine, _, _) = running(limit: 2, demand: .max(1))
    #expect(machine.received(1) == nil)
    #expect(machine.received(2) == [1, 2])
    #expect(machine.received(3) == nil)
    #expect(machine.received(4) == nil)
    #expect(machine.buffer == [3, 4])
    _ = machine.received(5)
    _ = machine.request(.max(1))
    #expect(machine.tick() == [3, 4])
    #expect(machine.buffer == [5])
  }

  @Test func requestsHandBackTheUpstreamWhileCollecting() {
    var (machine, upstream, _) = running()
    let forwarded = machine.request(.max(2))
    #expect(forwarded as? CombiningTestSubscription === upstream)
    let returned = machine.downstreamDemanded(.max(1))
    #expect(returned.upstream as? CombiningTestSubscription === upstream)
    #expect(!returned.isHolding)
    #expect(machine.demand == .max(3))
  }

  @Test func aFailureDropsWhatWasCollected() {
    var (machine, _, timer) = running(demand: .unlimited)
    _ = machine.received(1)
    let action = machine.upstreamCompleted(.failure(.boom))
    #expect(action?.timer as? Timer === timer)
    #expect(action?.batch == nil)
    #expect(action?.completesNow == true)
    #expect(machine.buffer.isEmpty)
    let again = machine.upstreamCompleted(.finished)
    #expect(again == nil)
    #expect(machine.received(2) == nil)
    #expect(machine.tick() == nil)
  }

  @Test func finishingEmitsWhatIsLeftThenCompletes() {
    var (machine, upstream, _) = running(demand: .max(1))
    _ = machine.received(1)
    let action = machine.upstreamCompleted(.finished)
    #expect(action?.batch == [1])
    #expect(action?.completesNow == true)
    let forwarded = machine.request(.max(1))
    #expect(forwarded == nil)
    #expect(describe(machine.push(.value([1]))) == "[1]")
    let queued = machine.push(.completion(.finished))
    #expect(queued == nil)
    #expect(describe(machine.next()) == "|")
    machine.deliveringCompletion()
    #expect(describe(machine.next()) == "nil")
    #expect(upstream.cancelCount == 0)
  }

  @Test func finishingWithNothingCollectedCompletesAtOnce() {
    var (machine, _, _) = running()
    let action = machine.upstreamCompleted(.finished)
    #expect(action?.batch == nil)
    #expect(action?.completesNow == true)
  }

  /// Without demand, what is left waits with the completion until the downstream asks for it.
  @Test func finishingWithoutDemandHoldsWhatIsLeft() {
    var (machine, _, _) = running()
    _ = machine.received(1)
    let action = machine.upstreamCompleted(.finished)
    #expect(action?.batch == nil)
    #expect(action?.completesNow == false)
    #expect(machine.buffer == [1])
    #expect(machine.tick() == nil)
    #expect(machine.received(2) == nil)
    let nothing = machine.flushHeld()
    #expect(nothing.batch == nil && nothing.completion == nil)
    let forwarded = machine.request(.max(1))
    #expect(forwarded == nil)
    let flushed = machine.flushHeld()
    #expect(flushed.batch == [1])
    #expect(flushed.completion != nil)
    let again = machine.flushHeld()
    #expect(again.batch == nil && again.completion == nil)
  }

  /// With `.byTimeOrCount`, what is left may take several arrays, one per demand.
  @Test func heldValuesAreReleasedOneArrayPerDemand() {
    var (machine, _, _) = running(limit: 2)
    for value in 1...5 { _ = machine.received(value) }
    _ = machine.request(.max(1))
    let action = machine.upstreamCompleted(.finished)
    #expect(action?.batch == [1, 2])
    #expect(action?.completesNow == false)
    #expect(machine.buffer == [3, 4, 5])
    let returned = machine.downstreamDemanded(.max(1))
    #expect(returned.upstream == nil)
    #expect(returned.isHolding)
    let second = machine.flushHeld()
    #expect(second.batch == [3, 4])
    #expect(second.completion == nil)
    _ = machine.request(.max(1))
    let last = machine.flushHeld()
    #expect(last.batch == [5])
    #expect(last.completion != nil)
    #expect(!machine.downstreamDemanded(.max(1)).isHolding)
  }

  @Test func aTimerScheduledAfterTheEndIsHandedBack() {
    var machine = Machine(limit: .max)
    _ = machine.subscribed(CombiningTestSubscription())
    _ = machine.cancel()
    let timer = Timer()
    let handedBack = machine.timerScheduled(timer)
    #expect(handedBack as? Timer === timer)
  }

  @Test func cancelBeforeTheSubscriptionRefusesTheUpstream() {
    var machine = Machine(limit: .max)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream == nil && cancelled.timer == nil)
    let accepted = machine.subscribed(CombiningTestSubscription())
    #expect(!accepted)
  }

  @Test func cancelWhileCollectingHandsBackTheUpstreamAndTheTimer() {
    var (machine, upstream, timer) = running(demand: .unlimited)
    _ = machine.received(1)
    #expect(describe(machine.push(.value([0]))) == "[0]")
    _ = machine.push(.value([1]))
    let cancelled = machine.cancel()
    #expect(cancelled.upstream as? CombiningTestSubscription === upstream)
    #expect(cancelled.timer as? Timer === timer)
    #expect(machine.buffer.isEmpty)
    #expect(describe(machine.next()) == "nil")
    #expect(machine.received(2) == nil)
    #expect(machine.tick() == nil)
    let pushed = machine.push(.value([3]))
    #expect(pushed == nil)
  }

  @Test func cancelWhileHoldingDropsWhatIsHeld() {
    var (machine, _, _) = running()
    _ = machine.received(1)
    _ = machine.upstreamCompleted(.finished)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream == nil && cancelled.timer == nil)
    #expect(machine.buffer.isEmpty)
    _ = machine.request(.max(1))
    let flushed = machine.flushHeld()
    #expect(flushed.batch == nil && flushed.completion == nil)
  }

  @Test func cancelWhileCompletingDropsTheQueuedCompletion() {
    var (machine, _, _) = running(demand: .max(1))
    _ = machine.received(1)
    _ = machine.upstreamCompleted(.finished)
    #expect(describe(machine.push(.value([1]))) == "[1]")
    _ = machine.push(.completion(.finished))
    _ = machine.cancel()
    #expect(describe(machine.next()) == "nil")
  }
}
