import RillTestSupport
import RillTesting
import Testing

@Suite struct MarbleDifferenceTests {
  @Test(arguments: [
    ("-a-b-|", "-a-b-|"),
    ("-a-b-|", " - a - b - | "),
    ("-a-'b'-|", "-'a'-b-|"),
    ("-a--", "-a"),
    ("", ""),
    ("", "---"),
    ("[ab|]", "[a b |]"),
    ("-'10'-!", "-'10'-!"),
  ])
  func sameTimelinesHaveNoDifference(expected: String, actual: String) {
    #expect(MarbleDifference(expected: expected, actual: actual) == nil)
  }

  @Test func aDifferentValueNamesItsTick() throws {
    let difference = try #require(MarbleDifference(expected: "-a-b-|", actual: "-a-c-|"))
    expectEqual(difference.tick, 3)
    expectEqual(difference.expectedEvents, ["b"])
    expectEqual(difference.actualEvents, ["c"])
    #expect(difference.error == nil)
    #expect(difference.description == #"expected b at tick 3, got c (expected "-a-b-|", actual "-a-c-|")"#)
  }

  @Test(arguments: [
    ("-a-b-|", "-a-b--", "expected finished at tick 5, got nothing"),
    ("-a", "-ax", "expected nothing at tick 2, got x"),
    ("-a-b^", "-a-b|", "expected failure at tick 4, got finished"),
    ("-[b|]", "-b|", "expected b and finished at tick 1, got b"),
    ("[ab]", "[ba]", "expected a and b at tick 0, got b and a"),
    ("--[ab^]", "--[ab]", "expected a, b and failure at tick 2, got a and b"),
    ("-'10'-|", "-'11'-|", "expected '10' at tick 1, got '11'"),
    ("-a!", "-a-|", "expected cancellation at tick 2, got nothing"),
    ("->a", "-a", "expected subscription at tick 1, got a"),
    ("", "|", "expected nothing at tick 0, got finished"),
    ("|", "", "expected finished at tick 0, got nothing"),
    ("-'-'-|", "--|", "expected '-' at tick 1, got nothing"),
  ])
  func descriptionsNameTheFirstDifference(expected: String, actual: String, words: String) throws {
    let difference = try #require(MarbleDifference(expected: expected, actual: actual))
    expectEqual(difference.description, "\(words) (expected \"\(expected)\", actual \"\(actual)\")")
  }

  @Test func onlyTheFirstDifferenceIsReported() throws {
    let difference = try #require(MarbleDifference(expected: "-a-b-c-|", actual: "-x-y-c-^"))
    expectEqual(difference.tick, 1)
    expectEqual(difference.expectedEvents, ["a"])
    expectEqual(difference.actualEvents, ["x"])
  }

  @Test func groupsListTheirEventsInMarbleNotation() throws {
    let difference = try #require(MarbleDifference(expected: "-[a'10'|]", actual: "-[a^]"))
    expectEqual(difference.expectedEvents, ["a", "'10'", "|"])
    expectEqual(difference.actualEvents, ["a", "^"])
  }

