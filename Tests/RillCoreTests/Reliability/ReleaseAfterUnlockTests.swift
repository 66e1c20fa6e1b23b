import RillCore
import RillTesting
import Testing

/// Operators let go of values, buffers and subscriptions after unlocking.
///
/// A `deinit` that calls back into the pipeline (cancels, requests, sends into the source) then returns instead of
/// waiting for a lock its own thread holds. Each case would hang its thread; the probe runs it on a thread of its
/// own and fails the test when it does not return.
@Suite struct ReleaseAfterUnlockTests {
  typealias Failure = ReleaseProbe.Failure

  private func expectReturns<P: Publisher>(
    _ reentry: ReleaseProbe.Reentry,
    _ demand: ContractDemand,
    _ ending: ReleaseProbe.Ending,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ pipeline: @escaping (ReleaseProbe.Source) -> P
  ) async {
    let report = await ReleaseProbe.check(reentry: reentry, demand: demand, ending: ending, pipeline)
    #expect(report.hasReturned, "\(report)", sourceLocation: sourceLocation)
    #expect(report.reentries > 0, "\(report)", sourceLocation: sourceLocation)
  }

  @Test func flatMapsBufferOnCancel() async {
    await expectReturns(.request, .none, .cancel) { $0.flatMap { Just($0).setFailureType(to: Failure.self) } }
  }

  @Test func mergesFinishedChildSubscription() async {
    await expectReturns(.request, .unlimited, .finish) { source in source.flatMap { _ in source.prefix(1) } }
  }

  @Test func receiveOnQueueOnCancel() async {
    await expectReturns(.request, .unlimited, .cancel) { $0.receive(on: $0.scheduler) }
  }

  @Test func delayQueueWhenTheCompletionIsDelivered() async {
    await expectReturns(.request, .max(1), .finish) { $0.delay(for: 2, scheduler: $0.scheduler) }
  }

  @Test func zipBuffersOnCancel() async {
    await expectReturns(.request, .unlimited, .cancel) { $0.zip($0.dropFirst()) }
  }

  @Test func zipUpstreamSlotOnFinish() async {
    await expectReturns(.request, .unlimited, .finish) { $0.zip($0.dropFirst()) }
  }

  @Test func combineLatestsBuffersOnCancel() async {
    await expectReturns(.request, .unlimited, .cancel) { $0.combineLatest($0.prefix(2)) }
  }

  @Test func debouncePendingValueOnCancel() async {
    await expectReturns(.request, .unlimited, .cancel) { $0.debounce(for: 3, scheduler: $0.scheduler) }
  }

  @Test func throttlePendingValueOnCancel() async {
    await expectReturns(.request, .unlimited, .cancel) { $0.throttle(for: 10, scheduler: $0.scheduler, latest: true) }
  }

  @Test func timeoutQueueOnCancel() async {
    await expectReturns(.request, .unlimited, .cancel) { $0.timeout(50, scheduler: $0.scheduler) }
  }

  @Test func collectByTimeBufferOnCancel() async {
    await expectReturns(.request, .unlimited, .cancel) { $0.collect(.byTime($0.scheduler, 4)) }
  }

  @Test func retrysFailedAttempt() async {
    await expectReturns(.request, .unlimited, .fail) { $0.retry(2) }
  }

  @Test func concatenatesSuffixOnAPrefixFailure() async {
    await expectReturns(.request, .unlimited, .fail) { $0.append($0) }
  }

  @Test func buffersDroppedOldestValue() async {
    await expectReturns(.request, .none, .finish) { $0.buffer(size: 3, prefetch: .keepFull, whenFull: .dropOldest) }
  }

  @Test func buffersValuesOnCancel() async {
    await expectReturns(.request, .none, .cancel) { $0.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest) }
  }

  @Test func collectsElementsOnCancel() async {
    await expectReturns(.request, .unlimited, .cancel) { $0.collect() }
  }

  @Test func reducesPartialResultOnCancel() async {
    await expectReturns(.request, .unlimited, .cancel) { source in source.reduce(source.value(0)) { $1 } }
  }

  @Test func prefixUntilOutputsUpstreamSubscriptionOnFinish() async {
    await expectReturns(.request, .unlimited, .finish) {
      $0.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false))
    }
  }
}
