import Foundation
import RillExt
import RillTestSupport
import RillTesting
import Testing

#if canImport(FoundationXML)
import FoundationXML

/// RillExt also has a `TestScheduler`, combine-schedulers' generic one; these tests use RillTesting's.
private typealias TestScheduler = RillTesting.TestScheduler
#endif

/// A recording with every kind of event: two overlapping subscriptions of one lane, a failure, a cancel, a
/// subscription still going, and a lane that records values only.
func sampleTimeline() -> (Timeline, [AnyCancellable]) {
  let scheduler = TestScheduler()
  let timeline = Timeline(clock: .virtual(scheduler))
  let source = PassthroughSubject<Int, ExtTestError>()
  let ticks = TestPublisher<String, Never>()
  let first = source.lane("numbers", timeline: timeline).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
  let events = ticks.lane("ticks", filter: .event, timeline: timeline).sink { _ in }
  scheduler.advance(by: .milliseconds(10))
  source.send(1)
  ticks.send("tick")
  scheduler.advance(by: .milliseconds(10))
  let second = source.lane("numbers", timeline: timeline).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
  let mapped = source.map { $0 * 10 }.lane("tens", timeline: timeline) { "\($0) (×10)" }.sink(
    receiveCompletion: { _ in },
    receiveValue: { _ in }
  )
  scheduler.advance(by: .milliseconds(20))
  source.send(2)
  scheduler.advance(by: .milliseconds(20))
  second.cancel()
  scheduler.advance(by: .milliseconds(20))
  source.send(completion: .failure(.upstream))
  scheduler.advance(by: .milliseconds(20))
  ticks.send("tock")
  return (timeline, [first, events, mapped])
}

@Suite struct TimelineRenderingTests {
  @Test func textDrawsOneRowPerLaneAndOneLinePerSubscription() {
    let expected = """
      Timeline: 3 lanes, 4 subscriptions, 0 ms to 100 ms, 2 ms per column
                   0 ms      20 ms     40 ms     60 ms     80 ms     100 ms    120 ms
                   |         |         |         |         |         |         |
      numbers      -----1--------------2-------------------^
      numbers (2)            ----------2---------!
      ticks             'tick'---------------------------------------'tock'
      tens                   ----------'20 (×10)'----------^

      numbers #1: 0 ms to 80 ms, failed: upstream; on thread 1; requested unlimited; 2 values: 1, 2
      numbers #2: 20 ms to 60 ms, cancelled; on thread 1; requested unlimited; 1 value: 2
      ticks #1: from 10 ms, still going; on thread 1; 2 values: 'tick', 'tock'
      tens #1: 20 ms to 80 ms, failed: upstream; on thread 1; requested unlimited; 1 value: '20 (×10)'

      - going  | finished  ^ failed  ! cancelled  [ab] one column
      """
    let (timeline, cancellables) = sampleTimeline()
    expectEqual(timeline.text(width: 80), expected, "\n\(timeline.text(width: 80))")
    _ = cancellables
  }

  @Test func aTextRowFitsTheWidth() {
    let (timeline, cancellables) = sampleTimeline()
    let text = timeline.text(width: 40)
    let lines = text.split(separator: "\n")
    #expect(lines.dropFirst().prefix(6).allSatisfy { $0.count <= 40 }, "\(text)")
    _ = cancellables
    expectEqual(Timeline().text(), "Timeline: no events")
  }

