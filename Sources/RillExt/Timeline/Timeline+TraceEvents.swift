extension Timeline {
  /// Writes the recorded events in Chrome's trace-event format, which Perfetto (ui.perfetto.dev) and
  /// `chrome://tracing` open.
  ///
  /// Each lane is a track (a thread, in the format's terms) named after the lane: a lane gets one more track for
  /// each subscription that overlaps an earlier one. Each subscription is a span (a complete event, `"ph": "X"`)
  /// from its start to its finish, failure or cancel, or to the end of the recording if it is still going, with
  /// its source, threads and ending in `args`. Each value, request, finish, failure and cancel is an instant event
  /// (`"ph": "i"`) on the lane's track, with the subscription and the thread in `args`. Times are in microseconds
  /// from the first event; `otherData.start` holds the first event's time in nanoseconds on the timeline's clock.
  ///
  /// ```swift
  /// try timeline.traceEventJSON().write(toFile: "pipeline.json", atomically: true, encoding: .utf8)
  /// ```
  ///
  /// - Returns: A JSON object with `traceEvents`, `displayTimeUnit` and `otherData`.
  public func traceEventJSON() -> String {
    let layout = TimelineLayout(events: events)
    var writer = TraceEventWriter(start: layout.start)
    writer.metadata("process_name", tid: nil, args: #""name":"Rill timeline""#)
    for (index, row) in layout.rows.enumerated() {
      let tid = index + 1
      writer.metadata("thread_name", tid: tid, args: #""name":\#(TraceEventWriter.quoted(row.name))"#)
      writer.metadata("thread_sort_index", tid: tid, args: #""sort_index":\#(tid)"#)
      for span in row.spans {
        writer.span(span, tid: tid, end: layout.end)
        for event in span.events where event.kind != .subscription {
          writer.instant(event, of: span, tid: tid)
        }
      }
    }
    return writer.finish()
  }
}

/// Builds a trace-event document, one event per line, keys in a fixed order.
private struct TraceEventWriter {
  let start: Int64
  private var lines: [String] = []

  init(start: Int64) {
    self.start = start
  }

  mutating func metadata(_ name: String, tid: Int?, args: String) {
    let thread = tid.map { #","tid":\#($0)"# } ?? ""
    lines.append(#"{"name":"\#(name)","ph":"M","pid":1\#(thread),"args":{\#(args)}}"#)
  }

  mutating func span(_ span: TimelineLayout.Span, tid: Int, end: Int64) {
    guard span.hasStart else { return }
    let ending: String
    switch span.ending?.kind {
    case .finished: ending = "finished"
    case .failure(let error): ending = "failure: \(error)"
    case .cancel: ending = "cancel"
    default: ending = "still going"
    }
    let args = [
      #""source":\#(Self.quoted(span.source))"#,
      #""threads":\#(Self.quoted(span.threads.joined(separator: ", ")))"#,
      #""ending":\#(Self.quoted(ending))"#,
    ]
    lines.append(
      #"{"name":\#(Self.quoted(span.name)),"cat":"subscription","ph":"X","ts":\#(microseconds(span.start)),"#
        + #""dur":\#(microseconds(span.end ?? end, from: span.start)),"pid":1,"tid":\#(tid),"#
        + #""args":{\#(args.joined(separator: ","))}}"#
    )
  }

  mutating func instant(_ event: Timeline.Event, of span: TimelineLayout.Span, tid: Int) {
    let (name, category): (String, String)
    switch event.kind {
    case .subscription: return
    case .request(let demand): (name, category) = ("request \(demand)", "request")
    case .value(let value): (name, category) = (value.isEmpty ? "\"\"" : value, "value")
    case .finished: (name, category) = ("finished", "completion")
    case .failure(let error): (name, category) = ("failure: \(error)", "completion")
    case .cancel: (name, category) = ("cancel", "cancel")
    }
    lines.append(
      #"{"name":\#(Self.quoted(name)),"cat":"\#(category)","ph":"i","s":"t","ts":\#(microseconds(event.time)),"#
        + #""pid":1,"tid":\#(tid),"#
        + #""args":{"subscription":\#(Self.quoted(span.name)),"thread":\#(Self.quoted(event.thread))}}"#
    )
  }

  func finish() -> String {
    "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"start\":\(start)},\"traceEvents\":[\n"
      + lines.joined(separator: ",\n") + "\n]}\n"
  }

  /// `time - origin` in microseconds, with up to three decimals: `1500`, `0.25`.
  private func microseconds(_ time: Int64, from origin: Int64? = nil) -> String {
    let nanoseconds = time - (origin ?? start)
    let fraction = nanoseconds % 1_000
    guard fraction != 0 else { return "\(nanoseconds / 1_000)" }
    var decimals = String(fraction)
    decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
    while decimals.hasSuffix("0") { decimals.removeLast() }
    return "\(nanoseconds / 1_000).\(decimals)"
  }

  /// A JSON string literal.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
