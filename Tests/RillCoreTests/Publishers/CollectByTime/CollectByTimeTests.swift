import RillCore
import RillTesting
import Testing

@Suite struct CollectByTimeTests {
  @Test func byTimeEmitsEachInterval() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(scheduler: scheduler)
    upstream.collect(.byTime(scheduler, 4)).subscribe(subscriber)
    #expect(upstream.requestedDemands == [.unlimited])
    upstream.send(1)
    upstream.send(2)
    scheduler.advance(by: 5)
    scheduler.advance(by: 4)
    upstream.send(3)
    upstream.send(completion: .finished)
    #expect(subscriber.stampedEvents == ["[1, 2]@4", "[3]@9", "finished@9"])
    #expect(scheduler.scheduledActionCount == 0)
  }

  @Test func byTimeOrCountEmitsFullBuffersAtOnce() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(scheduler: scheduler, initialDemand: .max(2), demandPerValue: .max(1))
    upstream.collect(.byTimeOrCount(scheduler, 10, 2)).subscribe(subscriber)
    #expect(upstream.requestedDemands == [.max(4)])
    upstream.send(1)
    upstream.send(2)
    #expect(upstream.requestedDemands == [.max(4), .max(2)])
    upstream.send(3)
    scheduler.advance(by: 10)
    #expect(subscriber.stampedEvents == ["[1, 2]@0", "[3]@10"])
  }

  @Test func byTimeOrCountFlushesThePartialBufferOnFinish() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(scheduler: scheduler)
    upstream.collect(.byTimeOrCount(scheduler, 10, 3)).subscribe(subscriber)
    #expect(upstream.requestedDemands == [.unlimited])
    upstream.send(1)
    scheduler.advance(by: 2)
    upstream.send(completion: .finished)
    #expect(subscriber.stampedEvents == ["[1]@2", "finished@2"])
    #expect(scheduler.scheduledActionCount == 0)
  }

  @Test func byTimeOrCountFailureDropsTheBuffer() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<[Int], TimeOpsError>()
    upstream.collect(.byTimeOrCount(scheduler, 10, 3)).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(.boom))
    scheduler.advance(by: 20)
    #expect(subscriber.stampedEvents == ["failure"])
    #expect(subscriber.completion == .failure(.boom))
    #expect(scheduler.scheduledActionCount == 0)
  }

  @Test func failureDropsTheBuffer() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, TimeOpsError>()
    let subscriber = TestSubscriber<[Int], TimeOpsError>()
    upstream.collect(.byTime(scheduler, 4)).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(.boom))
    #expect(subscriber.stampedEvents == ["failure"])
  }

  @Test func lastArrayWaitsForDemand() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
    upstream.collect(.byTime(scheduler, 4)).subscribe(subscriber)
    upstream.send(1)
    scheduler.advance(by: 4)
    upstream.send(completion: .finished)
    #expect(subscriber.stampedEvents.isEmpty)
    subscriber.subscription?.request(.max(1))
    #expect(subscriber.stampedEvents == ["[1]", "finished"])
  }

  @Test func cancelStopsTimerAndUpstream() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>()
    upstream.collect(.byTime(scheduler, 4)).subscribe(subscriber)
    upstream.send(1)
    subscriber.cancel()
    #expect(upstream.cancelCount == 1)
    #expect(scheduler.scheduledActionCount == 0)
    scheduler.advance(by: 10)
    #expect(subscriber.stampedEvents.isEmpty)
  }
}
