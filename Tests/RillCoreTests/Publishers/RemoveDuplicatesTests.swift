import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct RemoveDuplicatesTests {
  @Test func removesConsecutiveDuplicates() {
    #expect(
      transformRun({ $0.removeDuplicates() }, [1, 1, 2, 2, 1])
        == ["subscription", "value(1)", "value(2)", "value(1)", "finished"]
    )
    #expect(
      transformRun({ $0.removeDuplicates() }, [1, 1], then: .failure(.upstream))
        == ["subscription", "value(1)", "failure(upstream)"]
    )
  }

  @Test func comparesWithThePredicate() {
    let publisher = TransformUpstream().removeDuplicates { $0 % 2 == $1 % 2 }
    #expect(publisher.predicate(1, 3))
    #expect(
      transformRun({ $0.removeDuplicates { $0 % 2 == $1 % 2 } }, [1, 3, 2, 4, 5])
        == ["subscription", "value(1)", "value(2)", "value(5)", "finished"]
    )
  }

  @Test func comparesWithThePreviousElementNotThePreviousPublished() {
    #expect(
      transformRun({ $0.removeDuplicates { $1 == $0 + 1 } }, [1, 2, 3, 5])
        == ["subscription", "value(1)", "value(5)", "finished"]
    )
  }

  @Test func duplicatesAskUpstreamForOneMore() {
    let (upstream, subscriber) = transformSubscribe(
      { $0.removeDuplicates() },
      initialDemand: .max(2),
      demandPerValue: .max(4)
    )
    expectEqual(upstream.requestedDemands, [.max(2)])
    expectEqual(upstream.send(1), .max(4))
    expectEqual(upstream.send(1), .max(1))
    subscriber.request(.max(9))
    expectEqual(upstream.requestedDemands, [.max(2), .max(9)])
  }

  @Test func eachSubscriptionHasItsOwnMemory() {
    let upstream = TransformUpstream()
    let publisher = upstream.removeDuplicates()
    let first = TestSubscriber<Int, TransformTestError>()
    publisher.subscribe(first)
    upstream.send(1)
    let second = TestSubscriber<Int, TransformTestError>()
    publisher.subscribe(second)
    upstream.send(1)
    expectEqual(first.values, [1])
    expectEqual(second.values, [1])
  }

  @Test func tryRemoveDuplicatesThrowsCancelsAndFails() {
    let (upstream, subscriber) = transformSubscribe {
      $0.tryRemoveDuplicates { previous, next in
        if next == 3 { throw TransformTestError.thrown }
        return previous == next
      }
    }
    upstream.send(1)
    expectEqual(upstream.send(1), .max(1))
    upstream.send(3)
    upstream.send(4)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "failure(thrown)"])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func contract() {
    transformContract { $0.removeDuplicates() }
    transformContract { $0.tryRemoveDuplicates { $0 == $1 } }
  }

  @Test func docMarbles() {
    #expect(TestScheduler.marbles("-1-1-2-2-1-|") { $0.removeDuplicates() } == "-1---2---1-|")
    #expect(TestScheduler.marbles("-1-3-2-4-|") { $0.removeDuplicates { $0 % 2 == $1 % 2 } } == "-1---2---|")
    let same = { (previous: Int, next: Int) throws -> Bool in
      if next == 2 { throw TransformTestError.thrown }
      return previous == next
    }
    #expect(TestScheduler.marbles("-1-1-2-|") { $0.tryRemoveDuplicates(by: same) } == "-1---^")
  }
}
