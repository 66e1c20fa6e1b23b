import RillTestSupport
import RillTesting
import Testing

/// `tick:` says how long a tick of a diagram lasts, so diagrams draw real durations.
@Suite struct TickMarbleTests {
  @Test func aDebounceOfThreeHundredMillisecondsInTicksOfOneHundred() {
    let scheduler = TestScheduler()
    let result = scheduler.marbles("-a-b-----c----|", tick: .milliseconds(100)) {
      $0.debounce(for: .milliseconds(300), scheduler: scheduler)
    }
    expectEqual(result, "------b-----c-|")
  }

  @Test func sourcesSendOnWholeTicksOfTheGivenLength() {
    let scheduler = TestScheduler()
    var times: [Int] = []
    let result = scheduler.marbles("-1--2|", as: Int.self, tick: .seconds(1)) { source in
      source.handleEvents(receiveOutput: { _ in times.append(scheduler.now.ticks) })
    }
    expectEqual(result, "-1--2|")
    expectEqual(times, [1_000_000_000, 4_000_000_000])
  }

  @Test func anEventBetweenTwoTicksIsDrawnAtTheNext() {
    let scheduler = TestScheduler()
    let result = scheduler.marbles("-1|", as: Int.self, tick: .milliseconds(100)) {
      $0.delay(for: .milliseconds(250), scheduler: scheduler)
    }
    expectEqual(result, "----1|")
  }

  @Test func tickZeroIsTheSchedulersTimeWhenTheHelperStarts() {
    let scheduler = TestScheduler()
    scheduler.advance(by: .milliseconds(50))
    let result = scheduler.marbles("-a-|", tick: .milliseconds(100)) {
      $0.delay(for: .milliseconds(100), scheduler: scheduler)
    }
    expectEqual(result, "--a-|")
  }

  @Test func hotSourcesAndTheSubscriptionAndCancellationPointsUseTheTick() {
    let scheduler = TestScheduler()
    let result = scheduler.marbles("-a>-b-c-!-d-|", hot: true, tick: .milliseconds(10)) {
      $0.delay(for: .milliseconds(10), scheduler: scheduler)
    }
    expectEqual(result, "-----b-c!")
  }

  @Test func twoAndManySourceFormsTakeATick() {
    let scheduler = TestScheduler()
    #expect(
      scheduler.marbles("-a---|", "--b-|", tick: .seconds(1)) {
        $0.merge(with: $1).delay(for: .seconds(1), scheduler: scheduler)
      } == "--ab--|"
    )
    #expect(
      TestScheduler.marbles(["-1-|", "--2|", "3--|"], as: Int.self, tick: .seconds(2)) {
        Publishers.MergeMany($0)
      } == "312|"
    )
  }

  @Test func aMarbleSourceWithATickRecordsTheSchedulersTime() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.marbleSource("-a-b-|", tick: .milliseconds(1))
    let subscriber = TestSubscriber<String, MarbleError>(scheduler: scheduler)
    source.prefix(1).subscribe(subscriber)
    scheduler.run()
    expectEqual(subscriber.marbles(tick: .milliseconds(1)), "-[a|]")
    expectEqual(source.subscriptionRecords, [SubscriptionRecord(0...1_000_000)])
  }

  @Test func aRecorderRendersInTicksOfTheGivenLength() {
    let scheduler = TestScheduler()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    Just(1).delay(for: .milliseconds(250), scheduler: scheduler).subscribe(subscriber)
    scheduler.run()
    expectEqual(subscriber.marbles(tick: .milliseconds(100)), "---[1|]")
    expectEqual(subscriber.marbles(tick: .milliseconds(250)), "-[1|]")
  }
}
