import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

@Suite struct MergingStateMachineTests {
  typealias Machine = MergingStateMachine<String, CombiningError>

  private func subscribed(maxPublishers: Subscribers.Demand = .unlimited) -> (Machine, TestSubscription) {
    var machine = Machine(maxPublishers: maxPublishers)
    let upstream = TestSubscription()
    guard case .request(let demand) = machine.upstreamSubscribed(upstream) else {
      Issue.record("expected a request upstream")
      return (machine, upstream)
    }
    expectEqual(demand, maxPublishers)
    return (machine, upstream)
  }

  /// A machine with `count` subscribed children; returns their keys and subscriptions.
  private func withChildren(
    _ count: Int,
    demand: Subscribers.Demand
  ) -> (Machine, [MergingChildKey], [TestSubscription]) {
    var (machine, _) = subscribed()
    if demand > 0 { _ = machine.request(demand) }
    var keys: [MergingChildKey] = []
    var subscriptions: [TestSubscription] = []
    for _ in 0..<count {
      let key = machine.upstreamValue()!
      let subscription = TestSubscription()
      _ = machine.childSubscribed(key, subscription)
      keys.append(key)
      subscriptions.append(subscription)
    }
    return (machine, keys, subscriptions)
  }

  @Test func secondOuterSubscriptionIsCancelled() {
    var (machine, _) = subscribed()
    guard case .cancel = machine.upstreamSubscribed(TestSubscription()) else {
      Issue.record("expected cancel")
      return
    }
  }

  @Test func aValueWithDemandTakesItAtOnceAndReturnsOneToItsChild() {
    var (machine, _) = subscribed()
    _ = machine.request(.max(1))
    let index = machine.upstreamValue()!
    guard case .request(let demand) = machine.childSubscribed(index, TestSubscription()) else {
      Issue.record("expected a request")
      return
    }
    expectEqual(demand, .max(1))
    guard case .deliver(let value, let returning) = machine.childValue(index, "a") else {
      Issue.record("expected delivery")
      return
    }
    expectEqual(value, "a")
    expectEqual(returning, .max(1))
    expectEqual(machine.demand, .none)
    expectEqual(machine.deliveriesInProgress, 1)
    guard case .none = machine.delivered(.none) else {
      Issue.record("expected nothing more to do")
      return
    }
    expectEqual(machine.deliveriesInProgress, 0)
  }

  @Test func underUnlimitedDemandAValueIsDeliveredAndItsChildAskedForNothing() {
    var (machine, keys, _) = withChildren(1, demand: .unlimited)
    guard case .deliver("a", returning: .none) = machine.childValue(keys[0], "a") else {
      Issue.record("expected delivery")
      return
    }
  }

  @Test func aValueWithoutDemandIsBufferedAndARequestStartsTheDrain() {
    var (machine, keys, subscriptions) = withChildren(1, demand: .none)
    guard case .none = machine.childValue(keys[0], "a") else {
      Issue.record("expected buffering")
      return
    }
    guard case .drain = machine.request(.max(1)) else {
      Issue.record("expected the request to start the drain")
      return
    }
    guard case .deliver("a", let child) = machine.nextBuffered(afterAsking: false) else {
      Issue.record("expected the buffered value")
      return
    }
    #expect(isSame(child.subscription, subscriptions[0]))
    let answer = machine.deliveredBuffered(.none, asking: true)
    #expect(answer)
    #expect(machine.isAskingChild)
    guard case .end(upgrade: let upgrade) = machine.nextBuffered(afterAsking: true) else {
      Issue.record("expected the drain to end")
      return
    }
    #expect(upgrade.isEmpty)
    #expect(!machine.isDraining)
    #expect(!machine.isAskingChild)
  }

  /// Combine's `innerRecursive`: a value a child sends while the drainer asks it for more is buffered, also with
  /// demand, and the drainer delivers it next.
  @Test func aValueThatArrivesWhileTheDrainerAsksAChildIsBuffered() {
    var (machine, keys, _) = withChildren(1, demand: .none)
    _ = machine.childValue(keys[0], "a")
    _ = machine.request(.max(5))
    _ = machine.nextBuffered(afterAsking: false)
    let answer = machine.deliveredBuffered(.none, asking: true)
    #expect(answer)
    guard case .none = machine.childValue(keys[0], "b") else {
      Issue.record("expected buffering while the drainer asks")
      return
    }
    guard case .deliver("b", _) = machine.nextBuffered(afterAsking: true) else {
      Issue.record("expected the drainer to deliver it")
      return
    }
  }

