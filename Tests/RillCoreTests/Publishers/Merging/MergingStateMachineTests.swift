import RillTesting
import Testing

@testable import RillCore

@Suite struct MergingStateMachineTests {
  typealias Machine = MergingStateMachine<String, CombiningError>

  private func subscribed(maxPublishers: Subscribers.Demand = .unlimited) -> (Machine, TestSubscription) {
    var machine = Machine(maxPublishers: maxPublishers)
    let upstream = TestSubscription()
    guard case .request(let demand) = machine.outerSubscribed(upstream) else {
      Issue.record("expected a request upstream")
      return (machine, upstream)
    }
    #expect(demand == maxPublishers)
    return (machine, upstream)
  }

  @Test func secondOuterSubscriptionIsCancelled() {
    var (machine, _) = subscribed()
    guard case .cancel = machine.outerSubscribed(TestSubscription()) else {
      Issue.record("expected cancel")
      return
    }
  }

  @Test func directDeliveryUnderFiniteDemandReturnsOne() {
    var (machine, _) = subscribed()
    _ = machine.request(.max(1))
    let index = machine.outerValue()!
    guard case .request(let demand) = machine.childSubscribed(index, TestSubscription()) else {
      Issue.record("expected a request")
      return
    }
    #expect(demand == .max(1))
    guard case .deliver(let value, let returning) = machine.childValue(index, "a") else {
      Issue.record("expected delivery")
      return
    }
    #expect(value == "a")
    #expect(returning == .max(1))
    guard case (.idle, let upgrade) = machine.delivered(.none) else {
      Issue.record("expected idle")
      return
    }
    #expect(upgrade.isEmpty)
  }

  @Test func valueWithoutDemandIsQueuedAndDeliveredOnRequest() {
    var (machine, _) = subscribed()
    let index = machine.outerValue()!
    let child = TestSubscription()
    _ = machine.childSubscribed(index, child)
    guard case .none = machine.childValue(index, "a") else {
      Issue.record("expected queueing")
      return
    }
    guard case (.deliver(let value, let request), _) = machine.request(.max(1)) else {
      Issue.record("expected delivery")
      return
    }
    #expect(value == "a")
    #expect(isSame(request.subscription, child))
  }

  @Test func valueWhileDeliveringIsQueuedForTheDrainer() {
    var (machine, _) = subscribed()
    _ = machine.request(.unlimited)
    let first = machine.outerValue()!
    let second = machine.outerValue()!
    _ = machine.childSubscribed(first, TestSubscription())
    _ = machine.childSubscribed(second, TestSubscription())
    guard case .deliver = machine.childValue(first, "a") else {
      Issue.record("expected delivery")
      return
    }
    guard case .queued(returning: .none) = machine.childValue(second, "b") else {
      Issue.record("expected queueing while delivering")
      return
    }
    guard case (.deliver(let value, let request), _) = machine.delivered(.none) else {
      Issue.record("expected the drainer to deliver the queued value")
      return
    }
    #expect(value == "b")
    #expect(request.subscription == nil)
  }

  @Test func finishWaitsForChildrenAndTheDrainer() {
    var (machine, _) = subscribed()
    _ = machine.request(.unlimited)
    let index = machine.outerValue()!
    _ = machine.childSubscribed(index, TestSubscription())
    guard case .deliver = machine.childValue(index, "a") else {
      Issue.record("expected delivery")
      return
    }
    guard case .none = machine.outerCompleted(.finished) else {
      Issue.record("a child is alive")
      return
    }
    guard case .none = machine.childCompleted(index, .finished) else {
      Issue.record("the drainer is delivering")
      return
    }
    guard case (.finish, _) = machine.delivered(.none) else {
      Issue.record("expected the drainer to finish")
      return
    }
  }

