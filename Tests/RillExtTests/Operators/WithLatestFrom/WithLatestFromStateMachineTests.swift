import RillTestSupport
import RillTesting
import Testing

@testable import RillExt

/// Whether `subscription` is `expected`.
private func isSame(_ subscription: (any Subscription)?, _ expected: TestSubscription) -> Bool {
  (subscription as AnyObject?) === expected
}

@Suite struct WithLatestFromStateMachineTests {
  private typealias Machine = WithLatestFromStateMachine<String, Int>

  @Test func demandWaitsForUpstreamsSubscription() {
    var machine = Machine(sources: "upstream")
    let kept = machine.otherSubscribed(TestSubscription())
    let early = machine.request(.max(2))
    let firstValue = machine.otherValue(1)
    let secondValue = machine.otherValue(2)
    let meanwhile = machine.request(.max(3))
    #expect(kept && early == nil && meanwhile == nil)
    #expect(firstValue.subscribing == "upstream" && secondValue.subscribing == nil)
    // The value it replaces is handed back, to be released after unlocking.
    #expect(firstValue.replaced == nil && secondValue.replaced == 1)
    let upstream = TestSubscription()
    guard case .request(let subscription, let demand) = machine.upstreamSubscribed(upstream) else {
      Issue.record("upstream's subscription was not kept")
      return
    }
    #expect(isSame(subscription, upstream) && demand == .max(5))
    let later = machine.request(.max(1))
    #expect(isSame(later, upstream))
    expectEqual(machine.upstreamValue(), 2)
    guard case .cancel = machine.upstreamSubscribed(TestSubscription()) else {
      Issue.record("a second subscription was kept")
      return
    }
  }

  @Test func noValueIsCombinedBeforeUpstreamIsSubscribed() {
    var machine = Machine(sources: "upstream")
    _ = machine.otherSubscribed(TestSubscription())
    #expect(machine.upstreamValue() == nil)
    _ = machine.otherValue(1)
    #expect(machine.upstreamValue() == nil)
  }

  @Test func theOthersCompletionKeepsItsLastValue() {
    var machine = Machine(sources: "upstream")
    _ = machine.otherSubscribed(TestSubscription())
    _ = machine.otherValue(7)
    _ = machine.otherCompleted()
    _ = machine.upstreamSubscribed(TestSubscription())
    expectEqual(machine.upstreamValue(), 7)
    let afterCompletion = machine.otherValue(8)
    #expect(afterCompletion.subscribing == nil && afterCompletion.replaced == nil)
    expectEqual(machine.upstreamValue(), 7)
  }

  @Test func upstreamsCompletionCancelsOnlyTheOther() {
    var machine = Machine(sources: "upstream")
    let other = TestSubscription()
    _ = machine.otherSubscribed(other)
    _ = machine.otherValue(1)
    let upstream = TestSubscription()
    _ = machine.upstreamSubscribed(upstream)
    let completed = machine.upstreamCompleted()
    let cancelling = completed?.cancelling
    #expect(cancelling?.count == 1 && isSame(cancelling?.first, other))
    // Upstream's subscription, which has completed, is handed back to be released after unlocking.
    #expect(isSame(completed?.released, upstream))
    #expect(machine.isTerminal)
    let again = machine.upstreamCompleted()
    let afterEnd = machine.cancel()
    #expect(again == nil && afterEnd.isEmpty)
    #expect(machine.upstreamValue() == nil)
  }

  @Test func thePublishersAndTheLatestValueAreHandedOverOnlyOnceItEnds() {
    var machine = Machine(sources: "upstream")
    _ = machine.otherSubscribed(TestSubscription())
    _ = machine.otherValue(1)
    let early = machine.takeRetained()
    #expect(early.sources == nil && early.latest == nil)
    _ = machine.cancel()
    let retained = machine.takeRetained()
    #expect(retained.sources == "upstream" && retained.latest == 1)
    let again = machine.takeRetained()
    #expect(again.sources == nil && again.latest == nil)
  }

  @Test func cancelEndsEverything() {
    var machine = Machine(sources: "upstream")
    let nothing = machine.cancel()
    let kept = machine.otherSubscribed(TestSubscription())
    let value = machine.otherValue(1)
    #expect(nothing.isEmpty && machine.isTerminal && !kept && value.subscribing == nil)

    var subscribed = Machine(sources: "upstream")
    let other = TestSubscription()
    let upstream = TestSubscription()
    _ = subscribed.otherSubscribed(other)
    _ = subscribed.otherValue(1)
    _ = subscribed.upstreamSubscribed(upstream)
    let cancelling = subscribed.cancel()
    #expect(cancelling.count == 2 && isSame(cancelling[0], upstream) && isSame(cancelling[1], other))
    guard case .cancel = subscribed.upstreamSubscribed(TestSubscription()) else {
      Issue.record("a subscription after cancel was kept")
      return
    }
  }

  @Test func aCancelWhileUpstreamIsBeingSubscribedCancelsItsLateSubscription() {
    var machine = Machine(sources: "upstream")
    _ = machine.otherSubscribed(TestSubscription())
    let upstream = machine.otherValue(1).subscribing
    let cancelling = machine.cancel()
    #expect(upstream == "upstream" && cancelling.count == 1)
    guard case .cancel = machine.upstreamSubscribed(TestSubscription()) else {
      Issue.record("a late subscription was kept")
      return
    }
  }
}
