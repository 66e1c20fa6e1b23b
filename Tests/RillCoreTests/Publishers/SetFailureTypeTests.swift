import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct SetFailureTypeTests {
  private typealias Upstream = TestPublisher<Int, Never>

  @Test func passesValuesAndFinished() {
    #expect(
      transformRun(Upstream(), { $0.setFailureType(to: TransformTestError.self) }, [1, 2])
        == ["subscription", "value(1)", "value(2)", "finished"]
    )
  }

  @Test func passesDemandAndCancellationStraightUpstream() {
    let (upstream, subscriber) = transformSubscribe(
      Upstream(),
      { $0.setFailureType(to: TransformTestError.self) },
      initialDemand: .max(2),
      demandPerValue: .max(1)
    )
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(1))
    subscriber.cancel()
    #expect(upstream.isCancelled)
  }

  @Test func fusesAndIsEquatable() {
    let once = Empty<Int, Never>().setFailureType(to: TransformTestError.self)
    let twice: Publishers.SetFailureType<Empty<Int, Never>, any Error> = once.setFailureType(to: (any Error).self)
    expectEqual(twice.upstream, Empty())
    expectEqual(once, Publishers.SetFailureType(upstream: Empty()))
  }

  @Test func reentrancyAndMemory() {
    weak var weakSubscriber: TestSubscriber<Int, TransformTestError>?
    do {
      let (upstream, subscriber) = transformSubscribe(
        Upstream(),
        { $0.setFailureType(to: TransformTestError.self) },
        initialDemand: .max(1),
        onValue: { subscriber, _ in
          subscriber.request(.max(1))
          subscriber.cancel()
          return .none
        }
      )
      weakSubscriber = subscriber
      upstream.send(1)
      expectEqual(upstream.requestedDemands, [.max(1), .max(1)])
      #expect(upstream.isCancelled)
    }
    #expect(weakSubscriber == nil)
  }
}
