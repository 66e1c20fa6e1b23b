import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct CompactMapTests {
  private static func evenHalf(_ value: Int) -> Int? { value.isMultiple(of: 2) ? value / 2 : nil }

  @Test func republishesNonNilResults() {
    #expect(
      transformRun({ $0.compactMap(Self.evenHalf) }, [1, 2, 3, 4])
        == ["subscription", "value(1)", "value(2)", "finished"]
    )
    #expect(
      transformRun({ $0.compactMap(Self.evenHalf) }, [2], then: .failure(.upstream))
        == ["subscription", "value(1)", "failure(upstream)"]
    )
  }

  @Test func nilAsksUpstreamForOneMore() {
    let (upstream, _) = transformSubscribe(
      { $0.compactMap(Self.evenHalf) },
      initialDemand: .max(1),
      demandPerValue: .max(5)
    )
    expectEqual(upstream.requestedDemands, [.max(1)])
    expectEqual(upstream.send(1), .max(1))
    expectEqual(upstream.send(2), .max(5))
  }

  @Test func fusesCompactMapAndMap() {
    let upstream = TransformUpstream()
    let fused: Publishers.CompactMap<TransformUpstream, String> = upstream.compactMap(Self.evenHalf)
      .compactMap { $0 > 1 ? $0 : nil }.map { "\($0)" }
    #expect(transformRun(upstream, { _ in fused }, [2, 4, 6]) == ["subscription", "value(2)", "value(3)", "finished"])
  }

  @Test func tryCompactMapThrowsCancelsAndFails() {
    let (upstream, subscriber) = transformSubscribe {
      $0.tryCompactMap { value -> Int? in
        if value == 3 { throw TransformTestError.thrown }
        return Self.evenHalf(value)
      }
    }
    expectEqual(upstream.send(1), .max(1))
    upstream.send(2)
    upstream.send(3)
    upstream.send(4)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "failure(thrown)"])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func tryCompactMapFusesAndForwardsDemand() {
    let upstream = TransformUpstream()
    let fused: Publishers.TryCompactMap<TransformUpstream, Int> = upstream.tryCompactMap(Self.evenHalf)
      .compactMap { $0 * 10 }
    let (_, subscriber) = transformSubscribe(upstream, { _ in fused }, initialDemand: .max(2), demandPerValue: .max(1))
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(1))
    expectEqual(upstream.send(4), .max(1))
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(20)", "failure(upstream)"])
  }

  @Test func contract() {
    transformContract({ $0.compactMap { $0 } }, ownsSubscription: false)
    transformContract { $0.tryCompactMap { $0 } }
  }

  @Test func docMarbles() {
    #expect(TestScheduler.marbles("-a-1-b-2-|") { $0.compactMap { Int($0) } } == "---1---2-|")
    let parse = { (text: String) throws -> Int? in
      if text == "b" { throw TransformTestError.thrown }
      return Int(text)
    }
    #expect(TestScheduler.marbles("-a-1-b-2-|") { $0.tryCompactMap(parse) } == "---1-^")
  }
}
