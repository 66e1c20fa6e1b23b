import Rill
import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct CheckTraitTests {
  @Test func checkSingleHoldsTheValueUntilUpstreamFinishes() {
    let (upstream, subscriber) = extSubscribe({ $0.checkSingle() }, initialDemand: .max(1))
    expectEqual(upstream.requestedDemands, [.max(1)])
    _ = upstream.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
    expectEqual(upstream.totalDemand, .unlimited)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
  }

  @Test func checkSingleNamesEachViolation() {
    #expect(extRun({ $0.checkSingle() }, []) == ["subscription", "failure(missingElement)"])
    #expect(extRun({ $0.checkSingle() }, [1, 2], then: nil) == ["subscription", "failure(tooManyElements)"])
    #expect(
      extRun({ $0.checkSingle() }, [1], then: .failure(.upstream)) == ["subscription", "failure(bothElementAndError)"]
    )
    #expect(
      extRun({ $0.checkSingle() }, [], then: .failure(.upstream)) == [
        "subscription", "failure(upstream(RillExtTests.ExtTestError.upstream))",
      ]
    )
    let (upstream, _) = extSubscribe { $0.checkSingle() }
    _ = upstream.send(1)
    _ = upstream.send(2)
    #expect(upstream.isCancelled)
  }

  @Test func checkMaybeAcceptsNothing() {
    #expect(extRun({ $0.checkMaybe() }, []) == ["subscription", "finished"])
    #expect(extRun({ $0.checkMaybe() }, [1]) == ["subscription", "value(1)", "finished"])
    #expect(extRun({ $0.checkMaybe() }, [1, 2], then: nil) == ["subscription", "failure(tooManyElements)"])
    #expect(
      extRun({ $0.checkMaybe() }, [1], then: .failure(.upstream)) == ["subscription", "failure(bothElementAndError)"]
    )
  }

  @Test func theChecksSubscribeUpstreamOnTheFirstRequest() {
    let (upstream, subscriber) = extSubscribe({ $0.checkSingle() }, initialDemand: .none)
    expectEqual(upstream.subscriberCount, 0)
    subscriber.request(.max(2))
    expectEqual(upstream.requestedDemands, [.max(2)])
    let (maybeUpstream, maybeSubscriber) = extSubscribe({ $0.checkMaybe() }, initialDemand: .none)
    maybeSubscriber.cancel()
    expectEqual(maybeUpstream.subscriberCount, 0)
  }

  @Test func theChecksAreSilentAfterCancel() {
    let (upstream, subscriber) = extSubscribe { $0.checkSingle() }
    _ = upstream.send(1)
    subscriber.cancel()
    #expect(upstream.isCancelled)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription"])
  }

  @Test func theCheckedPipelinesAreFreed() {
    let finishing: (ExtUpstream, TestSubscriber<Int, SingleError<ExtTestError>>) -> Void = { upstream, _ in
      _ = upstream.send(1)
      upstream.send(completion: .finished)
    }
    #expect(extPipelineIsFreed({ $0.checkSingle() }, drive: finishing))
    #expect(extPipelineIsFreed({ $0.checkSingle() }, drive: { _, subscriber in subscriber.cancel() }))
    #expect(extPipelineIsFreed({ $0.checkMaybe() }, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(extPipelineIsFreed({ $0.checkMaybe() }, drive: { _, subscriber in subscriber.cancel() }))
  }

  @Test func checkImmediateWantsAnEventDuringSubscribe() {
    let just = TestSubscriber<Int, ImmediateError<Never>>()
    Just(1).checkImmediate().subscribe(just)
    expectEqual(just.eventDescriptions, ["subscription", "value(1)", "finished"])

    let many = TestSubscriber<Int, ImmediateError<Never>>(initialDemand: .max(1), demandPerValue: .max(1))
    [1, 2, 3].publisher.checkImmediate().subscribe(many)
    expectEqual(many.values, [1, 2, 3])

    let (late, lateSubscriber) = extSubscribe { $0.checkImmediate() }
    expectEqual(lateSubscriber.eventDescriptions, ["subscription", "failure(notImmediate)"])
    #expect(late.isCancelled)

    let failing = TestSubscriber<Int, ImmediateError<ExtTestError>>()
    Fail<Int, ExtTestError>(error: .upstream).checkImmediate().subscribe(failing)
    expectEqual(failing.eventDescriptions, ["subscription", "failure(upstream(RillExtTests.ExtTestError.upstream))"])

    let empty = TestSubscriber<Int, ImmediateError<Never>>()
    Empty<Int, Never>().checkImmediate().subscribe(empty)
    expectEqual(empty.eventDescriptions, ["subscription", "failure(notImmediate)"])
  }

  @Test func checkImmediateForwardsLaterValuesAndDemand() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let subscriber = TestSubscriber<Int, ImmediateError<Never>>(initialDemand: .max(1))
    subject.checkImmediate().subscribe(subscriber)
    subject.send(1)
    expectEqual(subscriber.values, [0])
    // As from Combine's subject: new demand delivers the value that waited for it.
    subscriber.request(.max(1))
    expectEqual(subscriber.values, [0, 1])
    subject.send(2)
    expectEqual(subscriber.values, [0, 1])
    subscriber.request(.max(1))
    subscriber.cancel()
    subject.send(3)
    expectEqual(subscriber.values, [0, 1, 2])
  }

  @Test func theAssertionsPassAnHonestPublisherThrough() {
    var events: [String] = []
    let record: (Subscribers.Completion<ExtTestError>) -> Void = { events.append("\($0)") }
    _ = [1].publisher.setFailureType(to: ExtTestError.self).assertSingle()
      .sink(receiveCompletion: record, receiveValue: { events.append("\($0)") })
    _ = [Int]().publisher.setFailureType(to: ExtTestError.self).assertMaybe()
      .sink(receiveCompletion: record, receiveValue: { events.append("\($0)") })
    _ = [1, 2].publisher.eraseToAnyPublisher().assertImmediate().sink { events.append("\($0)") }
    _ = Fail<Int, ExtTestError>(error: .other).eraseToAnyPublisher().assertSingle()
      .sink(receiveCompletion: record, receiveValue: { events.append("\($0)") })
    expectEqual(events, ["1", "finished", "finished", "1", "2", "failure(RillExtTests.ExtTestError.other)"])
  }

  @Test func uncheckedTraitsTrustThePublisher() {
    let single: AnySinglePublisher<Int, Never> = [1, 2].publisher.prefix(1).uncheckedSingle()
    let maybe: AnyMaybePublisher<Int, Never> = [Int]().publisher.uncheckedMaybe()
    let immediate: AnyImmediatePublisher<Int, Never> = [1].publisher.eraseToAnyPublisher().uncheckedImmediate()
    var results: [String] = []
    _ = single.sinkSingle { results.append("\($0)") }
    _ = maybe.sinkMaybe { results.append("\($0)") }
    _ = immediate.sink { results.append("\($0)") }
    expectEqual(results, ["success(1)", "finished", "1"])
  }

  @Test func assertSingleStopsOnTooManyElements() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = [1, 2].publisher.assertSingle("Names:").sink { _ in }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Names: Single violation: too many elements at"))
  }

  @Test func assertSingleStopsOnMissingElement() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Empty<Int, Never>().assertSingle().sink { _ in }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Single violation: missing element at"))
  }

  @Test func assertMaybeStopsOnAFailureAfterTheValue() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Just(1).setFailureType(to: ExtTestError.self).append(Fail(error: .upstream)).assertMaybe()
        .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Maybe violation: error completion after one element was published"))
  }

  @Test func assertImmediateStopsOnALateValue() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = PassthroughSubject<Int, Never>().assertImmediate().sink { _ in }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Immediate violation: did not publish an element or fail right on subscription"))
  }
}

/// Asking a publisher that has a trait already for the same trait still works, with CombineTraits' deprecation
/// warning; the calls are in a deprecated function so that the test target builds without warnings.
@available(*, deprecated)
private func redundantTraitCallsStillBuild() {
  _ = Just(1).assertSingle()
  _ = Just(1).assertMaybe()
  _ = Just(1).assertImmediate()
  _ = Just(1).uncheckedSingle()
  _ = Just(1).uncheckedMaybe()
  _ = Just(1).uncheckedImmediate()
}
