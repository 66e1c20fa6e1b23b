import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct PrefixDurationTests {
  @Test func docMarbles() {
    let scheduler = TestScheduler()
    #expect(scheduler.marbles("-1-2-3-4-|", as: Int.self) { $0.prefix(duration: 4, on: scheduler) } == "-1-2|")
  }

  @Test func valuesCompletionAndFailure() {
    let scheduler = TestScheduler()
    #expect(scheduler.marbles("-1-|", as: Int.self) { $0.prefix(duration: 10, on: scheduler) } == "-1-|")
    #expect(scheduler.marbles("-1-^", as: Int.self) { $0.prefix(duration: 10, tolerance: 1, on: scheduler) } == "-1-^")
    // The window starts at the subscription.
    scheduler.advance(by: 10)
    let (upstream, subscriber) = extSubscribe { $0.prefix(duration: 3, on: scheduler) }
    scheduler.advance(by: 2)
    upstream.send(1)
    scheduler.advance(by: 1)
    upstream.send(2)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
  }

  @Test func demandCancellationAndMemory() {
    let scheduler = TestScheduler()
    let (upstream, subscriber) = extSubscribe({ $0.prefix(duration: 5, on: scheduler) }, initialDemand: .max(2))
    expectEqual(upstream.requestedDemands, [.max(2)])
    upstream.send(1)
    scheduler.advance(by: 5)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
    #expect(upstream.isCancelled)

    let (cancelled, early) = extSubscribe { $0.prefix(duration: 5, on: scheduler) }
    early.cancel()
    #expect(cancelled.isCancelled)
    scheduler.advance(by: 10)
    expectEqual(early.eventDescriptions, ["subscription"])

    // The scheduler holds the timer's action, and what it leads to, until the action's time.
    let make = { (upstream: ExtUpstream) in upstream.prefix(duration: 5, on: scheduler) }
    #expect(
      extPipelineIsFreed(
        make,
        drive: { upstream, _ in
          upstream.send(completion: .finished)
          scheduler.advance(by: 5)
        }
      )
    )
    #expect(
      extPipelineIsFreed(
        make,
        drive: { _, subscriber in
          subscriber.cancel()
          scheduler.advance(by: 5)
        }
      )
    )
    #expect(extPipelineIsFreed(make, drive: { _, _ in scheduler.advance(by: 5) }))
  }

  @Test func contract() {
    let scheduler = TestScheduler()
    expectContract("prefix(duration:)") { [1, 2].publisher.prefix(duration: 5, on: scheduler) }
    let _: AnyPublisher<Int, Never> = Just(1).prefix(duration: 1, tolerance: nil, on: scheduler, options: nil)
  }
}
