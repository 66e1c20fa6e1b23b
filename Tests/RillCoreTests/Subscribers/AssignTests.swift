import RillCore
import RillTestSupport
import RillTesting
import Testing

/// What `Subscribers.Assign` keeps alive, and when it lets go.
@Suite struct AssignTests {
  private final class Target {
    var value = 0
  }

  /// As in Combine, a cancel before any subscription does nothing: the object stays, and the subscription that comes
  /// afterwards is taken up.
  @Test func cancelBeforeTheSubscriptionKeepsTheObjectAndTakesUpALaterSubscription() {
    weak var weakTarget: Target?
    let assign: Subscribers.Assign<Target, Int>
    do {
      let target = Target()
      weakTarget = target
      assign = Subscribers.Assign(object: target, keyPath: \.value)
    }
    assign.cancel()
    #expect(weakTarget != nil)
    #expect(assign.object != nil)
    let upstream = TestPublisher<Int, Never>()
    upstream.subscribe(assign)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(3)
    expectEqual(weakTarget?.value, 3)
    assign.cancel()
    expectEqual(upstream.cancelCount, 1)
    #expect(weakTarget == nil)
  }

  /// Once subscribed, a cancel cancels the upstream and lets go of the object, and a completion lets go of it too.
  @Test func cancelAndCompletionLetGoOfTheObject() {
    for cancels in [true, false] {
      weak var weakTarget: Target?
      let upstream = TestPublisher<Int, Never>()
      let assign: Subscribers.Assign<Target, Int>
      do {
        let target = Target()
        weakTarget = target
        assign = Subscribers.Assign(object: target, keyPath: \.value)
      }
      upstream.subscribe(assign)
      if cancels { assign.cancel() } else { upstream.send(completion: .finished) }
      #expect(weakTarget == nil, "object freed, cancels: \(cancels)")
      #expect(upstream.cancelCount == (cancels ? 1 : 0))
    }
  }
}
