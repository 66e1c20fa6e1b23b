import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct LastTests {
  @Test func publishesTheLastElementAfterUpstreamFinishes() {
    let (upstream, subscriber) = transformSubscribe { $0.last() }
    upstream.send(1)
    upstream.send(2)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(2)", "finished"])
  }

  @Test func emptyAndFailingUpstreams() {
    #expect(transformRun({ $0.last() }, []) == ["subscription", "finished"])
    #expect(transformRun({ $0.last() }, [1], then: .failure(.upstream)) == ["subscription", "failure(upstream)"])
  }

  @Test func requestsUnlimitedAndWaitsForDemand() {
    let (upstream, subscriber) = transformSubscribe({ $0.last() }, initialDemand: .none)
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.send(1), .none)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    subscriber.request(.max(1))
    subscriber.request(.max(1))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
    expectEqual(upstream.requestedDemands, [.unlimited])
  }

  @Test func lastWhereKeepsTheLastMatch() {
    #expect(
      transformRun({ $0.last { $0.isMultiple(of: 2) } }, [1, 2, 3, 4, 5])
        == ["subscription", "value(4)", "finished"]
    )
    #expect(transformRun({ $0.last { $0 > 9 } }, [1, 2]) == ["subscription", "finished"])
  }

  @Test func tryLastWhereFailsWithTheThrownError() {
    let (upstream, subscriber) = transformSubscribe {
      $0.tryLast { value in
        if value == 3 { throw TransformTestError.thrown }
        return true
      }
    }
    upstream.send(1)
    upstream.send(3)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(thrown)"])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func lastIsEquatable() {
    expectEqual(Publishers.Last(upstream: Just(1)), Publishers.Last(upstream: Just(1)))
    #expect(Publishers.Last(upstream: Just(1)) != Publishers.Last(upstream: Just(2)))
  }

  @Test func contract() {
    transformContract { $0.last() }
    transformContract { $0.last { $0 > 1 } }
    transformContract { $0.tryLast { $0 > 1 } }
  }

  @Test func docMarbles() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.last() } == "-------[3|]")
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.last { $0 % 2 == 1 } } == "-------[3|]")
    let odd = { (value: Int) throws -> Bool in
      if value == 2 { throw TransformTestError.thrown }
      return true
    }
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryLast(where: odd) } == "---^")
  }
}
