import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct TimelineAttachmentTests {
  @Test func aMarbleDifferenceShowsTheTimelineWhenTheDiagramsDiffer() {
    let scheduler = TestScheduler()
    let timeline = Timeline(clock: .virtual(scheduler))
    let result = scheduler.marbles("-a-b----c---|") { source in
      source.lane("source", timeline: timeline).debounce(for: 2, scheduler: scheduler)
        .lane("debounced", timeline: timeline)
    }
    #expect(MarbleDifference(expected: "-----b----c-|", actual: result, timeline: timeline) == nil)
    let difference = MarbleDifference(expected: "-----b---c--|", actual: result, timeline: timeline)
    expectEqual(difference?.timeline, timeline.text())
    let description = difference?.description ?? ""
    #expect(
      description.hasPrefix(#"expected c at tick 9, got nothing (expected "-----b---c--|", actual "-----b----c-|")"#)
    )
    #expect(
      description.contains(
        """

        What happened:
        Timeline: 2 lanes, 2 subscriptions, 0 ns to 12 ns, 1 ns per column
                   0 ns      10 ns     20 ns
                   |         |         |
        source     -a-b----c---|
        debounced  -----b----c-|

        """
      )
    )
    #expect(description.contains("\nsource     -a-b----c---|\n"))
    #expect(description.contains("\ndebounced  -----b----c-|\n"))
  }

  @Test func withoutATimelineNothingChanges() {
    let difference = MarbleDifference(expected: "-a-|", actual: "-b-|")
    #expect(difference?.timeline == nil)
    #expect(difference?.description == #"expected a at tick 1, got b (expected "-a-|", actual "-b-|")"#)
  }

  @Test func aRecorderShowsItsTimelineInItsDescriptionAndDifferences() {
    let scheduler = TestScheduler()
    let timeline = Timeline(clock: .virtual(scheduler))
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    #expect(subscriber.timeline == nil)
    subscriber.timeline = timeline
    upstream.lane("upstream", timeline: timeline).filter { $0 > 1 }.subscribe(subscriber)
    scheduler.advance(by: 1)
    upstream.send(1)
    scheduler.advance(by: 1)
    upstream.send(2)
    #expect(subscriber.description.hasPrefix("TestSubscriber[0: subscription, 2: value(2)]\n\nWhat happened:\n"))
    #expect(subscriber.description.contains("\nupstream  -12\n"))
    let difference = subscriber.marbleDifference(expected: "--3")
    expectEqual(difference?.timeline, timeline.text())
    #expect(subscriber.timeline === timeline)
  }

  @Test func aVirtualClockReadsTheSchedulersTime() {
    let scheduler = TestScheduler()
    let clock = Timeline.Clock.virtual(scheduler)
    scheduler.advance(by: 42)
    expectEqual(clock.now(), 42)
  }
}
