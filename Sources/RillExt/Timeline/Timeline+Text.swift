extension Timeline {
  /// Draws the recorded events as text: one row per lane in marble notation, under a time axis, then one line per
  /// subscription with its times, threads, demand and values.
  ///
  /// ```
  /// Timeline: 2 lanes, 2 subscriptions, 0 ns to 6 ns, 1 ns per column
  ///           0 ns      10 ns
  ///           |         |
  /// numbers   1-2-3|
  /// tens      a-b-c|
  ///
  /// numbers #1: 0 ns to 4 ns, finished; on thread 1; requested unlimited; 3 values: 1, 2, 3
  /// ...
  /// ```
  ///
  /// Each column is one step of time, the smallest of 1, 2 or 5 times a power of ten that fits the recording in
  /// `width` characters. A row starts where its subscription starts (`-` while it is going), and shows a value as
  /// itself if it is one character and quoted if longer (`'riv'`), `|` a finish, `^` a failure and `!` a cancel;
  /// events in one column are grouped (`[a|]`), as in RillTesting's marble diagrams. A value whose text does not fit
  /// before the next event is drawn as `*`; the line of its subscription lists it. Times count from the first event.
  ///
  /// - Parameter width: The width of the drawing in characters, at least 40; 100 by default.
  /// - Returns: The drawing, as lines separated by newlines.
  public func text(width: Int = 100) -> String {
    TimelineText(layout: TimelineLayout(events: events), width: max(width, 40)).render()
  }
}

extension Timeline: CustomStringConvertible {
  /// The recorded events drawn by ``text(width:)``.
  public var description: String { text() }
}

/// Draws a layout as rows of text.
private struct TimelineText {
  let layout: TimelineLayout
  let labelWidth: Int
  let plotWidth: Int
  /// Nanoseconds per column.
  let step: Int64
  let unit: TimelineUnit

  init(layout: TimelineLayout, width: Int) {
    self.layout = layout
    let longest = layout.rows.map(\.name.count).max() ?? 0
    labelWidth = min(max(longest, 6), 24) + 2
    plotWidth = width - labelWidth
    // Leave room for the widest thing drawn at the last column: a group of a value and an ending.
    step = TimelineUnit.niceStep(atLeast: max(1, (layout.duration + Int64(plotWidth) - 9) / Int64(plotWidth - 8)))
    unit = TimelineUnit(for: step * 10)
  }

  func render() -> String {
    guard !layout.rows.isEmpty else { return "Timeline: no events" }
    var lines = [
      "Timeline: \(count(layout.laneCount, "lane")), \(count(layout.spanCount, "subscription")), "
        + "\(unit.format(0)) to \(unit.natural(layout.duration)), \(unit.natural(step)) per column"
    ]
    lines += axis()
    var starred = false
    for row in layout.rows {
      let (cells, hasStar) = draw(row)
      starred = starred || hasStar
      lines.append(pad(row.name) + cells)
    }
    lines.append("")
    for row in layout.rows {
      for span in row.spans { lines.append(summary(of: span)) }
    }
    lines.append("")
    lines.append(
      "- going  | finished  ^ failed  ! cancelled  [ab] one column"
        + (starred ? "  * a value listed below its row" : "")
    )
    return lines.map { $0.trailingSpacesRemoved }.joined(separator: "\n")
  }

  private func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

  private func pad(_ label: String) -> String {
    let clipped = label.count > labelWidth - 2 ? String(label.prefix(labelWidth - 3)) + "~" : label
    return clipped + String(repeating: " ", count: labelWidth - clipped.count)
  }

  private func column(_ time: Int64) -> Int { Int((time - layout.start) / step) }

  /// Tick labels every ten columns, and a `|` under each.
  private func axis() -> [String] {
    var labels = ""
    var ticks = ""
    var tick = 0
    while tick * 10 < plotWidth, Int64(tick * 10) * step <= layout.duration + step * 10 {
      let label = unit.natural(Int64(tick * 10) * step)
      let at = tick * 10
      if labels.count <= at, at + label.count <= plotWidth {
        labels += String(repeating: " ", count: at - labels.count) + label
      }
      ticks += String(repeating: " ", count: at - ticks.count) + "|"
      tick += 1
    }
    return [pad("") + labels, pad("") + ticks]
  }

  /// The row's cells, and whether a value had to be drawn as `*`.
  private func draw(_ row: TimelineLayout.Row) -> (String, Bool) {
    var cells = [Character](repeating: " ", count: plotWidth)
    var groups: [(column: Int, symbols: [String])] = []
    for span in row.spans {
      let first = min(column(span.start), plotWidth - 1)
      let last = min(column(span.end ?? layout.end), plotWidth - 1)
      for index in first...max(first, last) { cells[index] = "-" }
      for event in span.events {
        guard let symbol = event.kind.marble else { continue }
        let at = column(event.time)
        if let lastGroup = groups.last, lastGroup.column == at {
          groups[groups.count - 1].symbols.append(symbol)
        } else {
          groups.append((at, [symbol]))
        }
      }
    }
    var starred = false
    var cursor = 0
    for (index, group) in groups.enumerated() {
      let next = index + 1 < groups.count ? groups[index + 1].column : plotWidth
      let at = max(group.column, cursor)
      var text = Self.text(of: group.symbols)
      if at + text.count > next {
        let short = group.symbols.map { $0.count > 1 ? "*" : $0 }
        if short != group.symbols { starred = true }
        text = Self.text(of: short)
      }
      for (offset, character) in text.enumerated() where at + offset < plotWidth {
        cells[at + offset] = character
      }
      cursor = at + text.count
    }
    return (String(cells), starred)
  }

  private static func text(of symbols: [String]) -> String {
    symbols.count == 1 ? symbols[0] : "[" + symbols.joined() + "]"
  }

  /// `search #1: 0 ms to 1.5 s, finished; on main; requested unlimited; 2 values: ri, riv`.
  private func summary(of span: TimelineLayout.Span) -> String {
    var parts: [String] = []
    let from = unit.natural(span.start - layout.start)
    let to = span.end.map { unit.natural($0 - layout.start) } ?? ""
    switch span.ending?.kind {
    case .finished: parts.append("\(from) to \(to), finished")
    case .failure(let error): parts.append("\(from) to \(to), failed: \(error)")
    case .cancel: parts.append("\(from) to \(to), cancelled")
    default: parts.append("from \(from), still going")
    }
    parts.append("on " + span.threads.joined(separator: ", "))
    let requests = span.requests
    if !requests.isEmpty {
      let shown = requests.prefix(6).map { "\($0)" }.joined(separator: ", ")
      parts.append("requested " + shown + (requests.count > 6 ? " and \(requests.count - 6) more" : ""))
    }
    let values = span.values
    let listed = values.prefix(12).map { Timeline.Event.Kind.value($0).marble ?? $0 }.joined(separator: ", ")
    let more = values.count > 12 ? " and \(values.count - 12) more" : ""
    parts.append(values.isEmpty ? "no values" : "\(count(values.count, "value")): \(listed)\(more)")
    return "\(span.name): " + parts.joined(separator: "; ")
  }
}

extension String {
  fileprivate var trailingSpacesRemoved: String {
    var result = self
    while result.last == " " { result.removeLast() }
    return result
  }
}
