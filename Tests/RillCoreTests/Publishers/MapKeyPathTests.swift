import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct MapKeyPathTests {
  private struct Point {
    var x: Int
    var y: String
    var z: Bool
  }

  private typealias Upstream = TestPublisher<Point, TransformTestError>

  private let points = [Point(x: 1, y: "a", z: true), Point(x: 2, y: "b", z: false)]

  @Test func mapsOneKeyPath() {
    let publisher: Publishers.MapKeyPath<Upstream, Int> = Upstream().map(\.x)
    expectEqual(publisher.keyPath, \Point.x)
    #expect(
      transformRun(Upstream(), { $0.map(\.x) }, points) == ["subscription", "value(1)", "value(2)", "finished"]
    )
  }

  @Test func mapsTwoKeyPaths() {
    let publisher: Publishers.MapKeyPath2<Upstream, Int, String> = Upstream().map(\.x, \.y)
    #expect(publisher.keyPath0 == \Point.x && publisher.keyPath1 == \Point.y)
    #expect(
      transformRun(Upstream(), { $0.map(\.x, \.y) }, points)
        == ["subscription", "value((1, \"a\"))", "value((2, \"b\"))", "finished"]
    )
  }

  @Test func mapsThreeKeyPaths() {
    let publisher: Publishers.MapKeyPath3<Upstream, Int, String, Bool> = Upstream().map(\.x, \.y, \.z)
    expectEqual(publisher.keyPath2, \Point.z)
    #expect(
      transformRun(Upstream(), { $0.map(\.x, \.y, \.z) }, points, then: .failure(.upstream))
        == ["subscription", "value((1, \"a\", true))", "value((2, \"b\", false))", "failure(upstream)"]
    )
  }

  @Test func passesDemandAndCancellationStraightUpstream() {
    let (upstream, subscriber) = transformSubscribe(
      Upstream(),
      { $0.map(\.x) },
      initialDemand: .max(2),
      demandPerValue: .max(1)
    )
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(points[0]), .max(1))
    subscriber.request(.max(4))
    expectEqual(upstream.requestedDemands, [.max(2), .max(4)])
    #expect(subscriber.subscription as? TestSubscription === upstream.subscriptions.first)
  }

  @Test func contract() {
    transformContract(Upstream.self, { $0.map(\.x) }, elements: points, ownsSubscription: false)
    transformContract(Upstream.self, { $0.map(\.x, \.y) }, elements: points, ownsSubscription: false)
    transformContract(Upstream.self, { $0.map(\.x, \.y, \.z) }, elements: points, ownsSubscription: false)
  }

  @Test func docMarble() {
    #expect(TestScheduler.marbles("-a-'bc'-|") { $0.map(\.count) } == "-1-2-|")
  }
}
