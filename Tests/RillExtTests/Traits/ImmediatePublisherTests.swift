import RillExt
import RillTestSupport
import RillTesting
import Testing

private func isImmediate<P: Publisher>(_ publisher: P) -> Bool { false }
private func isImmediate<P: ImmediatePublisher>(_ publisher: P) -> Bool { true }

@Suite struct ImmediatePublisherTests {
  /// As in CombineTraits: a concatenation publishes on subscription when its prefix does, whatever its suffix.
  @Test func concatenateIsImmediateWhenItsPrefixIs() {
    let later = PassthroughSubject<Int, Never>()
    let now = AnyImmediatePublisher<Int, Never>.just(1)
    #expect(isImmediate(now.append(later)))
    #expect(isImmediate(now.append(now)))
    #expect(isImmediate(Just(0).append(later)))
    #expect(!isImmediate(later.append(now)))
    #expect(!isImmediate(later.append(later)))
  }

  /// As in CombineTraits: a sequence may be empty and a completed subject sends no value, so neither is immediate,
  /// and a sequence prepended to a publisher does not make it immediate.
  @Test func sequencesAndCurrentValueSubjectsAreNotImmediate() {
    let erased = Just(1).eraseToAnyPublisher()
    #expect(!isImmediate([1].publisher))
    #expect(!isImmediate(erased.prepend([])))
    #expect(!isImmediate(erased.prepend(1)))
    #expect(!isImmediate(CurrentValueSubject<Int, Never>(0)))
    #expect(isImmediate(AnyImmediatePublisher<Int, Never>.just(1).append([])))
  }

  /// The reason: an empty sequence and a completed current value subject finish without a value.
  @Test func anEmptySequenceAndACompletedSubjectPublishNoValue() {
    let subject = CurrentValueSubject<Int, Never>(0)
    subject.send(completion: .finished)
    let fromSubject = TestSubscriber<Int, Never>()
    subject.subscribe(fromSubject)
    expectEqual(fromSubject.eventDescriptions, ["subscription", "finished"])
    let fromSequence = TestSubscriber<Int, Never>()
    [Int]().publisher.subscribe(fromSequence)
    expectEqual(fromSequence.eventDescriptions, ["subscription", "finished"])
  }

  @Test func theFactoriesPublishBeforeSubscribeReturns() {
    let just = TestSubscriber<Int, Never>()
    AnyImmediatePublisher.just(1).subscribe(just)
    expectEqual(just.eventDescriptions, ["subscription", "value(1)", "finished"])

    let typed = TestSubscriber<Int, ExtTestError>()
    AnyImmediatePublisher.just(2, failureType: ExtTestError.self).subscribe(typed)
    AnyImmediatePublisher<Int, ExtTestError>.fail(.upstream).subscribe(typed)
    AnyImmediatePublisher.fail(ExtTestError.other, outputType: Int.self).subscribe(typed)
    #expect(
      typed.eventDescriptions == [
        "subscription", "value(2)", "finished", "subscription", "failure(upstream)", "subscription", "failure(other)",
      ]
    )
  }

  @Test func theErasedPublisherForwardsDemandAndCancel() {
    let (upstream, subscriber) = extSubscribe(
      { TrustedUpstream(upstream: $0).eraseToAnyImmediatePublisher() },
      initialDemand: .max(2)
    )
    expectEqual(upstream.requestedDemands, [.max(2)])
    _ = upstream.send(1)
    _ = upstream.send(2)
    expectEqual(subscriber.values, [1, 2])
    subscriber.cancel()
    #expect(upstream.isCancelled)
  }

  @Test func theErasedPipelineIsFreed() {
    let make = { (upstream: ExtUpstream) in TrustedUpstream(upstream: upstream).eraseToAnyImmediatePublisher() }
    #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }))
  }

  @Test func failuresReachEachSubscriber() {
    let failing = TestSubscriber<Int, ExtTestError>()
    AnyImmediatePublisher<Int, ExtTestError>.fail(.upstream).subscribe(failing)
    expectEqual(failing.eventDescriptions, ["subscription", "failure(upstream)"])
  }
}
