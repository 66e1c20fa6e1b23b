import RillTesting
import Testing

@testable import RillCore

/// `switchToLatest`'s state machine, event by event, without threads.
@Suite struct SwitchToLatestStateMachineTests {
  typealias Machine = SwitchToLatestStateMachine<String, CombiningError>

  /// A machine subscribed to its upstream, with demand 2 and child 0 running.
  private func running() -> (Machine, upstream: TestSubscription, child: TestSubscription) {
    var machine = Machine()
    let upstream = TestSubscription()
    guard case .requestUnlimited = machine.upstreamSubscribed(upstream) else {
      Issue.record("expected the upstream to be asked for unlimited demand")
      return (machine, upstream, upstream)
    }
    _ = machine.request(.max(2))
    let child = TestSubscription()
    let (index, previous) = machine.upstreamValue()!
    #expect(index == 0)
    #expect(previous == nil)
    guard case .request(_, let demand) = machine.childSubscribed(0, child) else {
      Issue.record("expected the child to be asked for the outstanding demand")
      return (machine, upstream, child)
    }
    #expect(demand == .max(2))
    return (machine, upstream, child)
  }

  private func value(_ event: Machine.Event?) -> String? {
    guard case .value(let value) = event else { return nil }
    return value
  }

  private func completion(_ event: Machine.Event?) -> Subscribers.Completion<CombiningError>? {
    guard case .completion(let completion) = event else { return nil }
    return completion
  }

  @Test func aSecondUpstreamSubscriptionIsCancelled() {
    var (machine, _, _) = running()
    guard case .cancel = machine.upstreamSubscribed(TestSubscription()) else {
      Issue.record("expected a second subscription to be cancelled")
      return
    }
  }

  @Test func aNewChildCancelsThePreviousOneAndSilencesIt() {
    var (machine, _, first) = running()
    let (index, previous) = machine.upstreamValue()!
    #expect(index == 1)
    #expect(previous as? TestSubscription === first)
    #expect(machine.childValue(0, "stale") == nil)
    guard case .cancel = machine.childSubscribed(0, TestSubscription()) else {
      Issue.record("expected a replaced child's subscription to be cancelled")
      return
    }
    guard case .request(_, let demand) = machine.childSubscribed(1, TestSubscription()) else {
      Issue.record("expected the new child to be asked for the outstanding demand")
      return
    }
    #expect(demand == .max(2))
  }

  @Test func valuesTakeDemandAndAreDroppedWithoutIt() {
    var (machine, _, _) = running()
    #expect(value(machine.childValue(0, "a")) == "a")
    #expect(machine.delivered(.none) == nil)
    #expect(value(machine.childValue(0, "b")) == "b")
    #expect(machine.delivered(.none) == nil)
    #expect(machine.childValue(0, "c") == nil)
  }

  @Test func demandReturnedForADirectValueCountsAndDemandIsForwardedToTheCurrentChild() {
    var (machine, _, child) = running()
    _ = machine.childValue(0, "a")
    #expect(machine.delivered(.max(1)) == nil)
    #expect(value(machine.childValue(0, "b")) == "b")
    #expect(machine.delivered(.none) == nil)
    #expect(value(machine.childValue(0, "c")) == "c")
    #expect(machine.delivered(.none) == nil)
    #expect(machine.childValue(0, "d") == nil)
    #expect(machine.request(.max(3)) as? TestSubscription === child)
  }

  @Test func eventsDuringDeliveryAreQueuedInOrder() {
    var (machine, _, _) = running()
    #expect(value(machine.childValue(0, "a")) == "a")
    #expect(machine.childValue(0, "b") == nil)
    _ = machine.upstreamCompleted(.finished)
    let finished = machine.childCompleted(0, .finished)
    #expect(finished.deliver == nil)
    #expect(value(machine.next()) == "b")
    #expect(completion(machine.next()) == .finished)
    #expect(machine.next() == nil)
  }

  @Test func theUpstreamsFinishWaitsForTheCurrentChild() {
    var (machine, _, _) = running()
    #expect(machine.upstreamCompleted(.finished).deliver == nil)
    #expect(machine.upstreamValue() == nil)
    #expect(completion(machine.childCompleted(0, .finished).deliver) == .finished)
  }

  @Test func theUpstreamsFinishWithoutAChildCompletesAtOnce() {
    var machine = Machine()
    _ = machine.upstreamSubscribed(TestSubscription())
    #expect(completion(machine.upstreamCompleted(.finished).deliver) == .finished)
  }

