import RillExt
import RillTestSupport
import RillTesting
import Testing

/// Hands a promise to other tasks; promises may be called from any thread.
private struct SendablePromise<R>: @unchecked Sendable {
  let call: (R) -> Void
}

@Suite(.tags(.stress)) struct TraitPublishersStressTests {
  @Test func anOutcomeRacingACancelArrivesWholeOrNotAtAll() async {
    for _ in 0..<200 {
      let keeper = PromiseKeeper<Result<Int, Never>>()
      let subscriber = TestSubscriber<Int, Never>()
      TraitPublishers.Single<Int, Never>(keeper.start).subscribe(subscriber)
      let promise = SendablePromise(call: keeper.promises[0])
      await withTaskGroup(of: Void.self) { group in
        group.addTask { promise.call(.success(1)) }
        group.addTask { promise.call(.success(2)) }
        group.addTask { subscriber.cancel() }
      }
      // A cancel that lands between the value and `.finished` silences `.finished`.
      let events = subscriber.eventDescriptions
      let value = events.dropFirst().first
      #expect(events.first == "subscription" && events.count <= 3)
      #expect(value == nil || value == "value(1)" || value == "value(2)")
      #expect(events.count < 3 || events[2] == "finished")
      expectEqual(keeper.cleanups, 1)
    }
  }

  @Test func anOutcomeRacingTheFirstDemandIsDeliveredOnce() async {
    for _ in 0..<200 {
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
      var promise: SendablePromise<MaybeResult<Int, Never>>?
      TraitPublishers.Maybe<Int, Never> { kept in
        promise = SendablePromise(call: kept)
        return AnyCancellable {}
      }
      .subscribe(subscriber)
      subscriber.request(.max(1))
      guard let promise else { continue }
      await withTaskGroup(of: Void.self) { group in
        group.addTask { promise.call(.success(1)) }
        group.addTask { promise.call(.finished) }
        group.addTask { subscriber.request(.max(1)) }
      }
      let events = subscriber.eventDescriptions
      #expect(events == ["subscription", "value(1)", "finished"] || events == ["subscription", "finished"])
    }
  }
}
