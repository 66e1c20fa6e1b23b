/// A timeline's events arranged for drawing: subscriptions as spans, each span on a row of its lane, lanes in the
/// order values first went through them.
///
/// A lane gets one row, and one more for each subscription that is still going when a later one starts, so that
/// spans on a row never overlap: a text row, an SVG row and a trace track each hold one subscription at a time.
struct TimelineLayout {
  /// A subscription's events, from its start (or its first recorded event) to its end (or the end of the
  /// recording, if it is still going).
  struct Span {
    let lane: String
    let number: Int
    let source: String
    /// Every event recorded for the subscription, in recording order.
    var events: [Timeline.Event]

    /// When the subscription started: its `subscription` event, or else its first event.
    var start: Int64 { events[0].time }

    /// Whether the lane recorded the subscription's start (it does unless filtered to values only).
    var hasStart: Bool { events[0].kind == .subscription }

    /// The finish, failure or cancel that ended the subscription, if any: the first one recorded.
    var ending: Timeline.Event? {
      events.first { event in
        switch event.kind {
        case .finished, .failure, .cancel: true
        case .subscription, .request, .value: false
        }
      }
    }

    /// When the subscription ended, or `nil` if it is still going.
    var end: Int64? { ending?.time }

    /// The last time anything was recorded for it.
    var last: Int64 { events[events.count - 1].time }

    /// The values, in order.
    var values: [String] {
      events.compactMap { event in
        if case .value(let value) = event.kind { return value }
        return nil
      }
    }

    /// The demands requested, in order.
    var requests: [Subscribers.Demand] {
      events.compactMap { event in
        if case .request(let demand) = event.kind { return demand }
        return nil
      }
    }

    /// The threads its events happened on, in order of first appearance.
    var threads: [String] {
      var seen: [String] = []
      for event in events where !seen.contains(event.thread) { seen.append(event.thread) }
      return seen
    }

    /// `search #2`.
    var name: String { "\(lane) #\(number)" }
  }

  /// One row of a lane: subscriptions that follow one another without overlapping.
  struct Row {
    let lane: String
    /// The row's place among its lane's rows, from 0.
    let indexInLane: Int
    /// The lane's place among the lanes, from 0: its colour in a picture.
    let laneIndex: Int
    var spans: [Span]

    /// `search`, or `search (2)` for a lane's second row.
    var name: String { indexInLane == 0 ? lane : "\(lane) (\(indexInLane + 1))" }
  }

  /// The time of the first event.
  let start: Int64

  /// The time of the last event.
  let end: Int64

  let rows: [Row]

  /// The number of lanes.
  let laneCount: Int

  /// The number of subscriptions.
  let spanCount: Int

  var duration: Int64 { end - start }

  init(events: [Timeline.Event]) {
    start = events.map(\.time).min() ?? 0
    end = events.map(\.time).max() ?? 0
    var spans: [Span] = []
    var spanIndex: [String: [Int: Int]] = [:]
    for event in events {
      if let index = spanIndex[event.lane]?[event.subscription] {
        spans[index].events.append(event)
      } else {
        spanIndex[event.lane, default: [:]][event.subscription] = spans.count
        spans.append(Span(lane: event.lane, number: event.subscription, source: event.source, events: [event]))
      }
    }
    let lanes = Self.laneOrder(spans, events: events)
    var rows: [Row] = []
    let laneIndices = Dictionary(uniqueKeysWithValues: lanes.enumerated().map { ($1, $0) })
    // By lane, and within a lane in order of subscription.
    let ordered = spans.enumerated().sorted {
      (laneIndices[$0.1.lane] ?? 0, $0.0) < (laneIndices[$1.1.lane] ?? 0, $1.0)
    }
    for (_, span) in ordered {
      let laneRows = rows.indices.filter { rows[$0].lane == span.lane }
      // The first row of the lane whose last subscription ended before this one started.
      if let free = laneRows.first(where: { rows[$0].spans.last.map { Self.isOver($0, before: span) } ?? true }) {
        rows[free].spans.append(span)
      } else {
        let laneIndex = laneIndices[span.lane] ?? 0
        rows.append(Row(lane: span.lane, indexInLane: laneRows.count, laneIndex: laneIndex, spans: [span]))
      }
    }
    self.rows = rows
    laneCount = lanes.count
    spanCount = spans.count
  }

  /// The lanes in the order values first went through them, which is the order data flows through a pipeline
  /// (a lane upstream sees a value before a lane downstream of it); then lanes without values, in the order of
  /// their first event.
  private static func laneOrder(_ spans: [Span], events: [Timeline.Event]) -> [String] {
    var lanes: [String] = []
    for event in events where !lanes.contains(event.lane) {
      if case .value = event.kind { lanes.append(event.lane) }
    }
    for span in spans where !lanes.contains(span.lane) { lanes.append(span.lane) }
    return lanes
  }

  /// Whether `earlier` ended, and recorded its last event, before `later` started.
  private static func isOver(_ earlier: Span, before later: Span) -> Bool {
    guard let end = earlier.end else { return false }
    return max(end, earlier.last) < later.start
  }
}

extension Timeline.Event.Kind {
  /// The event in marble notation: a one-character value as itself, a longer one quoted (`'riv'`), `|` a finish,
  /// `^` a failure, `!` a cancel; `nil` for the start and for requests, which a row does not draw.
  var marble: String? {
    switch self {
    case .value(let value): value.count == 1 && !"-|^!'[] ".contains(value) ? value : "'\(value)'"
    case .finished: "|"
    case .failure: "^"
    case .cancel: "!"
    case .subscription, .request: nil
    }
  }
}

/// Formats durations for axes and summaries, in one unit chosen for the whole rendering.
struct TimelineUnit {
  let name: String
  let nanoseconds: Int64

  /// The largest unit in which `step` is at least one.
  init(for step: Int64) {
    switch step {
    case 1_000_000_000...: (name, nanoseconds) = ("s", 1_000_000_000)
    case 1_000_000...: (name, nanoseconds) = ("ms", 1_000_000)
    case 1_000...: (name, nanoseconds) = ("µs", 1_000)
    default: (name, nanoseconds) = ("ns", 1)
    }
  }

  /// `1.5 s`, `300 ms`, `0 ms`: in this unit, with up to three decimals, without trailing zeros.
  func format(_ duration: Int64) -> String {
    let whole = duration / nanoseconds
    let fraction = abs(duration % nanoseconds) * 1_000 / nanoseconds
    guard fraction != 0 else { return "\(whole) \(name)" }
    var decimals = String(fraction)
    decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
    while decimals.hasSuffix("0") { decimals.removeLast() }
    return "\(duration < 0 && whole == 0 ? "-" : "")\(whole).\(decimals) \(name)"
  }

  /// `1.2 s`, `250 ms`, `0 ms`: in the largest unit that takes at most one decimal, this unit for zero.
  func natural(_ duration: Int64) -> String {
    guard duration != 0 else { return format(0) }
    for unit in [Int64(1_000_000_000), 1_000_000, 1_000, 1]
    where abs(duration) >= unit && (unit < 10 || duration % (unit / 10) == 0) {
      return TimelineUnit(for: unit).format(duration)
    }
    return format(duration)
  }

  /// The smallest step of 1, 2 or 5 times a power of ten nanoseconds that is at least `minimum`.
  static func niceStep(atLeast minimum: Int64) -> Int64 {
    var power: Int64 = 1
    while true {
      for factor: Int64 in [1, 2, 5] where factor * power >= minimum { return factor * power }
      power *= 10
    }
  }
}
