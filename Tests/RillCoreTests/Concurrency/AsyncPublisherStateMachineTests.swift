import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

/// The `values` iterator's state machine, driven by hand: waiters are numbers, the failure a test error.
@Suite struct AsyncPublisherStateMachineTests {
  private typealias Machine = AsyncPublisherStateMachine<Int, CombiningError>

  @Test func callsBeforeTheSubscriptionAddUpToOneRequest() {
    var machine = Machine()
    guard case .wait = machine.next(1), case .wait = machine.next(2) else {
      Issue.record("next() before the subscription should wait")
      return
    }
    let subscription = TestSubscription()
    guard case .request(_, let demand) = machine.upstreamSubscribed(subscription) else {
      Issue.record("the subscription should be asked for the waiters' demand")
      return
    }
    expectEqual(demand, .max(2))
    expectEqual(machine.waiterCount, 2)
    guard case .resume(1) = machine.upstreamValue(), case .resume(2) = machine.upstreamValue() else {
      Issue.record("elements should go to the oldest waiter first")
      return
    }
    expectEqual(machine.waiterCount, 0)
  }

  @Test func aSubscriptionWithNobodyWaitingIsNotAskedForAnything() {
    var machine = Machine()
    guard case .none = machine.upstreamSubscribed(TestSubscription()) else {
      Issue.record("no demand, no request")
      return
    }
    guard case .cancel = machine.upstreamSubscribed(TestSubscription()) else {
      Issue.record("a second subscription should be cancelled")
      return
    }
    guard case .request = machine.next(1) else {
      Issue.record("next() while subscribed should request one element")
      return
    }
  }

  @Test func anElementBeforeTheSubscriptionEndsTheWaitersAndKeepsTheirDemand() {
    var machine = Machine()
    _ = machine.next(1)
    _ = machine.next(2)
    guard case .end(let ended) = machine.upstreamValue() else {
      Issue.record("an early element should end the waiters")
      return
    }
    expectEqual(ended, [1, 2])
    guard case .request(_, .max(2)) = machine.upstreamSubscribed(TestSubscription()) else {
      Issue.record("the ended waiters' demand should still be requested")
      return
    }
  }

  @Test func aCompletionGoesToTheOldestWaiterAndEndsTheOthers() {
    var machine = Machine()
    _ = machine.upstreamSubscribed(TestSubscription())
    _ = machine.next(1)
    _ = machine.next(2)
    _ = machine.next(3)
    guard case .complete(1, .failure(.boom), let others) = machine.upstreamCompleted(.failure(.boom)).action else {
      Issue.record("the oldest waiter should get the failure")
      return
    }
    expectEqual(Array(others), [2, 3])
    guard case .end = machine.next(4) else {
      Issue.record("after a delivered failure the sequence has ended")
      return
    }
  }

  @Test func aFailureWithNobodyWaitingIsKeptForOneCall() {
    var machine = Machine()
    guard case .none = machine.upstreamCompleted(.failure(.boom)).action,
      case .none = machine.upstreamCompleted(.failure(.other)).action
    else {
      Issue.record("a completion with nobody waiting has nothing to do")
      return
    }
    guard case .fail(.boom) = machine.next(1), case .end = machine.next(2) else {
      Issue.record("the first failure should be thrown once")
      return
    }
  }

  @Test func cancellingEndsTheWaitersAndHandsBackTheSubscriptionOnce() {
    var machine = Machine()
    let subscription = TestSubscription()
    _ = machine.upstreamSubscribed(subscription)
    _ = machine.next(1)
    let first = machine.cancel()
    expectEqual(first.subscription?.combineIdentifier, subscription.combineIdentifier)
    expectEqual(first.waiters, [1])
    let second = machine.cancel()
    #expect(second.subscription == nil)
    expectEqual(second.waiters, [])
    guard case .end = machine.next(2), case .cancel = machine.upstreamSubscribed(TestSubscription()) else {
      Issue.record("after a cancel the sequence has ended and subscriptions are cancelled")
      return
    }
  }
}
