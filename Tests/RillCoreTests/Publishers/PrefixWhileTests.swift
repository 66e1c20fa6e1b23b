import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct PrefixWhileTests {
  @Test func republishesWhileThePredicateHolds() {
    let (upstream, subscriber) = transformSubscribe { $0.prefix { $0 < 3 } }
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "value(2)", "finished"])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func passesCompletions() {
    #expect(transformRun({ $0.prefix { $0 < 3 } }, [1]) == ["subscription", "value(1)", "finished"])
    #expect(
      transformRun({ $0.prefix { $0 < 3 } }, [1], then: .failure(.upstream))
        == ["subscription", "value(1)", "failure(upstream)"]
    )
  }

  @Test func forwardsDemandExactly() {
    let (upstream, subscriber) = transformSubscribe(
      { $0.prefix { $0 < 3 } },
      initialDemand: .max(2),
      demandPerValue: .max(1)
    )
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(1))
    expectEqual(upstream.send(5), .none)
    subscriber.request(.max(1))
    expectEqual(upstream.requestedDemands, [.max(2)])
  }

  @Test func tryPrefixWhileFailsWithTheThrownError() {
    let (upstream, subscriber) = transformSubscribe {
      $0.tryPrefix { value in
        if value == 2 { throw TransformTestError.thrown }
        return true
      }
    }
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "failure(thrown)"])
    expectEqual(upstream.cancelCount, 1)
    #expect(transformRun({ $0.tryPrefix { $0 < 2 } }, [1, 2]) == ["subscription", "value(1)", "finished"])
  }

  @Test func contract() {
    transformContract { $0.prefix { $0 < 3 } }
    transformContract { $0.tryPrefix { $0 < 3 } }
  }

  @Test func docMarbles() {
    #expect(TestScheduler.marbles("-1-2-3-1-|") { $0.prefix { $0 < 3 } } == "-1-2-|")
    let small = { (value: Int) throws -> Bool in
      if value == 2 { throw TransformTestError.thrown }
      return true
    }
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryPrefix(while: small) } == "-1-^")
  }
}
