import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct OutputTests {
  @Test func rangesTranslateLikeCombine() {
    let upstream = Empty<Int, Never>()
    #expect(upstream.prefix(3).range == 0..<3)
    #expect(upstream.prefix(0).range == 0..<0)
    #expect(upstream.output(at: 4).range == 4..<5)
    #expect(upstream.output(in: 2...3).range == 2..<4)
    #expect(upstream.output(in: ..<5).range == 0..<5)
    #expect(upstream.output(in: 6...).range == 6..<Int.max)
  }

  @Test func prefixFinishesRightAfterTheLastElementAndCancelsUpstream() {
    let (upstream, subscriber) = transformSubscribe { $0.prefix(2) }
    upstream.send(1)
    upstream.send(2)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "value(2)", "finished"])
    expectEqual(upstream.cancelCount, 1)
    upstream.send(3)
    expectEqual(subscriber.values, [1, 2])
  }

  @Test func prefixZeroFinishesOnTheFirstElement() {
    let (upstream, subscriber) = transformSubscribe { $0.prefix(0) }
    upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription", "finished"])
    #expect(upstream.isCancelled)
  }

  @Test func outputAtAndInSelectByIndex() {
    #expect(transformRun({ $0.output(at: 1) }, [10, 11, 12]) == ["subscription", "value(11)", "finished"])
    #expect(
      transformRun({ $0.output(in: 1...2) }, [10, 11, 12, 13])
        == ["subscription", "value(11)", "value(12)", "finished"]
    )
    #expect(
      transformRun({ $0.output(in: 1...) }, [10, 11, 12], then: .failure(.upstream))
        == ["subscription", "value(11)", "value(12)", "failure(upstream)"]
    )
  }

  @Test func elementsBeforeTheRangeAskUpstreamForOneMore() {
    let (upstream, subscriber) = transformSubscribe(
      { $0.output(in: 2..<4) },
      initialDemand: .max(1),
      demandPerValue: .max(7)
    )
    expectEqual(upstream.requestedDemands, [.max(1)])
    expectEqual(upstream.send(0), .max(1))
    expectEqual(upstream.send(1), .max(1))
    expectEqual(upstream.send(2), .max(7))
    subscriber.request(.max(2))
    expectEqual(upstream.requestedDemands, [.max(1), .max(2)])
    // As in Combine, the last element of the range returns downstream's demand, though the operator then finishes.
    expectEqual(upstream.send(3), .max(7))
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(2)", "value(3)", "finished"])
  }

  @Test func reentrantElementsStopAtTheRangeEnd() {
    let upstream = TransformUpstream()
    let subscriber = TestSubscriber<Int, TransformTestError>(
      onValue: { _, value in
        if value == 1 { upstream.send(2) }
        return .none
      }
    )
    upstream.prefix(1).subscribe(subscriber)
    upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
  }

  @Test func isEquatable() {
    expectEqual(Publishers.Output(upstream: Just(1), range: 0..<2), Publishers.Output(upstream: Just(1), range: 0..<2))
    #expect(Publishers.Output(upstream: Just(1), range: 0..<2) != Publishers.Output(upstream: Just(1), range: 0..<3))
  }

  /// As in Combine, elements after a completion or a cancel are still counted, and those in the range passed on;
  /// upstream's completions after the end are not, and the end of the range then finishes nothing.
  @Test func elementsAfterTheEndAreCountedAndThoseInTheRangePassedOn() {
    let (finished, afterFinish) = transformSubscribe({ $0.output(in: 1..<3) }, demandPerValue: .max(2))
    finished.send(completion: .failure(.upstream))
    finished.send(completion: .finished)
    expectEqual(finished.send(10), .max(1))
    expectEqual(finished.send(11), .max(2))
    expectEqual(finished.send(12), .max(2))
    expectEqual(finished.send(13), .none)
    expectEqual(afterFinish.eventDescriptions, ["subscription", "failure(upstream)", "value(11)", "value(12)"])
    expectEqual(finished.cancelCount, 0)

    let (cancelled, afterCancel) = transformSubscribe({ $0.output(in: 1..<3) }, demandPerValue: .max(3))
    afterCancel.cancel()
    expectEqual(cancelled.send(10), .max(1))
    expectEqual(cancelled.send(11), .max(3))
    cancelled.send(completion: .finished)
    expectEqual(afterCancel.eventDescriptions, ["subscription", "value(11)"])
    expectEqual(cancelled.cancelCount, 1)
  }

  @Test func contract() {
    transformContract({ $0.prefix(2) }, isSilentAfterEnd: false)
    transformContract({ $0.output(in: 1...) }, isSilentAfterEnd: false)
  }

  @Test func docMarbles() {
    #expect(TestScheduler.marbles("-1-2-3-4-|") { $0.prefix(2) } == "-1-[2|]")
    #expect(TestScheduler.marbles("-a-b-c-d-|") { $0.output(at: 1) } == "---[b|]")
    #expect(TestScheduler.marbles("-a-b-c-d-e-|") { $0.output(in: 1...2) } == "---b-[c|]")
  }
}
