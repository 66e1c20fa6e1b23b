import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct FirstTests {
  @Test func publishesTheFirstElementThenFinishes() {
    let (upstream, subscriber) = transformSubscribe { $0.first() }
    upstream.send(1)
    upstream.send(2)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func emptyAndFailingUpstreams() {
    #expect(transformRun({ $0.first() }, []) == ["subscription", "finished"])
    #expect(transformRun({ $0.first() }, [], then: .failure(.upstream)) == ["subscription", "failure(upstream)"])
  }

  @Test func requestsUnlimitedFromUpstreamWhateverTheDemand() {
    let (upstream, subscriber) = transformSubscribe({ $0.first() }, initialDemand: .max(1))
    expectEqual(upstream.requestedDemands, [.unlimited])
    expectEqual(upstream.send(1), .none)
    subscriber.request(.max(3))
    expectEqual(upstream.requestedDemands, [.unlimited])
  }

  @Test func theElementWaitsForDemand() {
    let (upstream, subscriber) = transformSubscribe({ $0.first() }, initialDemand: .none)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(1)
    #expect(upstream.isCancelled)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    subscriber.request(.max(1))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
  }

  @Test func firstWhereSkipsUntilThePredicateHolds() {
    let (upstream, subscriber) = transformSubscribe { $0.first { $0.isMultiple(of: 2) } }
    expectEqual(upstream.send(1), .none)
    upstream.send(2)
    upstream.send(4)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(2)", "finished"])
    expectEqual(upstream.cancelCount, 1)
    #expect(transformRun({ $0.first { $0 > 5 } }, [1, 2]) == ["subscription", "finished"])
  }

  @Test func tryFirstWhereFailsWithTheThrownError() {
    let (upstream, subscriber) = transformSubscribe {
      $0.tryFirst { value in
        if value == 2 { throw TransformTestError.thrown }
        return value > 5
      }
    }
    upstream.send(1)
    upstream.send(2)
    upstream.send(6)
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(thrown)"])
    expectEqual(upstream.cancelCount, 1)
    #expect(transformRun({ $0.tryFirst { $0 > 1 } }, [1, 2, 3]) == ["subscription", "value(2)", "finished"])
  }

  @Test func cancelWhileWaitingForDemandDropsTheElement() {
    let (upstream, subscriber) = transformSubscribe({ $0.first() }, initialDemand: .none)
    upstream.send(1)
    let subscription = subscriber.subscription
    subscriber.cancel()
    subscription?.request(.max(1))
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  @Test func firstIsEquatable() {
    expectEqual(Publishers.First(upstream: Just(1)), Publishers.First(upstream: Just(1)))
    #expect(Publishers.First(upstream: Just(1)) != Publishers.First(upstream: Just(2)))
  }

  @Test func contract() {
    transformContract { $0.first() }
    transformContract { $0.first { $0 > 1 } }
    transformContract { $0.tryFirst { $0 > 1 } }
  }

  @Test func docMarbles() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.first() } == "-[1|]")
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.first { $0 % 2 == 0 } } == "---[2|]")
    let even = { (value: Int) throws -> Bool in
      if value == 2 { throw TransformTestError.thrown }
      return false
    }
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryFirst(where: even) } == "---^")
  }
}
