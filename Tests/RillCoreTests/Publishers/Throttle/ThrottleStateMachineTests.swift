import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

/// `throttle`'s state machine, event by event, without threads or schedulers; time is an `Int`.
@Suite struct ThrottleStateMachineTests {
  typealias Machine = ThrottleStateMachine<String, CombiningError, Int, Receiver>

  /// Stands for the subscriber, which the machine holds until the subscription ends.
  final class Receiver {}

  typealias Started = (Machine, TestSubscription, Receiver)

  private func running(latest: Bool = true, demand: Subscribers.Demand = .unlimited) -> Started {
    let receiver = Receiver()
    var machine = Machine(downstream: receiver, interval: 10, latest: latest)
    let upstream = TestSubscription()
    let handedTo = machine.upstreamSubscribed(upstream)
    #expect(handedTo === receiver)
    if demand > 0 { machine.request(demand) }
    return (machine, upstream, receiver)
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

  /// Runs the scheduled emission at `now` and everything it queues.
  private func emitAll(_ machine: inout Machine, at now: Int) -> [String] {
    let readsClock = machine.emissionReadsClock()
    guard let (_, first) = machine.emit(at: readsClock == true ? now : nil).delivery else { return [] }
    var events = [describe(first)]
    while let event = machine.next() { events.append(describe(event)) }
    return events
  }

  @Test func aSecondSubscriptionIsRefused() {
    var (machine, _, _) = running()
    let second = machine.upstreamSubscribed(TestSubscription())
    #expect(second == nil)
  }

  @Test func nothingIsTakenInBeforeTheSubscription() {
    var machine = Machine(downstream: Receiver(), interval: 10, latest: true)
    #expect(!machine.acceptsEvents)
    machine.request(.unlimited)
    expectEqual(machine.demand, .none)
    let action = machine.upstreamValue("a", at: 0).action
    expectEqual(action, .none)
    let schedules = machine.upstreamCompleted(.finished)
    #expect(!schedules)
  }

  @Test func theFirstValueIsEmittedAtOnceAndSpendsDemand() {
    var (machine, _, _) = running(demand: .max(2))
    #expect(machine.acceptsEvents)
    let action = machine.upstreamValue("a", at: 3).action
    expectEqual(action, .emitNow)
    expectEqual(machine.demand, .max(1))
    expectEqual(machine.pendingValue, "a")
    expectEqual(machine.emissionReadsClock(), true)
    expectEqual(emitAll(&machine, at: 3), ["a"])
    #expect(machine.pendingValue == nil)
  }

  @Test func aValueWithoutDemandIsDropped() {
    var (machine, _, _) = running(demand: .none)
    let action = machine.upstreamValue("a", at: 0).action
    expectEqual(action, .none)
    #expect(machine.pendingValue == nil)
  }

  @Test func theNextValueWaitsForTheIntervalSinceTheLastEmission() {
    var (machine, _, _) = running()
    _ = machine.upstreamValue("a", at: 10)
    expectEqual(emitAll(&machine, at: 10), ["a"])
    let early = machine.upstreamValue("b", at: 12).action
    expectEqual(early, .emit(at: 20))
    expectEqual(emitAll(&machine, at: 20), ["b"])
    let onTime = machine.upstreamValue("c", at: 30).action
    expectEqual(onTime, .emitNow)
    expectEqual(emitAll(&machine, at: 30), ["c"])
    let late = machine.upstreamValue("d", at: 45).action
    expectEqual(late, .emitNow)
  }

  @Test func withLatestANewValueReplacesThePendingOne() {
    var (machine, _, _) = running(latest: true)
    _ = machine.upstreamValue("a", at: 0)
    let second = machine.upstreamValue("b", at: 1)
    expectEqual(second.action, .none)
    // Handed back, to be released after unlocking.
    expectEqual(second.replaced, "a")
    expectEqual(machine.pendingValue, "b")
    expectEqual(machine.demand, .unlimited)
    expectEqual(emitAll(&machine, at: 2), ["b"])
  }

  @Test func withoutLatestThePendingValueIsKept() {
    var (machine, _, _) = running(latest: false)
    _ = machine.upstreamValue("a", at: 0)
    let second = machine.upstreamValue("b", at: 1).action
    expectEqual(second, .none)
    expectEqual(machine.pendingValue, "a")
  }

  /// Demand is checked first: without it, a value does not replace the pending one even with `latest`.
  @Test func withoutDemandAValueDoesNotReplaceThePendingOne() {
    var (machine, _, _) = running(latest: true, demand: .max(1))
    _ = machine.upstreamValue("a", at: 0)
    _ = machine.upstreamValue("b", at: 1)
    expectEqual(machine.pendingValue, "a")
    machine.request(.max(1))
    _ = machine.upstreamValue("c", at: 2)
    expectEqual(machine.pendingValue, "c")
    expectEqual(machine.demand, .max(1))
  }

  @Test func demandAddsUp() {
    var (machine, _, _) = running(demand: .max(1))
    machine.request(.max(2))
    expectEqual(machine.demand, .max(3))
    machine.request(.unlimited)
    expectEqual(machine.demand, .unlimited)
  }

  @Test func anEmissionWithNothingPendingDoesNothing() {
    var (machine, _, _) = running()
    #expect(machine.emissionReadsClock() == nil)
    let emitted = machine.emit(at: 5).delivery
    #expect(emitted == nil)
    _ = machine.upstreamValue("a", at: 5)
    expectEqual(emitAll(&machine, at: 5), ["a"])
    #expect(machine.emissionReadsClock() == nil)
  }

  @Test func aCompletionWithNothingPendingSchedulesItsOwnEmission() {
    var (machine, upstream, _) = running()
    let schedules = machine.upstreamCompleted(.finished)
    #expect(schedules)
    #expect(!machine.acceptsEvents)
    expectEqual(machine.emissionReadsClock(), false)
    expectEqual(emitAll(&machine, at: 0), ["|"])
    guard case .finished = machine.phase else {
      Issue.record("expected the subscription to have finished")
      return
    }
    expectEqual(upstream.cancelCount, 0)
  }

  @Test func aCompletionWhileAValueIsPendingFollowsIt() {
    var (machine, _, receiver) = running()
    _ = machine.upstreamValue("a", at: 0)
    let schedules = machine.upstreamCompleted(.failure(.boom))
    #expect(!schedules)
    expectEqual(machine.pendingValue, "a")
    expectEqual(machine.emissionReadsClock(), false)
    let emitted = machine.emit(at: nil).delivery
    #expect(emitted?.downstream === receiver)
    expectEqual(describe(emitted?.first), "a")
    expectEqual(describe(machine.next()), "^")
    #expect(describe(machine.next()) == "nil")
  }

  @Test func nothingIsTakenInOnceTheUpstreamCompleted() {
    var (machine, _, _) = running(demand: .max(1))
    _ = machine.upstreamCompleted(.finished)
    let value = machine.upstreamValue("a", at: 0).action
    expectEqual(value, .none)
    let again = machine.upstreamCompleted(.failure(.boom))
    #expect(!again)
    machine.request(.max(5))
    expectEqual(machine.demand, .none)
    expectEqual(emitAll(&machine, at: 0), ["|"])
  }

  @Test func anEmissionWhileAnotherDeliversIsQueuedInOrder() {
    var (machine, _, _) = running()
    _ = machine.upstreamValue("a", at: 0)
    let first = machine.emit(at: 0).delivery
    expectEqual(describe(first?.first), "a")
    _ = machine.upstreamValue("b", at: 10)
    let second = machine.emit(at: 10).delivery
    #expect(second == nil)
    _ = machine.upstreamCompleted(.finished)
    let third = machine.emit(at: nil).delivery
    #expect(third == nil)
    expectEqual(describe(machine.next()), "b")
    expectEqual(describe(machine.next()), "|")
    #expect(describe(machine.next()) == "nil")
  }

  @Test func cancelBeforeTheSubscriptionReleasesTheSubscriberAndRefusesTheUpstream() {
    let receiver = Receiver()
    var machine = Machine(downstream: receiver, interval: 10, latest: true)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream == nil)
    #expect(cancelled.downstream === receiver)
    let late = machine.upstreamSubscribed(TestSubscription())
    #expect(late == nil)
  }

