import RillTestSupport
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
    expectEqual(index, 0)
    #expect(previous == nil)
    guard case .request(_, let demand) = machine.childSubscribed(0, child) else {
      Issue.record("expected the child to be asked for the outstanding demand")
      return (machine, upstream, child)
    }
    expectEqual(demand, .max(2))
    return (machine, upstream, child)
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
    expectEqual(index, 1)
    #expect(previous as? TestSubscription === first)
    let took = machine.childValue(0)
    #expect(!took)
    guard case .cancel = machine.childSubscribed(0, TestSubscription()) else {
      Issue.record("expected a replaced child's subscription to be cancelled")
      return
    }
    guard case .request(_, let demand) = machine.childSubscribed(1, TestSubscription()) else {
      Issue.record("expected the new child to be asked for the outstanding demand")
      return
    }
    expectEqual(demand, .max(2))
  }

  @Test func valuesTakeDemandAndAreDroppedWithoutIt() {
    var (machine, _, _) = running()
    let took1 = machine.childValue(0)
    #expect(took1)
    let took2 = machine.childValue(0)
    #expect(took2)
    let took3 = machine.childValue(0)
    #expect(!took3)
  }

  @Test func demandReturnedForAValueCountsAndDemandIsForwardedToTheCurrentChild() {
    var (machine, _, child) = running()
    _ = machine.childValue(0)
    machine.delivered(.max(1))
    let took1 = machine.childValue(0)
    #expect(took1)
    let took2 = machine.childValue(0)
    #expect(took2)
    let took3 = machine.childValue(0)
    #expect(!took3)
    #expect(machine.request(.max(3)) as? TestSubscription === child)
  }

  /// Nothing is queued: a completion decided while values are being delivered is sent at once, and the delivery
  /// lock orders it after them.
  @Test func aCompletionDuringDeliveriesIsDecidedAtOnce() {
    var (machine, _, _) = running()
    let took1 = machine.childValue(0)
    #expect(took1)
    let took2 = machine.childValue(0)
    #expect(took2)
    let sent1 = machine.upstreamCompleted(.finished).action.completion
    #expect(sent1 == nil)
    let sent2 = machine.childCompleted(0, .finished).action.completion
    expectEqual(sent2, .finished)
  }

  @Test func theUpstreamsFinishWaitsForTheCurrentChild() {
    var (machine, _, _) = running()
    let sent1 = machine.upstreamCompleted(.finished).action.completion
    #expect(sent1 == nil)
    #expect(machine.upstreamValue() == nil)
    let sent2 = machine.childCompleted(0, .finished).action.completion
    expectEqual(sent2, .finished)
  }

  @Test func theUpstreamsFinishWithoutAChildCompletesAtOnce() {
    var machine = Machine()
    _ = machine.upstreamSubscribed(TestSubscription())
    let sent = machine.upstreamCompleted(.finished).action.completion
    expectEqual(sent, .finished)
  }

  @Test func aSecondUpstreamCompletionIsPassedOnAsCombineDoes() {
    var machine = Machine()
    _ = machine.upstreamSubscribed(TestSubscription())
    _ = machine.upstreamCompleted(.failure(.boom))
    let sent = machine.upstreamCompleted(.failure(.other)).action.completion
    expectEqual(sent, .failure(.other))
  }

  @Test func afterTheUpstreamFailedAChildsFinishIsNotPassedOn() {
    var machine = Machine()
    _ = machine.upstreamSubscribed(TestSubscription())
    _ = machine.upstreamValue()
    _ = machine.upstreamCompleted(.failure(.boom))
    let sent1 = machine.upstreamCompleted(.finished).action.completion
    #expect(sent1 == nil)
    let sent2 = machine.childCompleted(0, .finished).action.completion
    #expect(sent2 == nil)
  }

  @Test func theUpstreamsFailureCancelsTheChildButKeepsItCurrent() {
    var (machine, _, child) = running()
    let action = machine.upstreamCompleted(.failure(.boom)).action
    #expect(action.cancelling as? TestSubscription === child)
    expectEqual(action.completion, .failure(.boom))
    let took = machine.childValue(0)
    #expect(took)
    let sent = machine.childCompleted(0, .failure(.other)).action.completion
    #expect(sent == nil)
  }

  @Test func aChildHandingOverLateAfterTheUpstreamFailedIsAskedForTheDemand() {
    var machine = Machine()
    _ = machine.upstreamSubscribed(TestSubscription())
    _ = machine.request(.max(4))
    _ = machine.upstreamValue()
    let sent = machine.upstreamCompleted(.failure(.boom)).action.completion
    expectEqual(sent, .failure(.boom))
    guard case .request(_, let demand) = machine.childSubscribed(0, TestSubscription()) else {
      Issue.record("expected the late subscription to be kept")
      return
    }
    expectEqual(demand, .max(4))
  }

  @Test func aFinishedChildStaysCurrentAndKeepsALateSubscription() {
    var (machine, _, _) = running()
    let sent = machine.childCompleted(0, .finished).action.completion
    #expect(sent == nil)
    let forwarded = machine.request(.max(1))
    #expect(forwarded == nil)
    guard case .request = machine.childSubscribed(0, TestSubscription()) else {
      Issue.record("expected the late subscription of the current child to be kept")
      return
    }
  }

  @Test func aChildsFailureCancelsTheUpstreamAndEndsEverything() {
    var (machine, upstream, _) = running()
    let action = machine.childCompleted(0, .failure(.other)).action
    #expect(action.cancelling as? TestSubscription === upstream)
    expectEqual(action.completion, .failure(.other))
    #expect(action.silencesValues)
    let took = machine.childValue(0)
    #expect(!took)
    #expect(machine.upstreamValue() == nil)
    let sent = machine.upstreamCompleted(.finished).action.completion
    #expect(sent == nil)
    let cancelling = machine.cancel()
    #expect(cancelling.isEmpty)
  }

  @Test func cancelReturnsTheChildThenTheUpstreamAndSilencesEverything() {
    var (machine, upstream, child) = running()
    let cancelled = machine.cancel()
    expectEqual(cancelled.count, 2)
    #expect(cancelled.first as? TestSubscription === child)
    #expect(cancelled.last as? TestSubscription === upstream)
    let took = machine.childValue(0)
    #expect(!took)
    #expect(machine.upstreamValue() == nil)
    let cancelling = machine.cancel()
    #expect(cancelling.isEmpty)
  }

  @Test func cancelWhileAwaitingTheChildReturnsOnlyTheUpstream() {
    var machine = Machine()
    let upstream = TestSubscription()
    _ = machine.upstreamSubscribed(upstream)
    _ = machine.upstreamValue()
    let cancelled = machine.cancel()
    expectEqual(cancelled.count, 1)
    #expect(cancelled.first as? TestSubscription === upstream)
    guard case .cancel = machine.childSubscribed(0, TestSubscription()) else {
      Issue.record("expected a subscription after cancel to be cancelled")
      return
    }
  }

  /// What a completion lets go of (the completed publisher's subscription), the machine hands back for the
  /// subscription to release after unlocking.
  @Test func aFinishedChildsSubscriptionIsHandedBack() {
    var (machine, _, child) = running()
    let (_, released) = machine.childCompleted(0, .finished)
    guard case .active(_, .running(_, let subscription))? = released else {
      Issue.record("expected the running child's phase")
      return
    }
    #expect(subscription as? TestSubscription === child)
  }
}

extension SwitchToLatestStateMachine.CompletionAction {
  /// The completion sent downstream, if any.
  fileprivate var completion: Subscribers.Completion<Failure>? {
    switch self {
    case .none: nil
    case .complete(let completion, _), .fail(let completion, _): completion
    }
  }

  /// The subscription cancelled before the completion, if any.
  fileprivate var cancelling: (any Subscription)? {
    switch self {
    case .none: nil
    case .complete(_, let cancelling), .fail(_, let cancelling): cancelling
    }
  }

  /// Whether no child's value reaches downstream any more.
  fileprivate var silencesValues: Bool {
    if case .fail = self { true } else { false }
  }
}
