import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct SinglePublisherTests {
  @Test func sinkSingleReportsTheValueOrTheError() {
    let box = ResultBox<Result<Int, ExtTestError>>()
    let upstream = ExtUpstream()
    let cancellable = TrustedUpstream(upstream: upstream).sinkSingle { box.results.append($0) }
    expectEqual(upstream.requestedDemands, [.unlimited])
    _ = upstream.send(1)
    upstream.send(completion: .finished)
    #expect(box.results.map { try? $0.get() } == [1])
    cancellable.cancel()

    let failed = ResultBox<Result<Int, ExtTestError>>()
    _ = AnySinglePublisher<Int, ExtTestError>.fail(.upstream).sinkSingle { failed.results.append($0) }
    expectEqual(failed.results.count, 1)
    #expect(throws: ExtTestError.upstream) { try failed.results[0].get() }
  }

  @Test func sinkSingleIsSilentAfterCancel() {
    let box = ResultBox<Result<Int, ExtTestError>>()
    let upstream = ExtUpstream()
    let cancellable = TrustedUpstream(upstream: upstream).sinkSingle { box.results.append($0) }
    cancellable.cancel()
    #expect(upstream.isCancelled)
    _ = upstream.send(1)
    #expect(box.results.isEmpty)
  }

  @Test func theFactoriesPublishWhatTheySay() {
    var events: [String] = []
    _ = AnySinglePublisher.just(1).sink { events.append("\($0)") }
    _ = AnySinglePublisher.just(2, failureType: ExtTestError.self)
      .sink(receiveCompletion: { events.append("\($0)") }, receiveValue: { events.append("\($0)") })
    _ = AnySinglePublisher<Int, ExtTestError>.fail(.upstream)
      .sink(receiveCompletion: { events.append("\($0)") }, receiveValue: { events.append("\($0)") })
    _ = AnySinglePublisher.fail(ExtTestError.other, outputType: Int.self)
      .sink(receiveCompletion: { events.append("\($0)") }, receiveValue: { events.append("\($0)") })
    #expect(
      events == [
        "1", "2", "finished", "failure(RillExtTests.ExtTestError.upstream)", "failure(RillExtTests.ExtTestError.other)",
      ]
    )

    let never = TestSubscriber<Int, ExtTestError>()
    AnySinglePublisher<Int, ExtTestError>.never().subscribe(never)
    AnySinglePublisher.never(outputType: Int.self, failureType: ExtTestError.self).subscribe(never)
    expectEqual(never.eventDescriptions, ["subscription", "subscription"])
  }

  @Test func theSeedExamplesBuild() {
    func namePublisher() -> AnySinglePublisher<String, any Error> {
      Just("Alice").setFailureType(to: (any Error).self).eraseToAnySinglePublisher()
    }
    func shortNamePublisher() -> AnySinglePublisher<String, any Error> { .just("Bob") }
    var names: [String] = []
    _ = namePublisher().sinkSingle { names.append((try? $0.get()) ?? "error") }
    _ = shortNamePublisher().sinkSingle { names.append((try? $0.get()) ?? "error") }
    expectEqual(names, ["Alice", "Bob"])
    let _: AnyMaybePublisher<String, any Error> = namePublisher().eraseToAnyMaybePublisher()
  }

  @Test func theErasedPublisherForwardsDemandAndCancel() {
    let (upstream, subscriber) = extSubscribe(
      { TrustedUpstream(upstream: $0).eraseToAnySinglePublisher() },
      initialDemand: .max(1)
    )
    expectEqual(upstream.requestedDemands, [.max(1)])
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(upstream)"])

    let (other, cancelled) = extSubscribe({ TrustedUpstream(upstream: $0).eraseToAnySinglePublisher() })
    cancelled.cancel()
    #expect(other.isCancelled)
  }

  @Test func theErasedPipelineIsFreed() {
    let make = { (upstream: ExtUpstream) in TrustedUpstream(upstream: upstream).eraseToAnySinglePublisher() }
    #expect(
      extPipelineIsFreed(
        make,
        drive: { upstream, _ in
          _ = upstream.send(1)
          upstream.send(completion: .finished)
        }
      )
    )
    #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }))
  }

}