  @Test func childFinishingAsksOuterForOneMoreWhenLimited() {
    var (machine, upstream) = subscribed(maxPublishers: .max(1))
    let index = machine.outerValue()!
    guard case .requestOuter(let subscription) = machine.childCompleted(index, .finished) else {
      Issue.record("expected a request for one more")
      return
    }
    #expect(isSame(subscription, upstream))
  }

  @Test func failureWhileDeliveringIsHandedToTheDrainer() {
    var (machine, upstream) = subscribed()
    _ = machine.request(.unlimited)
    let first = machine.outerValue()!
    let second = machine.outerValue()!
    let firstChild = TestSubscription()
    _ = machine.childSubscribed(first, firstChild)
    _ = machine.childSubscribed(second, TestSubscription())
    _ = machine.childValue(first, "a")
    guard case .cancel(let cancelling) = machine.childCompleted(second, .failure(.boom)) else {
      Issue.record("expected cancellation only")
      return
    }
    // Unlike Combine, a child's failure cancels the outer upstream too, after the other children.
    #expect(cancelling.count == 2)
    #expect(isSame(cancelling[0], firstChild))
    #expect(isSame(cancelling[1], upstream))
    guard case (.fail(.boom), _) = machine.delivered(.max(3)) else {
      Issue.record("expected the drainer to fail")
      return
    }
  }

  @Test func demandTurningUnlimitedUpgradesLiveChildren() {
    var (machine, _) = subscribed()
    let index = machine.outerValue()!
    let child = TestSubscription()
    _ = machine.childSubscribed(index, child)
    let (_, upgrade) = machine.request(.unlimited)
    #expect(upgrade.count == 1)
    #expect(isSame(upgrade.first, child))
    let (_, again) = machine.request(.max(1))
    #expect(again.isEmpty)
  }

  @Test func demandTurningUnlimitedUpgradesTheChildrenOnceTheQueueIsDelivered() {
    var (machine, _) = subscribed()
    let index = machine.outerValue()!
    let child = TestSubscription()
    _ = machine.childSubscribed(index, child)
    _ = machine.childValue(index, "a")
    guard case (.deliver("a", _), let early) = machine.request(.unlimited) else {
      Issue.record("expected the queued value first")
      return
    }
    #expect(early.isEmpty)
    guard case (.idle, let upgrade) = machine.delivered(.none) else {
      Issue.record("expected the drain to end")
      return
    }
    #expect(upgrade.count == 1)
    #expect(isSame(upgrade.first, child))
  }

  @Test func cancelDuringTheDrainLeavesTheChildrenUnasked() {
    var (machine, _) = subscribed()
    let index = machine.outerValue()!
    _ = machine.childSubscribed(index, TestSubscription())
    _ = machine.childValue(index, "a")
    _ = machine.request(.unlimited)
    #expect(machine.cancel().count == 2)
    let (_, upgrade) = machine.delivered(.none)
    #expect(upgrade.isEmpty)
  }

  @Test func cancelReturnsEverySubscriptionOnce() {
    var (machine, upstream) = subscribed()
    let index = machine.outerValue()!
    let child = TestSubscription()
    _ = machine.childSubscribed(index, child)
    let cancelling = machine.cancel()
    #expect(cancelling.count == 2)
    #expect(cancelling.contains { isSame($0, upstream) })
    #expect(machine.cancel().isEmpty)
    #expect(machine.outerValue() == nil)
    guard case .cancel = machine.childSubscribed(index, TestSubscription()) else {
      Issue.record("expected cancel after termination")
      return
    }
  }