  @Test func cancelWhileRunningHandsBackTheUpstreamAndTheSubscriber() {
    var (machine, upstream, receiver) = running()
    _ = machine.upstreamValue("a", at: 0)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream as? TestSubscription === upstream)
    #expect(cancelled.downstream === receiver)
    #expect(machine.pendingValue == nil)
    #expect(machine.emissionReadsClock() == nil)
    let emitted = machine.emit(at: 0).delivery
    #expect(emitted == nil)
    let again = machine.cancel()
    #expect(again.upstream == nil && again.downstream == nil)
  }

  /// As in Combine, the upstream is still cancelled while its completion waits for the emission.
  @Test func cancelWhileCompletingStillReachesTheUpstream() {
    var (machine, upstream, receiver) = running()
    _ = machine.upstreamValue("a", at: 0)
    _ = machine.upstreamCompleted(.finished)
    let cancelled = machine.cancel()
    #expect(cancelled.upstream as? TestSubscription === upstream)
    #expect(cancelled.downstream === receiver)
    #expect(emitAll(&machine, at: 0).isEmpty)
  }

  @Test func cancelDuringDeliveryDropsWhatIsQueued() {
    var (machine, _, _) = running()
    _ = machine.upstreamValue("a", at: 0)
    _ = machine.upstreamCompleted(.finished)
    let emitted = machine.emit(at: nil).delivery
    expectEqual(describe(emitted?.first), "a")
    let cancelled = machine.cancel()
    #expect(cancelled.upstream == nil && cancelled.downstream == nil)
    #expect(describe(machine.next()) == "nil")
  }
}