  /// As in Combine, a request while a value is being delivered only adds demand; the delivery that returns last
  /// starts the drain.
  @Test func aRequestDuringADeliveryLeavesTheDrainToTheDelivery() {
    var (machine, keys, _) = withChildren(2, demand: .max(1))
    guard case .deliver = machine.childValue(keys[0], "a") else {
      Issue.record("expected delivery")
      return
    }
    _ = machine.childValue(keys[1], "b")
    guard case .none = machine.request(.max(1)) else {
      Issue.record("a delivery is in progress")
      return
    }
    guard case .drain = machine.delivered(.none) else {
      Issue.record("expected the delivery to start the drain")
      return
    }
  }

  /// A value that finds demand while values are buffered is delivered at once, as in Combine (a value sent from
  /// inside downstream while the drainer delivers, say).
  @Test func aValueWithDemandDoesNotWaitBehindTheBuffer() {
    var (machine, keys, _) = withChildren(2, demand: .none)
    _ = machine.childValue(keys[0], "a")
    _ = machine.request(.max(2))
    guard case .deliver("a", _) = machine.nextBuffered(afterAsking: false) else {
      Issue.record("expected the buffered value")
      return
    }
    guard case .deliver("b", returning: .max(1)) = machine.childValue(keys[1], "b") else {
      Issue.record("expected a nested delivery")
      return
    }
    expectEqual(machine.deliveriesInProgress, 2)
    guard case .none = machine.delivered(.none) else {
      Issue.record("the drainer's delivery is still in progress")
      return
    }
  }

  @Test func finishWaitsForTheChildrenAndTheBuffer() {
    var (machine, keys, _) = withChildren(1, demand: .none)
    _ = machine.childValue(keys[0], "a")
    guard case .none = machine.upstreamCompleted(.finished).action else {
      Issue.record("a child is alive")
      return
    }
    guard case .none = machine.childCompleted(keys[0], .finished).action else {
      Issue.record("a value is buffered")
      return
    }
    guard case .drain = machine.request(.max(1)) else {
      Issue.record("expected the drain")
      return
    }
    guard case .deliver("a", let child) = machine.nextBuffered(afterAsking: false) else {
      Issue.record("expected the buffered value")
      return
    }
    #expect(child.subscription == nil)
    let answer = machine.deliveredBuffered(.none, asking: false)
    #expect(!answer)
    guard case .finish = machine.nextBuffered(afterAsking: false) else {
      Issue.record("expected the drainer to finish")
      return
    }
  }

  /// A finish decided while a value is being delivered is sent at once: the delivery lock orders the two.
  @Test func finishDoesNotWaitForADirectDelivery() {
    var (machine, keys, _) = withChildren(1, demand: .unlimited)
    _ = machine.childValue(keys[0], "a")
    _ = machine.upstreamCompleted(.finished)
    guard case .finish = machine.childCompleted(keys[0], .finished).action else {
      Issue.record("expected finish")
      return
    }
  }

  @Test func childFinishingAsksOuterForOneMoreWhenLimited() {
    var (machine, upstream) = subscribed(maxPublishers: .max(1))
    let index = machine.upstreamValue()!
    guard case .requestUpstream(let subscription) = machine.childCompleted(index, .finished).action else {
      Issue.record("expected a request for one more")
      return
    }
    #expect(isSame(subscription, upstream))
  }

  @Test func childFailureCancelsTheOthersAndTheOuterAndDropsTheBuffer() {
    var (machine, keys, subscriptions) = withChildren(2, demand: .none)
    _ = machine.childValue(keys[0], "a")
    guard case .fail(.boom, let cancelling, _) = machine.childCompleted(keys[1], .failure(.boom)).action else {
      Issue.record("expected failure")
      return
    }
    // Unlike Combine, a child's failure cancels the outer upstream too, after the other children.
    expectEqual(cancelling.count, 2)
    #expect(isSame(cancelling[0], subscriptions[0]))
    #expect(machine.buffer.isEmpty)
    let answer = machine.request(.max(1)).isNone
    #expect(answer)
  }

  /// As in Combine, a flatMap's child value after the failure is delivered while demand remains, and dropped without.
  @Test func afterAFailureFlatMapDeliversOnlyWithinTheDemand() {
    var (machine, keys, _) = withChildren(2, demand: .max(1))
    _ = machine.upstreamCompleted(.failure(.boom))
    guard case .deliver = machine.childValue(keys[0], "a") else {
      Issue.record("expected delivery within the demand")
      return
    }
    _ = machine.delivered(.none)
    guard case .none = machine.childValue(keys[0], "b") else {
      Issue.record("expected the value to be dropped")
      return
    }
    #expect(machine.buffer.isEmpty)
  }

