import RillTestSupport
import RillTesting
import Testing

@Suite struct MarbleTests {
  @Test func passThroughRendersTheSameDiagram() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0 } == "-1-2-3-|")
    #expect(TestScheduler.marbles("-a-b-^") { $0.map { $0 } } == "-a-b-^")
    #expect(TestScheduler.marbles("[ab]-'10'-[c|]") { $0 } == "[ab]-'10'-[c|]")
    #expect(TestScheduler.marbles("-1-2--") { $0 } == "-1-2--")
    #expect(TestScheduler.marbles("") { $0 } == "")
  }

  @Test func spacesAreIgnored() {
    #expect(TestScheduler.marbles(" - 1 -  2 | ") { $0 } == "-1-2|")
  }

  @Test func valueTypeIsInferredFromTheTransform() {
    #expect(TestScheduler.marbles("-1-2-3-1-|") { $0.testingPrefix { $0 < 3 } } == "-1-2-|")
    #expect(TestScheduler.marbles("-1-2-|") { $0.map { $0 * 10 } } == "-'10'-'20'-|")
    #expect(TestScheduler.marbles("-1-2-3-4-|") { $0.filter { $0 % 2 == 0 } } == "---2---4-|")
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.scan(0, +) } == "-1-3-6-|")
    #expect(TestScheduler.marbles("-a-b-|") { $0.map { $0.uppercased() } } == "-A-B-|")
    #expect(
      TestScheduler.marbles("-1-2-|") { (source: AnyPublisher<Int, MarbleError>) in source.map { Double($0) / 2 } }
        == "-'0.5'-'1.0'-|"
    )
  }

  @Test func valueTypeCanBeNamed() {
    #expect(TestScheduler.marbles("-1-2-3-4-|", as: Int.self) { $0.filter { $0.isMultiple(of: 2) } } == "---2---4-|")
    let scheduler = TestScheduler()
    #expect(scheduler.marbles("-1-2-|", as: Double.self) { $0.map { $0 / 2 } } == "-'0.5'-'1.0'-|")
  }

  @Test func failureTypesCanChange() {
    struct Other: Error {}
    #expect(TestScheduler.marbles("-1-^") { _ in Fail<Int, Other>(error: Other()) } == "^")
    #expect(TestScheduler.marbles("-1-^") { _ in Just(7) } == "[7|]")
  }

  @Test func specialCharactersAreQuotedWhenRendered() {
    #expect(TestScheduler.marbles("-a-b-|") { $0.map { _ in "-" } } == "-'-'-'-'-|")
    #expect(TestScheduler.marbles("-a-|") { $0.map { _ in "" } } == "-''-|")
  }

  @Test func quotesAndBackslashesAreEscapedInsideQuotes() {
    #expect(TestScheduler.marbles("-a-|") { $0.map { _ in "it's" } } == #"-'it\'s'-|"#)
    #expect(TestScheduler.marbles("-a-|") { $0.map { _ in #"a\b"# } } == #"-'a\\b'-|"#)
    #expect(TestScheduler.marbles("-a-|") { $0.map { _ in "'" } } == #"-'\''-|"#)
    #expect(TestScheduler.marbles(#"-'it\'s'-'a\b'-|"#) { $0.map { $0.count } } == "-4-3-|")
    #expect(
      TestScheduler.marbles(#"-'it\'s-|"#) { $0 } == #"marble error at index 1 of "-'it\'s-|": an unterminated quote"#
    )
  }

  @Test func renderedValuesParseBackToTheSameValues() {
    let tricky = [
      "", "'", "''", "it's", #"\"#, #"\'"#, #"'\"#, #"a\b"#, #"\\"#, "-", "|", "^", "[", "]", ">", "!", ";", ",",
      " ", "a b", "[a|]", "'quoted'", "é", "🙂", "10",
    ]
    for value in tricky {
      for neighbour in ["x", "", "'", "ab"] {
        let rendered = TestScheduler.marbles("-a-b-|") { $0.map { $0 == "a" ? value : neighbour } }
        #expect(TestScheduler.marbles(rendered) { $0 } == rendered, "\(value) and \(neighbour)")
        let check = TestScheduler.marbles(rendered) { $0.map { $0 == value ? "v" : $0 == neighbour ? "n" : "?" } }
        #expect(check == (value == neighbour ? "-v-v-|" : "-v-n-|"), "\(value) and \(neighbour) as \(rendered)")
      }
    }
  }

  @Test func cancellationPointCancelsAndShowsInTheResult() {
    #expect(TestScheduler.marbles("-1-2-!-3-|") { $0 } == "-1-2-!")
    #expect(TestScheduler.marbles("-1-[2!]-3-|") { $0 } == "-1-[2!]")
  }

  @Test func hotSourcePlaysBeforeTheSubscriptionPoint() {
    #expect(TestScheduler.marbles("-1-2>-3-4|", hot: true) { $0 } == "------3-4|")
    #expect(TestScheduler.marbles("-1-2-3|", hot: true) { $0 } == "-1-2-3|")
    #expect(TestScheduler.marbles("-1-2-|->-", hot: true) { $0 } == "-------|")
    #expect(TestScheduler.marbles("-1-[>2]-!-3|", hot: true) { $0 } == "---2-!")
  }

  @Test func schedulerDrivenOperators() {
    let scheduler = TestScheduler()
    #expect(scheduler.marbles("-1-2-|") { $0.testingDelay(2, on: scheduler) } == "---1-2-|")
    let later = TestScheduler(now: 1_000)
    #expect(later.marbles("-a-b") { $0.testingDelay(3, on: later) } == "----a-b")
  }

  @Test func twoSources() {
    #expect(TestScheduler.marbles("-a---b-|", "--c-d---|") { $0.testingMerge($1) } == "-ac-db--|")
    #expect(TestScheduler.marbles("-1---3-|", "--2-4---|") { $0.map { $0 * 2 }.testingMerge($1) } == "-22-46--|")
    #expect(TestScheduler.marbles("-a>--b-|", "--c-d---|", hot: true) { $0.testingMerge($1) } == "--c-db--|")
  }

  @Test(arguments: [
    ("-1-[2", "marble error at index 3 of \"-1-[2\": an unterminated group"),
    ("-1]-", "marble error at index 2 of \"-1]-\": ']' without a matching '['"),
    ("-'10-", "marble error at index 1 of \"-'10-\": an unterminated quote"),
    ("-1-|-2", "marble error at index 5 of \"-1-|-2\": an event after the completion at index 3"),
    ("[a[b]]", "marble error at index 2 of \"[a[b]]\": a group inside the group opened at index 0"),
    ("-[]-", "marble error at index 1 of \"-[]-\": an empty group"),
    ("[a-b]", "marble error at index 2 of \"[a-b]\": '-' inside a group; a group is a single tick"),
    ("-!-!", "marble error at index 3 of \"-!-!\": a second cancellation point '!'; the first is at index 1"),
    (
      "->-1",
      "marble error at index 1 of \"->-1\": '>' marks a subscription point in a hot diagram; a cold source starts when subscribed"
    ),
  ])
  func malformedDiagramsExplainThemselves(diagram: String, message: String) {
    #expect(TestScheduler.marbles(diagram) { $0 } == message)
  }

  @Test func syntaxErrorIndexIsZeroBasedAndCountsSpaces() {
    #expect(TestScheduler.marbles("[") { $0 } == "marble error at index 0 of \"[\": an unterminated group")
    #expect(TestScheduler.marbles(" -1-[2") { $0 } == "marble error at index 4 of \" -1-[2\": an unterminated group")
    let error = MarbleSyntaxError(diagram: "-1-[2", index: 3, message: "an unterminated group")
    expectEqual(error.description, "marble error at index 3 of \"-1-[2\": an unterminated group")
  }

  @Test func unsupportedSymbolsAreRejectedByName() {
    #expect(
      TestScheduler.marbles("-a;-|") { $0 }
        == "marble error at index 2 of \"-a;-|\": ';' is not a marble symbol; mark a cancellation with '!', or quote it (';') as a value"
    )
    #expect(
      TestScheduler.marbles(",[a,]b") { $0 }
        == "marble error at index 0 of \",[a,]b\": ',' is not a marble symbol: a diagram cannot delay demand; quote it (',') as a value"
    )
    #expect(
      throws: MarbleSyntaxError(
        diagram: "-;",
        index: 1,
        message: "';' is not a marble symbol; mark a cancellation with '!', or quote it (';') as a value"
      )
    ) {
      try TestScheduler().marblePublisher("-;", as: String.self)
    }
  }

  @Test func unsupportedSymbolsCanBeQuotedAsValues() {
    #expect(TestScheduler.marbles("-';'-','-|") { $0 } == "-';'-','-|")
    #expect(TestScheduler.marbles("-a-b-|") { $0.map { $0 == "a" ? ";" : "," } } == "-';'-','-|")
  }

  @Test func valuesThatDoNotParseExplainThemselves() {
    #expect(
      TestScheduler.marbles("-1-a-|") { $0.map { $0 + 1 } }
        == "marble error at index 3 of \"-1-a-|\": 'a' is not a valid Int"
    )
  }

  @Test func twoSubscriptionPointsAcrossDiagrams() {
    let result = TestScheduler.marbles("->a", "->b", hot: true) { $0.testingMerge($1) }
    expectEqual(result, "marble error at index 1 of \"->b\": a second '>'; the first is at index 1 of \"->a\"")
  }

  @Test func coldPublisherWaitsForDemand() throws {
    let scheduler = TestScheduler()
    let subscriber = TestSubscriber<Int, MarbleError>(scheduler: scheduler, initialDemand: .max(1))
    try scheduler.marblePublisher("-1-2-3-|", as: Int.self).subscribe(subscriber)
    scheduler.advance(by: 10)
    expectEqual(subscriber.values, [1])
    subscriber.request(.max(1))
    expectEqual(subscriber.values, [1, 2])
    subscriber.request(.max(5))
    #expect(subscriber.isFinished)
    expectEqual(subscriber.marbles(), "-1--------[23|]")
  }

  @Test func hotPublisherDropsValuesWithoutDemand() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.marblePublisher("-1-2-3-|", hot: true, as: String.self)
    let subscriber = TestSubscriber<String, MarbleError>(scheduler: scheduler, initialDemand: .max(1))
    source.subscribe(subscriber)
    scheduler.advance(by: 4)
    subscriber.request(.max(1))
    scheduler.run()
    expectEqual(subscriber.marbles(), "-1---3-|")
    let late = TestSubscriber<String, MarbleError>()
    source.subscribe(late)
    expectEqual(late.eventDescriptions, ["subscription", "finished"])
  }

  @Test func cancelledColdSourceStopsSending() throws {
    let scheduler = TestScheduler()
    let subscriber = TestSubscriber<String, MarbleError>(scheduler: scheduler)
    try scheduler.marblePublisher("-a-b-c|").subscribe(subscriber)
    scheduler.advance(by: 2)
    subscriber.cancel()
    scheduler.run()
    expectEqual(subscriber.marbles(), "-a!")
  }

  @Test func publisherRejectsSubscriptionAndCancellationPoints() {
    #expect(throws: MarbleSyntaxError.self) { try TestScheduler().marblePublisher("-a-!", as: String.self) }
  }

  @Test func subscriberMarblesShowViolations() {
    let scheduler = TestScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
    upstream.subscribe(subscriber)
    scheduler.advance(by: 1)
    upstream.send(1)
    upstream.send(completion: .finished)
    scheduler.advance(by: 1)
    upstream.send(2)
    expectEqual(subscriber.marbles(), "-[1|]2")
    expectEqual(subscriber.marbles(length: 5), "-[1|]2--")
  }
}
