import RillCore
import RillTesting
import Testing

/// The first test of each time operator: its documented marble diagram, character for character.
@Suite struct TimingMarbleTests {
  @Test func delayMarble() {
    let scheduler = TestScheduler()
    #expect(scheduler.marbles("-1-2-|") { $0.delay(for: 2, scheduler: scheduler) } == "---1-2-|")
  }

  @Test func debounceMarble() {
    let scheduler = TestScheduler()
    #expect(
      scheduler.marbles("-a-b-----c----|") { $0.debounce(for: 3, scheduler: scheduler) } == "------b-----c-|"
    )
  }

  @Test func throttleMarble() {
    let scheduler = TestScheduler()
    #expect(
      scheduler.marbles("-abc---de-|") { $0.throttle(for: 3, scheduler: scheduler, latest: true) } == "-a--c--d--[e|]"
    )
  }

  @Test func timeoutMarble() {
    let scheduler = TestScheduler()
    #expect(scheduler.marbles("-1-----2-|") { $0.timeout(3, scheduler: scheduler) } == "-1--|")
  }

  @Test func receiveOnMarble() {
    let scheduler = TestScheduler()
    #expect(scheduler.marbles("-1-2-|") { $0.receive(on: scheduler) } == "-1-2-|")
  }

  @Test func subscribeOnMarble() {
    let scheduler = TestScheduler()
    #expect(scheduler.marbles("-1-2-|") { $0.subscribe(on: scheduler) } == "-1-2-|")
  }

  @Test func measureIntervalMarble() {
    let scheduler = TestScheduler()
    #expect(
      scheduler.marbles("-a--b---c|") { $0.measureInterval(using: scheduler).map { "\($0.ticks)" } } == "-1--3---4|"
    )
  }

  @Test func collectByTimeMarble() {
    let scheduler = TestScheduler()
    #expect(
      scheduler.marbles("-a-b--c-d-e-|") { $0.collect(.byTime(scheduler, 4)).map { $0.joined() } }
        == "----'ab'---'cd'---[e|]"
    )
  }

  @Test func collectByTimeOrCountMarble() {
    let scheduler = TestScheduler()
    #expect(
      scheduler.marbles("-abc-d-----|") { $0.collect(.byTimeOrCount(scheduler, 5, 2)).map { $0.joined() } }
        == "--'ab'--c----d|"
    )
  }
}