  @Test func aSecondUpstreamCompletionIsPassedOnAsCombineDoes() {
    var machine = Machine()
    _ = machine.upstreamSubscribed(TestSubscription())
    _ = machine.upstreamCompleted(.failure(.boom))
    _ = machine.next()
    #expect(completion(machine.upstreamCompleted(.failure(.other)).deliver) == .failure(.other))
  }

  @Test func afterTheUpstreamFailedAChildsFinishIsNotPassedOn() {
    var machine = Machine()
    _ = machine.upstreamSubscribed(TestSubscription())
    _ = machine.upstreamValue()
    _ = machine.upstreamCompleted(.failure(.boom))
    _ = machine.next()
    #expect(machine.upstreamCompleted(.finished).deliver == nil)
    #expect(machine.childCompleted(0, .finished).deliver == nil)
  }

  @Test func theUpstreamsFailureCancelsTheChildButKeepsItCurrent() {
    var (machine, _, child) = running()
    let action = machine.upstreamCompleted(.failure(.boom))
    #expect(action.cancelling as? TestSubscription === child)
    #expect(completion(action.deliver) == .failure(.boom))
    _ = machine.next()
    #expect(value(machine.childValue(0, "late")) == "late")
    _ = machine.delivered(.none)
    #expect(machine.childCompleted(0, .failure(.other)).deliver == nil)
  }

  @Test func aChildHandingOverLateAfterTheUpstreamFailedIsAskedForTheDemand() {
    var machine = Machine()
    _ = machine.upstreamSubscribed(TestSubscription())
    _ = machine.request(.max(4))
    _ = machine.upstreamValue()
    #expect(completion(machine.upstreamCompleted(.failure(.boom)).deliver) == .failure(.boom))
    _ = machine.next()
    guard case .request(_, let demand) = machine.childSubscribed(0, TestSubscription()) else {
      Issue.record("expected the late subscription to be kept")
      return
    }
    #expect(demand == .max(4))
  }

  @Test func aFinishedChildStaysCurrentAndKeepsALateSubscription() {
    var (machine, _, _) = running()
    #expect(machine.childCompleted(0, .finished).deliver == nil)
    #expect(machine.request(.max(1)) == nil)
    guard case .request = machine.childSubscribed(0, TestSubscription()) else {
      Issue.record("expected the late subscription of the current child to be kept")
      return
    }
  }

  @Test func aChildsFailureCancelsTheUpstreamAndEndsEverything() {
    var (machine, upstream, _) = running()
    let action = machine.childCompleted(0, .failure(.other))
    #expect(action.cancelling as? TestSubscription === upstream)
    #expect(completion(action.deliver) == .failure(.other))
    #expect(machine.next() == nil)
    #expect(machine.upstreamValue() == nil)
    #expect(machine.upstreamCompleted(.finished).deliver == nil)
    #expect(machine.cancel().isEmpty)
  }

  @Test func aChildsFailureDuringDeliveryIsDeliveredAfterTheQueuedValues() {
    var (machine, _, _) = running()
    #expect(value(machine.childValue(0, "a")) == "a")
    #expect(machine.childValue(0, "b") == nil)
    #expect(machine.childCompleted(0, .failure(.boom)).deliver == nil)
    #expect(value(machine.next()) == "b")
    #expect(completion(machine.next()) == .failure(.boom))
    #expect(machine.next() == nil)
  }

  @Test func cancelReturnsTheChildThenTheUpstreamAndDropsQueuedEvents() {
    var (machine, upstream, child) = running()
    _ = machine.childValue(0, "a")
    _ = machine.childValue(0, "b")
    let cancelled = machine.cancel()
    #expect(cancelled.count == 2)
    #expect(cancelled.first as? TestSubscription === child)
    #expect(cancelled.last as? TestSubscription === upstream)
    #expect(machine.next() == nil)
    #expect(machine.childValue(0, "c") == nil)
    #expect(machine.upstreamValue() == nil)
    #expect(machine.cancel().isEmpty)
  }

  @Test func cancelWhileAwaitingTheChildReturnsOnlyTheUpstream() {
    var machine = Machine()
    let upstream = TestSubscription()
    _ = machine.upstreamSubscribed(upstream)
    _ = machine.upstreamValue()
    let cancelled = machine.cancel()
    #expect(cancelled.count == 1)
    #expect(cancelled.first as? TestSubscription === upstream)
    guard case .cancel = machine.childSubscribed(0, TestSubscription()) else {
      Issue.record("expected a subscription after cancel to be cancelled")
      return
    }
  }
}