  @Test func aMalformedDiagramIsADifference() throws {
    let expected = try #require(MarbleDifference(expected: "-[a", actual: "-a"))
    #expect(expected.tick == nil)
    #expect(expected.expectedEvents.isEmpty && expected.actualEvents.isEmpty)
    #expect(
      expected.error == #"the expected diagram is malformed: marble error at index 1 of "-[a": an unterminated group"#
    )
    #expect(
      expected.description
        == #"the expected diagram is malformed: marble error at index 1 of "-[a": an unterminated group (expected "-[a", actual "-a")"#
    )
    let actual = try #require(MarbleDifference(expected: "-a", actual: "-a]"))
    #expect(
      actual.error == #"the actual diagram is malformed: marble error at index 2 of "-a]": ']' without a matching '['"#
    )
    #expect(MarbleDifference(expected: "-[a", actual: "-[a") != nil)
  }

  @Test func aMarbleErrorFromAHelperIsNamedAsSuch() throws {
    // This message happens to parse as a diagram of one-character values; it must not be compared as one.
    let result = TestScheduler.marbles("-1-a") { $0.map { $0 + 1 } }
    #expect(result == #"marble error at index 3 of "-1-a": 'a' is not a valid Int"#)
    let difference = try #require(MarbleDifference(expected: "-2-", actual: result))
    #expect(difference.tick == nil)
    #expect(difference.error == #"the actual diagram is a marble error at index 3 of "-1-a": 'a' is not a valid Int"#)
  }

  @Test func comparesWhatASubscriberRecorded() throws {
    let scheduler = TestScheduler()
    let subscriber = TestSubscriber<Int, MarbleError>(scheduler: scheduler)
    try scheduler.marblePublisher("-1-2-|", as: Int.self).map { $0 * 2 }.subscribe(subscriber)
    scheduler.run()
    #expect(subscriber.marbleDifference(expected: "-2-4-|") == nil)
    let difference = try #require(subscriber.marbleDifference(expected: "-2-4-^"))
    #expect(difference.description == #"expected failure at tick 5, got finished (expected "-2-4-^", actual "-2-4-|")"#)
  }

  @Test func subscriberTimesCountFromTheGivenStart() throws {
    let scheduler = TestScheduler(now: 100)
    let subscriber = TestSubscriber<String, MarbleError>(scheduler: scheduler)
    try scheduler.marblePublisher("-a-[b|]").subscribe(subscriber)
    scheduler.run()
    #expect(subscriber.marbleDifference(expected: "-a-[b|]", from: 100) == nil)
    let difference = try #require(subscriber.marbleDifference(expected: "-a-b|", from: 100))
    expectEqual(difference.tick, 3)
    expectEqual(difference.expectedEvents, ["b"])
    expectEqual(difference.actualEvents, ["b", "|"])
  }

  @Test func subscriberCancellationAndEmptyTimelines() throws {
    let scheduler = TestScheduler()
    let subscriber = TestSubscriber<String, MarbleError>(scheduler: scheduler)
    #expect(subscriber.marbleDifference(expected: "") == nil)
    #expect(subscriber.marbleDifference(expected: "---") == nil)
    try scheduler.marblePublisher("-a-b-|").subscribe(subscriber)
    scheduler.advance(by: 2)
    subscriber.cancel()
    scheduler.run()
    #expect(subscriber.marbleDifference(expected: "-a!") == nil)
    let difference = try #require(subscriber.marbleDifference(expected: "-a-b-|"))
    #expect(
      difference.description == #"expected nothing at tick 2, got cancellation (expected "-a-b-|", actual "-a!")"#
    )
  }

  @Test func aSubscriberWithoutASchedulerRecordsEverythingAtTickZero() throws {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].publisher.subscribe(subscriber)
    #expect(subscriber.marbleDifference(expected: "[12|]") == nil)
    let difference = try #require(subscriber.marbleDifference(expected: "-1-2-|"))
    expectEqual(difference.tick, 0)
    expectEqual(difference.actualEvents, ["1", "2", "|"])
  }

  @Test func eventsThatBreakTheContractCompareLikeOthers() throws {
    #expect(MarbleDifference(expected: "-[1|]2", actual: "-[1|]2") == nil)
    #expect(MarbleDifference(expected: "-[||]!!", actual: "-[| |]!!") == nil)
    let difference = try #require(MarbleDifference(expected: "-[1|]", actual: "-[1|]2"))
    #expect(difference.description == #"expected nothing at tick 2, got 2 (expected "-[1|]", actual "-[1|]2")"#)
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    upstream.subscribe(subscriber)
    scheduler.advance(by: 1)
    upstream.send(1)
    upstream.send(completion: .finished)
    scheduler.advance(by: 1)
    upstream.send(2)
    #expect(subscriber.marbleDifference(expected: "-[1|]2") == nil)
  }

  @Test func aFailingExpectationPrintsTheDifference() {
    withKnownIssue {
      #expect(MarbleDifference(expected: "-a-b-|", actual: "-a-c-|") == nil)
    } matching: { issue in
      String(describing: issue).contains("expected b at tick 3, got c")
    }
  }
}
