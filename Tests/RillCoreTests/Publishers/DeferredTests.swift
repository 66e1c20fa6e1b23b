import RillCore
import RillTestSupport
import RillTesting
import Testing

/// `Deferred` hands its subscriber to the publisher it creates: failure, demand, cancellation, re-entrancy and
/// memory are that publisher's.
@Suite struct DeferredTests {
  @Test func passesTheFailureAndDemandToTheCreatedPublisher() {
    #expect(
      transformRun({ upstream in Deferred { upstream } }, [1], then: .failure(.upstream))
        == ["subscription", "value(1)", "failure(upstream)"]
    )
    let (upstream, subscriber) = transformSubscribe(
      { upstream in Deferred { upstream } },
      initialDemand: .max(2),
      demandPerValue: .max(3)
    )
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(3))
    subscriber.request(.max(4))
    expectEqual(upstream.requestedDemands, [.max(2), .max(4)])
    subscriber.cancel()
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func contract() {
    transformContract({ upstream in Deferred { upstream } }, ownsSubscription: false)
  }
}