  @Test func traceEventsHaveTheShapeChromeAndPerfettoRead() throws {
    let (timeline, cancellables) = sampleTimeline()
    let json = timeline.traceEventJSON()
    _ = cancellables
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    expectEqual(document["displayTimeUnit"] as? String, "ms")
    let events = try #require(document["traceEvents"] as? [[String: Any]])
    var tracks: [Int: String] = [:]
    var spans: [Int: [(start: Double, end: Double)]] = [:]
    var instants: [String] = []
    for event in events {
      let phase = try #require(event["ph"] as? String)
      expectEqual(event["pid"] as? Int, 1)
      #expect(event["name"] is String)
      switch phase {
      case "M":
        if event["name"] as? String == "thread_name", let tid = event["tid"] as? Int {
          tracks[tid] = (event["args"] as? [String: Any])?["name"] as? String
        }
      case "X":
        let tid = try #require(event["tid"] as? Int)
        let start = try #require(event["ts"] as? Double)
        let duration = try #require(event["dur"] as? Double)
        #expect(start >= 0 && duration >= 0 && event["cat"] as? String == "subscription")
        let args = try #require(event["args"] as? [String: Any])
        #expect(args["source"] is String && args["threads"] is String && args["ending"] is String)
        spans[tid, default: []].append((start, start + duration))
      case "i":
        expectEqual(event["s"] as? String, "t")
        #expect(try #require(event["ts"] as? Double) >= 0)
        let args = try #require(event["args"] as? [String: Any])
        #expect(args["subscription"] is String && args["thread"] is String)
        instants.append("\(event["cat"]!) \(event["name"]!) @\(event["ts"]!) on \(tracks[event["tid"] as! Int]!)")
      default:
        Issue.record("unexpected phase \(phase)")
      }
    }
    expectEqual(tracks, [1: "numbers", 2: "numbers (2)", 3: "ticks", 4: "tens"])
    // One track never holds overlapping spans; the lane that records values only has none.
    for (_, intervals) in spans {
      for (earlier, later) in zip(intervals, intervals.dropFirst()) { #expect(earlier.end < later.start) }
    }
    #expect(spans[3] == nil && spans.count == 3)
    #expect(
      instants == [
        "request request unlimited @0 on numbers", "value 1 @10000 on numbers", "value 2 @40000 on numbers",
        "completion failure: upstream @80000 on numbers", "request request unlimited @20000 on numbers (2)",
        "value 2 @40000 on numbers (2)", "cancel cancel @60000 on numbers (2)", "value tick @10000 on ticks",
        "value tock @100000 on ticks", "request request unlimited @20000 on tens", "value 20 (×10) @40000 on tens",
        "completion failure: upstream @80000 on tens",
      ]
    )
  }

  @Test func traceEventStringsAreEscaped() throws {
    let timeline = Timeline()
    _ = Just("a \"quoted\"\nline\\").lane("escapes\t", timeline: timeline).sink { _ in }
    let json = timeline.traceEventJSON()
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let names = (document["traceEvents"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    #expect(names.contains("a \"quoted\"\nline\\") && names.contains("escapes\t #1"))
  }

  @Test func svgIsWellFormedAndDrawsEveryMark() throws {
    let (timeline, cancellables) = sampleTimeline()
    let svg = timeline.svg()
    _ = cancellables
    let counter = SVGCounter()
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = counter
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    expectEqual(counter.elements["svg"], 1)
    // One dot per value, one bar per subscription (and one in the legend), one triangle per request and one in
    // the legend, one arrow for the subscription still going.
    expectEqual(counter.elements["circle"], 6 + 1)
    #expect(counter.elements["rect"]! >= 5 + 1)
    #expect(
      counter.texts.contains("numbers") && counter.texts.contains("numbers (2)") && counter.texts.contains("tock")
    )
    #expect(counter.texts.contains("failed: upstream") && counter.texts.contains("cancelled"))
    #expect(counter.texts.contains("0 ms") && counter.texts.contains("100 ms"))
    #expect(counter.titles.contains { $0.hasPrefix("tock · 100 ms on thread 1, ticks #1") })
  }

  @Test func svgEscapesText() {
    let timeline = Timeline()
    _ = Just("<a & b>").lane("\"lane\"", timeline: timeline).sink { _ in }
    let svg = timeline.svg()
    #expect(svg.contains("&lt;a &amp; b&gt;") && svg.contains("&quot;lane&quot;") && !svg.contains("<a & b>"))
  }
}

/// Counts an SVG document's elements and collects its texts and tooltips.
private final class SVGCounter: NSObject, XMLParserDelegate {
  var elements: [String: Int] = [:]
  var texts: [String] = []
  var titles: [String] = []
  private var current = ""
  private var open: [String] = []

  func parser(
    _ parser: XMLParser,
    didStartElement elementName: String,
    namespaceURI: String?,
    qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    elements[elementName, default: 0] += 1
    open.append(elementName)
    current = ""
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    current += string
  }

  func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
    if elementName == "text" { texts.append(current) }
    if elementName == "title" { titles.append(current) }
    open.removeLast()
    current = ""
  }
}