  @Test func aMergeDropsValuesAfterItsCompletion() {
    var machine = Machine(mergingCount: 2)
    _ = machine.request(.unlimited)
    _ = machine.childCompleted(Machine.mergedChild(0), .failure(.boom))
    guard case .none = machine.childValue(Machine.mergedChild(1), "late") else {
      Issue.record("expected the value to be dropped")
      return
    }
  }

  @Test func demandTurningUnlimitedUpgradesLiveChildren() {
    var (machine, keys, subscriptions) = withChildren(1, demand: .none)
    _ = keys
    guard case .upgrade(let upgrade) = machine.request(.unlimited) else {
      Issue.record("expected an upgrade")
      return
    }
    expectEqual(upgrade.count, 1)
    #expect(isSame(upgrade.first, subscriptions[0]))
    let answer = machine.request(.max(1)).isNone
    #expect(answer)
  }

  @Test func demandTurningUnlimitedUpgradesTheChildrenOnceTheBufferIsDelivered() {
    var (machine, keys, subscriptions) = withChildren(1, demand: .none)
    _ = machine.childValue(keys[0], "a")
    guard case .drain = machine.request(.unlimited) else {
      Issue.record("expected the buffered value first")
      return
    }
    guard case .deliver("a", let child) = machine.nextBuffered(afterAsking: false) else {
      Issue.record("expected the buffered value")
      return
    }
    // Under unlimited demand the child is not asked for one more; it is upgraded after the drain.
    #expect(child.subscription == nil)
    let answer = machine.deliveredBuffered(.none, asking: false)
    #expect(!answer)
    guard case .end(upgrade: let upgrade) = machine.nextBuffered(afterAsking: false) else {
      Issue.record("expected the drain to end")
      return
    }
    expectEqual(upgrade.count, 1)
    #expect(isSame(upgrade.first, subscriptions[0]))
  }

  /// Unlike Combine, unlimited demand returned from `receive(_:)` upgrades the children too.
  @Test func unlimitedDemandReturnedFromADeliveryUpgradesTheChildren() {
    var (machine, keys, subscriptions) = withChildren(1, demand: .max(1))
    _ = machine.childValue(keys[0], "a")
    guard case .upgrade(let upgrade) = machine.delivered(.unlimited) else {
      Issue.record("expected an upgrade")
      return
    }
    #expect(isSame(upgrade.first, subscriptions[0]))
  }

  @Test func cancelDuringTheDrainLeavesTheChildrenUnasked() {
    var (machine, keys, _) = withChildren(1, demand: .none)
    _ = machine.childValue(keys[0], "a")
    _ = machine.childValue(keys[0], "b")
    _ = machine.request(.unlimited)
    _ = machine.nextBuffered(afterAsking: false)
    let cancelling = machine.cancel().cancelling
    expectEqual(cancelling.count, 2)
    let asking = machine.deliveredBuffered(.none, asking: false)
    #expect(!asking)
    guard case .end(upgrade: let upgrade) = machine.nextBuffered(afterAsking: false) else {
      Issue.record("expected the drain to end")
      return
    }
    #expect(upgrade.isEmpty)
  }

  @Test func cancelReturnsEverySubscriptionOnce() {
    var (machine, upstream) = subscribed()
    let index = machine.upstreamValue()!
    let child = TestSubscription()
    _ = machine.childSubscribed(index, child)
    let cancelling = machine.cancel().cancelling
    expectEqual(cancelling.count, 2)
    #expect(cancelling.contains { isSame($0, upstream) })
    let answer = machine.cancel().cancelling.isEmpty
    #expect(answer)
    #expect(machine.upstreamValue() == nil)
    guard case .cancel = machine.childSubscribed(index, TestSubscription()) else {
      Issue.record("expected cancel after termination")
      return
    }
    guard case .none = machine.childValue(index, "late") else {
      Issue.record("expected nothing after cancel")
      return
    }
  }

  @Test func finishedChildsSlotIsReusedAndItsLateEventsAreIgnored() {
    var (machine, _) = subscribed()
    let first = machine.upstreamValue()!
    _ = machine.childSubscribed(first, TestSubscription())
    _ = machine.childCompleted(first, .finished)
    let second = machine.upstreamValue()!
    expectEqual(second.slot, first.slot)
    #expect(second != first)
    guard case .cancel = machine.childSubscribed(first, TestSubscription()) else {
      Issue.record("a finished child's second subscription must be cancelled")
      return
    }
    guard case .request = machine.childSubscribed(second, TestSubscription()) else {
      Issue.record("expected the new child to be asked for values")
      return
    }
    guard case .none = machine.upstreamCompleted(.finished).action else {
      Issue.record("the new child is alive")
      return
    }
    guard case .finish = machine.childCompleted(second, .finished).action else {
      Issue.record("expected finish once the new child finishes")
      return
    }
  }

