import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct MaybePublisherTests {
  @Test func sinkMaybeReportsEachOutcomeOnce() {
    let box = ResultBox<MaybeResult<Int, ExtTestError>>()
    let upstream = ExtUpstream()
    let cancellable = TrustedUpstream(upstream: upstream).sinkMaybe { box.results.append($0) }
    expectEqual(upstream.requestedDemands, [.unlimited])
    _ = upstream.send(1)
    expectEqual(box.results, [.success(1)])
    upstream.send(completion: .finished)
    expectEqual(box.results, [.success(1)])
    cancellable.cancel()

    let empty = ResultBox<MaybeResult<Int, ExtTestError>>()
    _ = AnyMaybePublisher<Int, ExtTestError>.empty().sinkMaybe { empty.results.append($0) }
    expectEqual(empty.results, [.finished])

    let failed = ResultBox<MaybeResult<Int, ExtTestError>>()
    _ = AnyMaybePublisher<Int, ExtTestError>.fail(.upstream).sinkMaybe { failed.results.append($0) }
    expectEqual(failed.results, [.failure(.upstream)])
  }

  @Test func sinkMaybeIsSilentAfterCancel() {
    let box = ResultBox<MaybeResult<Int, ExtTestError>>()
    let upstream = ExtUpstream()
    let cancellable = TrustedUpstream(upstream: upstream).sinkMaybe { box.results.append($0) }
    cancellable.cancel()
    #expect(upstream.isCancelled)
    _ = upstream.send(1)
    upstream.send(completion: .finished)
    #expect(box.results.isEmpty)
  }

  @Test func theFactoriesPublishWhatTheySay() {
    var values: [String] = []
    _ = AnyMaybePublisher.just(1).sink { values.append("\($0)") }
    _ = AnyMaybePublisher.just(2, failureType: ExtTestError.self)
      .sink(receiveCompletion: { values.append("\($0)") }, receiveValue: { values.append("\($0)") })
    _ = AnyMaybePublisher.empty(outputType: Int.self, failureType: ExtTestError.self)
      .sink(receiveCompletion: { values.append("\($0)") }, receiveValue: { values.append("\($0)") })
    _ = AnyMaybePublisher.fail(ExtTestError.other, outputType: Int.self)
      .sink(receiveCompletion: { values.append("\($0)") }, receiveValue: { values.append("\($0)") })
    expectEqual(values, ["1", "2", "finished", "finished", "failure(RillExtTests.ExtTestError.other)"])

    let never = TestSubscriber<Int, ExtTestError>()
    AnyMaybePublisher<Int, ExtTestError>.never().subscribe(never)
    AnyMaybePublisher.never(outputType: Int.self, failureType: ExtTestError.self).subscribe(never)
    expectEqual(never.eventDescriptions, ["subscription", "subscription"])
  }

  @Test func theFactoriesInferTheirTypesFromTheReturnType() {
    func name() -> AnyMaybePublisher<String, any Error> { .just("Alice") }
    func none() -> AnyMaybePublisher<String, any Error> { .empty() }
    var names: [MaybeResult<String, any Error>] = []
    _ = name().sinkMaybe { names.append($0) }
    _ = none().sinkMaybe { names.append($0) }
    #expect(names.map { (try? $0.get()) ?? "none" } == ["Alice", "none"])
  }

  @Test func theErasedPublisherForwardsDemandAndCancel() {
    let (upstream, subscriber) = extSubscribe(
      { TrustedUpstream(upstream: $0).eraseToAnyMaybePublisher() },
      initialDemand: .max(1)
    )
    expectEqual(upstream.requestedDemands, [.max(1)])
    _ = upstream.send(3)
    upstream.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(3)", "finished"])

    let (other, cancelled) = extSubscribe({ TrustedUpstream(upstream: $0).eraseToAnyMaybePublisher() })
    cancelled.cancel()
    #expect(other.isCancelled)
  }

  @Test func theErasedPipelineIsFreed() {
    let make = { (upstream: ExtUpstream) in TrustedUpstream(upstream: upstream).eraseToAnyMaybePublisher() }
    #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }))
  }

  @Test func sinkMaybeLetsGoOfTheClosureAfterCompletion() {
    final class Token {}
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    let upstream = ExtUpstream()
    do {
      let token = Token()
      weakToken = token
      cancellable = TrustedUpstream(upstream: upstream).sinkMaybe { _ in _ = token }
    }
    #expect(weakToken != nil)
    upstream.send(completion: .finished)
    upstream.releaseSubscribers()
    #expect(weakToken == nil)
    _ = cancellable
  }

  @Test func maybeResultTransforms() throws {
    let success = MaybeResult<Int, ExtTestError>.success(2)
    #expect(success.map { $0 * 10 } == .success(20))
    #expect(MaybeResult<Int, ExtTestError>.finished.map { $0 * 10 } == .finished)
    #expect(MaybeResult<Int, ExtTestError>.failure(.upstream).mapError { _ in ExtTestError.other } == .failure(.other))
    #expect(success.flatMap { _ in MaybeResult<String, ExtTestError>.finished } == .finished)
    #expect(
      MaybeResult<Int, ExtTestError>.failure(.upstream).flatMapError { _ in MaybeResult<Int, Never>.success(0) }
        == .success(0)
    )
    #expect(try success.get() == 2)
    #expect(try MaybeResult<Int, ExtTestError>.finished.get() == nil)
    #expect(throws: ExtTestError.upstream) { try MaybeResult<Int, ExtTestError>.failure(.upstream).get() }
    expectEqual(Set([success, .finished, success]).count, 2)
  }
}
