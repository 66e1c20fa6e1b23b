import Rill

// rill-demo: runs small Rill pipelines and prints what happens in them. The HTTP scenarios talk to a server on
// the loopback interface that the demo starts itself, so nothing leaves the machine.

struct Scenario {
  /// What the scenario is about, in a few words.
  var title: String
  /// The one thing its output shows.
  var shows: String
  /// The source file that holds it, to read next to its output.
  var file: String
  var run: () -> Void
}

let scenarios = [
  Scenario(
    title: "Each subscriber gets its own run",
    shows: "two sinks on one scan from 10 each get the sequence 1...4 and their own running total",
    file: "Scenarios.swift",
    run: eachSubscriberGetsItsOwnRun
  ),
  Scenario(
    title: "A subscriber that joins mid-stream",
    shows: "D subscribes after C has seen two values, and still starts from the beginning, on a subject of its own",
    file: "Scenarios.swift",
    run: subscriberJoiningMidStream
  ),
  Scenario(
    title: "Future and Deferred",
    shows: "a Future runs its work once and replays the result; wrapped in Deferred, it runs once per subscriber",
    file: "Scenarios.swift",
    run: futureAndDeferred
  ),
  Scenario(
    title: "sink and assign",
    shows: "the two ways to end a pipeline: a closure, or a property of an object",
    file: "Scenarios.swift",
    run: sinkAndAssign
  ),
  Scenario(
    title: "Backpressure",
    shows: "a subscriber asks for one value at a time, and the publisher sends no more than it asked for",
    file: "Scenarios.swift",
    run: backpressure
  ),
  Scenario(
    title: "A view model",
    shows: "@Published inputs, debounce and removeDuplicates on typing, combineLatest with a toggle, assign(to:)",
    file: "EverydayScenarios.swift",
    run: searchViewModel
  ),
  Scenario(
    title: "Seeing what the view model did (RillExt)",
    shows: "lanes record each step of the search pipeline on a timeline, drawn as text, a Chrome trace and an SVG",
    file: "TimelineScenarios.swift",
    run: seeingWhatTheViewModelDid
  ),
  Scenario(
    title: "A marble test of the view model",
    shows: "one line of input, one line of expected output, in virtual time: the test of the search pipeline",
    file: "EverydayScenarios.swift",
    run: marbleTestOfTheViewModel
  ),
  Scenario(
    title: "for await over a publisher",
    shows: "values turns a publisher into an async sequence; a failure is thrown from the loop",
    file: "EverydayScenarios.swift",
    run: valuesInAForAwaitLoop
  ),
  Scenario(
    title: "share()",
    shows: "two subscribers of one pipeline run its work twice; after share(), once",
    file: "EverydayScenarios.swift",
    run: shareRunsTheWorkOnce
  ),
  Scenario(
    title: "flatMap merges inner publishers",
    shows: "the values of two inner publishers interleave in the one stream downstream sees",
    file: "FlatMapScenarios.swift",
    run: flatMapInterleaving
  ),
  Scenario(
    title: "flatMap with Empty",
    shows: "returning Empty from flatMap's closure means \"nothing to publish for this value\"",
    file: "FlatMapScenarios.swift",
    run: flatMapEmptyDoesNothing
  ),
  Scenario(
    title: "A failure inside flatMap",
    shows: "one failing fetch ends the whole pipeline, unless it is caught inside flatMap",
    file: "FlatMapScenarios.swift",
    run: flatMapFailingWithoutTerminating
  ),
  Scenario(
    title: "flatMap one at a time",
    shows: "with maxPublishers: .max(1), flatMap asks upstream for a value only when the previous inner one finished",
    file: "FlatMapScenarios.swift",
    run: flatMapBackpressure
  ),
  Scenario(
    title: "HTTP: fetch and decode JSON",
    shows: "dataTaskPublisher, then map to the body, then decode it into a struct",
    file: "NetworkScenarios.swift",
    run: decodeJSONFromDataTask
  ),
  Scenario(
    title: "HTTP: a status code becomes an error",
    shows: "tryMap throws on a response that is not 200, and the pipeline fails with that error",
    file: "NetworkScenarios.swift",
    run: tryMapOnStatusCode
  ),
  Scenario(
    title: "HTTP: one error type for every failure",
    shows: "mapError folds HTTP statuses and network errors into one enum of your own",
    file: "NetworkScenarios.swift",
    run: mapErrorIntoAPIError
  ),
  Scenario(
    title: "HTTP: steps in sequence and in parallel",
    shows: "Futures chained with flatMap run one after the other; Zip3 runs three at once and waits for all",
    file: "NetworkScenarios.swift",
    run: futureFlatMapZip3Sequencing
  ),
  Scenario(
    title: "HTTP: results in request order",
    shows: "with maxPublishers: .max(1), a slow first request still comes out first",
    file: "BackpressureScenarios.swift",
    run: flatMapMaxPublishersKeepsOrder
  ),
  Scenario(
    title: "HTTP: keep going after a failed request",
    shows: "replaceError or catch inside flatMap turn a failed request into a value, and the others still arrive",
    file: "BackpressureScenarios.swift",
    run: networkFailingWithoutTerminating
  ),
  Scenario(
    title: "A repeating timer",
    shows: "Timer.publish fires on the run loop; autoconnect starts it and scan counts the firings",
    file: "BackpressureScenarios.swift",
    run: timerAutoconnectScan
  ),
  Scenario(
    title: "flatMap one at a time, in time",
    shows: "with maxPublishers: .max(1), the second delayed Just is not even created until the first is out",
    file: "BackpressureScenarios.swift",
    run: maxPublishersWithDelay
  ),
  Scenario(
    title: "Failures as values (RillExt)",
    shows: "materialize inside flatMap makes a failed request a value, so the next tap still asks the server",
    file: "RillExtScenarios.swift",
    run: failedRequestDoesNotEndTheScreen
  ),
  Scenario(
    title: "Zero or one value (RillExt)",
    shows: "a maybe publisher's sinkMaybe has exactly three cases to handle: nothing, a value, or a failure",
    file: "RillExtScenarios.swift",
    run: lookUpWithSinkMaybe
  ),
]

// `rill-demo timeline DIRECTORY` writes the search screen's timeline into DIRECTORY and runs nothing else: the
// documentation's picture is made this way (scripts/timeline-image.sh).
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "timeline" {
  writeTheSearchScreensTimeline(into: CommandLine.arguments[2])
}

for (index, scenario) in scenarios.enumerated() {
  print("\(index + 1). \(scenario.title) (Sources/rill-demo/\(scenario.file))")
  print("   Shows: \(scenario.shows).")
  scenario.run()
  print("")
}
print("rill-demo: \(scenarios.count) scenarios ran")
