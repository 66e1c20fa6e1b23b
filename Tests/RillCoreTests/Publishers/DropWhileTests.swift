import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct DropWhileTests {
  @Test func dropsUntilThePredicateFailsThenRepublishesEverything() {
    #expect(
      transformRun({ $0.drop { $0 < 3 } }, [1, 2, 3, 1])
        == ["subscription", "value(3)", "value(1)", "finished"]
    )
    #expect(
      transformRun({ $0.drop { $0 < 3 } }, [1], then: .failure(.upstream))
        == ["subscription", "failure(upstream)"]
    )
  }

  @Test func droppedElementsAskUpstreamForOneMore() {
    let (upstream, _) = transformSubscribe({ $0.drop { $0 < 3 } }, initialDemand: .max(1), demandPerValue: .max(2))
    expectEqual(upstream.requestedDemands, [.max(1)])
    expectEqual(upstream.send(1), .max(1))
    expectEqual(upstream.send(3), .max(2))
    expectEqual(upstream.send(1), .max(2))
  }

  @Test func thePredicateIsNotCalledAfterItFails() {
    var calls = 0
    _ = transformRun(
      {
        $0.drop {
          calls += 1
          return $0 < 2
        }
      },
      [1, 2, 1, 1]
    )
    expectEqual(calls, 2)
  }

  @Test func tryDropWhileFailsWithTheThrownError() {
    let (upstream, subscriber) = transformSubscribe {
      $0.tryDrop { value in
        if value == 2 { throw TransformTestError.thrown }
        return true
      }
    }
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(thrown)"])
    expectEqual(upstream.cancelCount, 1)
    #expect(
      transformRun({ $0.tryDrop { $0 < 2 } }, [1, 2, 1]) == ["subscription", "value(2)", "value(1)", "finished"]
    )
  }

  @Test func contract() {
    transformContract { $0.drop { $0 < 2 } }
    transformContract { $0.tryDrop { $0 < 2 } }
  }

  @Test func docMarbles() {
    #expect(TestScheduler.marbles("-1-2-3-1-|") { $0.drop { $0 < 3 } } == "-----3-1-|")
    let small = { (value: Int) throws -> Bool in
      if value == 2 { throw TransformTestError.thrown }
      return true
    }
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.tryDrop(while: small) } == "---^")
  }
}