  @Test func finishedChildsSlotIsReusedAndItsLateEventsAreIgnored() {
    var (machine, _) = subscribed()
    let first = machine.outerValue()!
    _ = machine.childSubscribed(first, TestSubscription())
    _ = machine.childCompleted(first, .finished)
    let second = machine.outerValue()!
    #expect(second.slot == first.slot)
    #expect(second != first)
    guard case .cancel = machine.childSubscribed(first, TestSubscription()) else {
      Issue.record("a finished child's second subscription must be cancelled")
      return
    }
    guard case .request = machine.childSubscribed(second, TestSubscription()) else {
      Issue.record("expected the new child to be asked for values")
      return
    }
    guard case .none = machine.outerCompleted(.finished) else {
      Issue.record("the new child is alive")
      return
    }
    guard case .finish = machine.childCompleted(second, .finished) else {
      Issue.record("expected finish once the new child finishes")
      return
    }
  }

  @Test func upgradeAndCancelFollowSubscriptionOrderNotSlotOrder() {
    var (machine, upstream) = subscribed()
    let first = machine.outerValue()!
    let second = machine.outerValue()!
    let secondChild = TestSubscription()
    _ = machine.childSubscribed(first, TestSubscription())
    _ = machine.childSubscribed(second, secondChild)
    _ = machine.childCompleted(first, .finished)
    let third = machine.outerValue()!
    let thirdChild = TestSubscription()
    _ = machine.childSubscribed(third, thirdChild)
    #expect(third.slot < second.slot)
    let (_, upgrade) = machine.request(.unlimited)
    #expect(upgrade.count == 2)
    #expect(isSame(upgrade.first, secondChild))
    #expect(isSame(upgrade.last, thirdChild))
    let cancelling = machine.cancel()
    #expect(cancelling.count == 3)
    #expect(isSame(cancelling[0], secondChild))
    #expect(isSame(cancelling[1], thirdChild))
    #expect(isSame(cancelling[2], upstream))
  }

  @Test func mergingStateFinishesWhenEveryChildFinishes() {
    var machine = Machine(mergingCount: 2)
    guard case .none = machine.childCompleted(Machine.mergedChild(0), .finished) else {
      Issue.record("one child is still alive")
      return
    }
    guard case .finish = machine.childCompleted(Machine.mergedChild(1), .finished) else {
      Issue.record("expected finish")
      return
    }
  }

  /// As in Combine, a failure from a child that has finished still fails the stream.
  @Test func aFinishedChildsLateFailureFails() {
    var (machine, _) = subscribed()
    let first = machine.outerValue()!
    _ = machine.childSubscribed(first, TestSubscription())
    _ = machine.childCompleted(first, .finished)
    guard case .fail(.boom, _) = machine.childCompleted(first, .failure(.boom)) else {
      Issue.record("expected the late failure to fail the stream")
      return
    }
    guard case .idle = machine.completed() else {
      Issue.record("expected nothing more to deliver")
      return
    }
  }

  /// Values queued for lack of demand are dropped by a failure; a value paid for while another was being
  /// delivered goes before it.
  @Test func failureWhileDeliveringKeepsPaidValuesAheadOfIt() {
    var (machine, _) = subscribed()
    _ = machine.request(.max(2))
    let first = machine.outerValue()!
    let second = machine.outerValue()!
    _ = machine.childSubscribed(first, TestSubscription())
    _ = machine.childSubscribed(second, TestSubscription())
    _ = machine.childValue(first, "a")
    guard case .queued(returning: .max(1)) = machine.childValue(second, "b") else {
      Issue.record("expected the value to be paid for")
      return
    }
    guard case .none = machine.childValue(second, "c") else {
      Issue.record("expected the value to wait for demand")
      return
    }
    _ = machine.outerCompleted(.failure(.boom))
    guard case (.deliver("b", _), _) = machine.delivered(.none) else {
      Issue.record("expected the paid value first")
      return
    }
    guard case (.fail(.boom), _) = machine.delivered(.none) else {
      Issue.record("expected the failure next")
      return
    }
    guard case .idle = machine.completed() else {
      Issue.record("expected the unpaid value to be dropped")
      return
    }
  }
}

private func isSame(_ subscription: (any Subscription)?, _ expected: TestSubscription) -> Bool {
  subscription?.combineIdentifier == expected.combineIdentifier
}
