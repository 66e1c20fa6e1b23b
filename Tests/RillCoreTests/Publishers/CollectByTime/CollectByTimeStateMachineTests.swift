import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

/// `collect(.byTime)`'s state machine, event by event, without threads or schedulers.
@Suite struct CollectByTimeStateMachineTests {
  typealias Machine = CollectByTimeStateMachine<Int, CombiningError>

  final class Timer: Cancellable {
    func cancel() {}
  }

  /// A subscribed machine with its clock's timer, as after `receive(subscription:)`.
  typealias Started = (Machine, TestSubscription, Timer)

  private func running(limit: Int = .max, demand: Subscribers.Demand = .none) -> Started {
    var machine = Machine(limit: limit)
    let upstream = TestSubscription()
    let accepted = machine.upstreamSubscribed(upstream)
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
    case .dropped(let values): "dropped \(values)"
    case nil: "nil"
    }
  }

  /// The events a caller handed `first` delivers: `first`, then what is queued after it.
  private func drained(_ first: Machine.Event?, _ machine: inout Machine) -> [String] {
    guard let first else { return [] }
    var events = [describe(first)]
    while let event = machine.next() { events.append(describe(event)) }
    return events
  }

  /// Runs `count` scheduler actions, each releasing the oldest queued event, and returns what they deliver.
  private func runActions(_ count: Int, _ machine: inout Machine) -> [String] {
    var events: [String] = []
    for _ in 0..<count { events += drained(machine.release(), &machine) }
    return events
  }

  @Test func aSecondSubscriptionIsRefused() {
    var (machine, _, _) = running()
    let second = machine.upstreamSubscribed(TestSubscription())
    #expect(!second)
  }

  @Test func aValueBeforeTheSubscriptionIsIgnored() {
    var machine = Machine(limit: .max)
    expectEqual(machine.upstreamValue(1), .ignored)
    #expect(machine.buffer.isEmpty)
  }

  /// A completion before the subscription ends the subscription: the upstream is refused afterwards.
  @Test func aCompletionBeforeTheSubscriptionEndsIt() {
    var machine = Machine(limit: .max)
    let action = machine.upstreamCompleted(.finished)
    #expect(action == nil)
    let accepted = machine.upstreamSubscribed(TestSubscription())
    #expect(!accepted)
  }

  @Test func eachTickTakesWhatWasCollectedWhenThereIsDemand() {
    var (machine, _, _) = running(demand: .max(1))
    #expect(drained(machine.timerFired(), &machine).isEmpty)
    _ = machine.upstreamValue(1)
    _ = machine.upstreamValue(2)
    expectEqual(machine.buffer, [1, 2])
    expectEqual(drained(machine.timerFired(), &machine), ["[1, 2]"])
    expectEqual(machine.demand, .none)
    _ = machine.upstreamValue(3)
    #expect(drained(machine.timerFired(), &machine).isEmpty)
    expectEqual(machine.buffer, [3])
    _ = machine.request(.max(1))
    expectEqual(drained(machine.timerFired(), &machine), ["[3]"])
  }

  /// As in Combine, a full buffer is taken at once and queued for a scheduler action, not delivered by the caller.
  @Test func aFullBufferIsQueuedForTheScheduler() {
    var (machine, _, _) = running(limit: 2, demand: .max(1))
    expectEqual(machine.upstreamValue(1), .collected)
    expectEqual(machine.upstreamValue(2), .scheduleDelivery)
    #expect(machine.buffer.isEmpty)
    #expect(describe(machine.next()) == "nil")
    expectEqual(runActions(1, &machine), ["[1, 2]"])
    expectEqual(machine.upstreamValue(3), .collected)
    expectEqual(machine.upstreamValue(4), .collected)
    expectEqual(machine.buffer, [3, 4])
    _ = machine.upstreamValue(5)
    _ = machine.request(.max(1))
    expectEqual(drained(machine.timerFired(), &machine), ["[3, 4]"])
    expectEqual(machine.buffer, [5])
  }

  /// An array is queued as it is taken: one taken while another is being delivered follows it.
  @Test func arraysTakenDuringADeliveryAreQueuedInOrder() {
    var (machine, _, _) = running(limit: 2, demand: .unlimited)
    _ = machine.upstreamValue(1)
    expectEqual(machine.upstreamValue(2), .scheduleDelivery)
    expectEqual(describe(machine.release()), "[1, 2]")
    _ = machine.upstreamValue(3)
    let ticked = machine.timerFired()
    #expect(ticked == nil)
    _ = machine.upstreamValue(4)
    expectEqual(machine.upstreamValue(5), .scheduleDelivery)
    expectEqual(machine.upstreamValue(6), .collected)
    expectEqual(describe(machine.next()), "[3]")
    #expect(describe(machine.next()) == "nil")
    expectEqual(runActions(1, &machine), ["[4, 5]"])
    expectEqual(machine.buffer, [6])
  }

  /// A tick releases the oldest queued array, even one whose own action has not run yet; that action then releases
  /// the tick's array, so each action releases one and the order holds.
  @Test func aTickDeliversAnArrayQueuedBeforeIt() {
    var (machine, _, _) = running(limit: 2, demand: .unlimited)
    _ = machine.upstreamValue(1)
    expectEqual(machine.upstreamValue(2), .scheduleDelivery)
    _ = machine.upstreamValue(3)
    expectEqual(drained(machine.timerFired(), &machine), ["[1, 2]"])
    expectEqual(runActions(1, &machine), ["[3]"])
    #expect(runActions(1, &machine).isEmpty)
  }

  @Test func requestsHandBackTheUpstreamWhileCollecting() {
    var (machine, upstream, _) = running()
    let forwarded = machine.request(.max(2))
    #expect(forwarded as? TestSubscription === upstream)
    let returned = machine.delivered(.max(1))
    #expect(returned.upstream as? TestSubscription === upstream)
    #expect(!returned.isHolding)
    expectEqual(machine.demand, .max(3))
  }

  @Test func aFailureDropsWhatWasCollected() {
    var (machine, _, timer) = running(demand: .unlimited)
    _ = machine.upstreamValue(1)
    let action = machine.upstreamCompleted(.failure(.boom))
    #expect(action?.timer as? Timer === timer)
    expectEqual(action?.actions, 1)
    // Handed back, to be released after unlocking.
    expectEqual(action?.released.buffer, [1])
    expectEqual(runActions(1, &machine), ["^"])
    #expect(machine.buffer.isEmpty)
    let again = machine.upstreamCompleted(.finished)
    #expect(again == nil)
    expectEqual(machine.upstreamValue(2), .ignored)
    #expect(machine.timerFired() == nil)
  }

  @Test func finishingEmitsWhatIsLeftThenCompletes() {
    var (machine, upstream, _) = running(demand: .max(1))
    _ = machine.upstreamValue(1)
    let action = machine.upstreamCompleted(.finished)
    expectEqual(action?.actions, 2)
    expectEqual(describe(machine.release()), "[1]")
    let forwarded = machine.request(.max(1))
    #expect(forwarded == nil)
    #expect(describe(machine.next()) == "nil")
    expectEqual(describe(machine.release()), "|")
    _ = machine.deliveringCompletion()
    #expect(describe(machine.next()) == "nil")
    expectEqual(upstream.cancelCount, 0)
  }

  @Test func finishingWithNothingCollectedQueuesTheCompletion() {
    var (machine, _, _) = running()
    let action = machine.upstreamCompleted(.finished)
    expectEqual(action?.actions, 1)
    expectEqual(runActions(1, &machine), ["|"])
  }

  /// Without demand, what is left waits with the completion until the downstream asks for it.
  @Test func finishingWithoutDemandHoldsWhatIsLeft() {
    var (machine, _, _) = running()
    _ = machine.upstreamValue(1)
    let action = machine.upstreamCompleted(.finished)
    expectEqual(action?.actions, 0)
    expectEqual(machine.buffer, [1])
    #expect(machine.timerFired() == nil)
    expectEqual(machine.upstreamValue(2), .ignored)
    #expect(machine.flushHeld() == nil)
    let forwarded = machine.request(.max(1))
    #expect(forwarded == nil)
    expectEqual(drained(machine.flushHeld(), &machine), ["[1]", "|"])
    #expect(machine.flushHeld() == nil)
  }

  /// With `.byTimeOrCount`, what is left may take several arrays, one per demand.
  @Test func heldValuesAreReleasedOneArrayPerDemand() {
    var (machine, _, _) = running(limit: 2)
    for value in 1...5 { _ = machine.upstreamValue(value) }
    _ = machine.request(.max(1))
    let action = machine.upstreamCompleted(.finished)
    expectEqual(action?.actions, 1)
    expectEqual(runActions(1, &machine), ["[1, 2]"])
    expectEqual(machine.buffer, [3, 4, 5])
    let returned = machine.delivered(.max(1))
    #expect(returned.upstream == nil)
    #expect(returned.isHolding)
    expectEqual(drained(machine.flushHeld(), &machine), ["[3, 4]"])
    _ = machine.request(.max(1))
    expectEqual(drained(machine.flushHeld(), &machine), ["[5]", "|"])
    #expect(!machine.delivered(.max(1)).isHolding)
  }

  @Test func aTimerScheduledAfterTheEndIsHandedBack() {
    var machine = Machine(limit: .max)
    _ = machine.upstreamSubscribed(TestSubscription())
    _ = machine.cancel()
    let timer = Timer()
    let handedBack = machine.timerScheduled(timer)
    #expect(handedBack as? Timer === timer)
  }

  @Test func cancelBeforeTheSubscriptionRefusesTheUpstream() {
    var machine = Machine(limit: .max)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream == nil && cancelled.timer == nil)
    let accepted = machine.upstreamSubscribed(TestSubscription())
    #expect(!accepted)
  }

  @Test func cancelWhileCollectingHandsBackTheUpstreamAndTheTimer() {
    var (machine, upstream, timer) = running(limit: 1, demand: .unlimited)
    expectEqual(machine.upstreamValue(1), .scheduleDelivery)
    expectEqual(describe(machine.release()), "[1]")
    expectEqual(machine.upstreamValue(2), .scheduleDelivery)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream as? TestSubscription === upstream)
    #expect(cancelled.timer as? Timer === timer)
    #expect(machine.buffer.isEmpty)
    #expect(describe(machine.next()) == "nil")
    #expect(describe(machine.release()) == "nil")
    expectEqual(machine.upstreamValue(3), .ignored)
    #expect(machine.timerFired() == nil)
  }

  @Test func cancelWhileHoldingDropsWhatIsHeld() {
    var (machine, _, _) = running()
    _ = machine.upstreamValue(1)
    _ = machine.upstreamCompleted(.finished)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream == nil && cancelled.timer == nil)
    #expect(machine.buffer.isEmpty)
    _ = machine.request(.max(1))
    #expect(machine.flushHeld() == nil)
  }

  @Test func cancelWhileCompletingDropsTheQueuedCompletion() {
    var (machine, _, _) = running(demand: .max(1))
    _ = machine.upstreamValue(1)
    let action = machine.upstreamCompleted(.finished)
    expectEqual(action?.actions, 2)
    expectEqual(describe(machine.release()), "[1]")
    _ = machine.cancel()
    #expect(describe(machine.next()) == "nil")
    #expect(describe(machine.release()) == "nil")
  }

  /// A cancel before the scheduler runs drops what was queued for it: the action finds nothing to deliver.
  @Test func cancelDropsWhatWaitsForTheScheduler() {
    var (machine, _, _) = running(limit: 1, demand: .unlimited)
    expectEqual(machine.upstreamValue(1), .scheduleDelivery)
    _ = machine.cancel()
    #expect(runActions(1, &machine).isEmpty)
  }
}
