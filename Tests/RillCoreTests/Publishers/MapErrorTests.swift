import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct MapErrorTests {
  private struct Wrapped: Error, Equatable {
    let inner: TransformTestError
  }

  @Test func convertsTheFailure() {
    let (upstream, subscriber) = transformSubscribe { $0.mapError { Wrapped(inner: $0) } }
    upstream.send(1)
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.values, [1])
    expectEqual(subscriber.failure, Wrapped(inner: .upstream))
  }

  @Test func passesValuesAndFinished() {
    #expect(
      transformRun({ $0.mapError { Wrapped(inner: $0) } }, [1, 2])
        == ["subscription", "value(1)", "value(2)", "finished"]
    )
  }

  @Test func initializersAndProperties() {
    let upstream = TransformUpstream()
    let first = Publishers.MapError(upstream: upstream, { Wrapped(inner: $0) })
    let second = Publishers.MapError(upstream: upstream, transform: { Wrapped(inner: $0) })
    #expect(first.upstream === upstream && second.upstream === upstream)
    expectEqual(first.transform(.thrown), Wrapped(inner: .thrown))
  }

  @Test func passesDemandStraightUpstream() {
    let (upstream, subscriber) = transformSubscribe(
      { $0.mapError { Wrapped(inner: $0) } },
      initialDemand: .max(1),
      demandPerValue: .max(2)
    )
    expectEqual(upstream.send(1), .max(2))
    subscriber.request(.max(3))
    expectEqual(upstream.requestedDemands, [.max(1), .max(3)])
  }

  @Test func contract() {
    transformContract({ $0.mapError { Wrapped(inner: $0) } }, ownsSubscription: false)
  }

  @Test func docMarble() {
    #expect(TestScheduler.marbles("-1-2-^") { $0.mapError { _ in Wrapped(inner: .upstream) } } == "-1-2-^")
  }
}