  @Test func upgradeAndCancelFollowSubscriptionOrderNotSlotOrder() {
    var (machine, upstream) = subscribed()
    let first = machine.upstreamValue()!
    let second = machine.upstreamValue()!
    let secondChild = TestSubscription()
    _ = machine.childSubscribed(first, TestSubscription())
    _ = machine.childSubscribed(second, secondChild)
    _ = machine.childCompleted(first, .finished)
    let third = machine.upstreamValue()!
    let thirdChild = TestSubscription()
    _ = machine.childSubscribed(third, thirdChild)
    #expect(third.slot < second.slot)
    guard case .upgrade(let upgrade) = machine.request(.unlimited) else {
      Issue.record("expected an upgrade")
      return
    }
    expectEqual(upgrade.count, 2)
    #expect(isSame(upgrade.first, secondChild))
    #expect(isSame(upgrade.last, thirdChild))
    let cancelling = machine.cancel().cancelling
    expectEqual(cancelling.count, 3)
    #expect(isSame(cancelling[0], secondChild))
    #expect(isSame(cancelling[1], thirdChild))
    #expect(isSame(cancelling[2], upstream))
  }

  @Test func mergingStateFinishesWhenEveryChildFinishes() {
    var machine = Machine(mergingCount: 2)
    guard case .none = machine.childCompleted(Machine.mergedChild(0), .finished).action else {
      Issue.record("one child is still alive")
      return
    }
    guard case .finish = machine.childCompleted(Machine.mergedChild(1), .finished).action else {
      Issue.record("expected finish")
      return
    }
  }

  /// As in Combine, a failure from a child that has finished still fails the stream.
  @Test func aFinishedChildsLateFailureFails() {
    var (machine, _) = subscribed()
    let first = machine.upstreamValue()!
    _ = machine.childSubscribed(first, TestSubscription())
    _ = machine.childCompleted(first, .finished)
    guard case .fail(.boom, _, _) = machine.childCompleted(first, .failure(.boom)).action else {
      Issue.record("expected the late failure to fail the stream")
      return
    }
  }

  /// What the machine lets go of, it hands back for the subscription to release after unlocking: a value's or a
  /// subscription's deinit may call back into the subscription.
  @Test func cancelHandsBackTheBufferAndTheSubscriptions() {
    var (machine, keys, subscriptions) = withChildren(1, demand: .none)
    _ = machine.childValue(keys[0], "a")
    _ = machine.childValue(keys[0], "b")
    let (cancelling, released) = machine.cancel()
    expectEqual(cancelling.count, 2)
    expectEqual(released?.buffer.elements.map(\.value), ["a", "b"])
    expectEqual(released?.children.count, 1)
    #expect(isSame(released?.children.first?.subscription.subscription, subscriptions[0]))
    expectEqual(released?.upstream.isHeld, true)
  }

  @Test func aFinishedChildHandsBackItsSubscription() {
    var (machine, keys, subscriptions) = withChildren(2, demand: .none)
    let (_, released) = machine.childCompleted(keys[0], .finished)
    #expect(isSame(released.subscription, subscriptions[0]))
    let (_, again) = machine.childCompleted(keys[0], .finished)
    #expect(!again.isHeld)
  }

  @Test func theUpstreamsCompletionHandsBackItsSubscription() {
    var (machine, upstream) = subscribed()
    let (_, released) = machine.upstreamCompleted(.finished)
    #expect(isSame(released.subscription, upstream))
  }

  @Test func aFailureHandsBackTheBuffer() {
    var (machine, keys, _) = withChildren(2, demand: .none)
    _ = machine.childValue(keys[0], "a")
    guard case .fail(.boom, _, let released) = machine.childCompleted(keys[1], .failure(.boom)).action else {
      Issue.record("expected the failure")
      return
    }
    expectEqual(released.buffer.elements.map(\.value), ["a"])
  }
}

extension MergingStateMachine.DrainAction {
  fileprivate var isNone: Bool {
    if case .none = self { return true }
    return false
  }

}

private func isSame(_ subscription: (any Subscription)?, _ expected: TestSubscription) -> Bool {
  subscription?.combineIdentifier == expected.combineIdentifier
}
