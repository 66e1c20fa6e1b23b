extension Timeline {
  /// Draws the recorded events as an SVG picture: one row per lane under a time axis, each subscription a bar from
  /// its start to its end, each value a dot labelled with its description, each request a small triangle under the
  /// bar, and the end a mark (black for a finish, red for a failure, orange for a cancel).
  ///
  /// Every mark has a tooltip with its time, thread and subscription. A subscription still going runs to the right
  /// edge and ends in an arrow. A lane gets one more row for each subscription that overlaps an earlier one.
  ///
  /// ```swift
  /// try timeline.svg().write(toFile: "pipeline.svg", atomically: true, encoding: .utf8)
  /// ```
  ///
  /// - Parameter width: The width of the picture in pixels, at least 400; 960 by default. The height follows from
  ///   the number of rows.
  /// - Returns: An SVG document.
  public func svg(width: Int = 960) -> String {
    TimelineSVG(layout: TimelineLayout(events: events), width: max(width, 400)).render()
  }
}

/// Draws a layout as an SVG picture.
private struct TimelineSVG {
  static let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#ff9da7"]
  static let rowHeight = 72
  static let top = 76
  static let font = "font-family=\"Helvetica, Arial, sans-serif\""

  let layout: TimelineLayout
  let width: Int
  let plotLeft: Double
  let plotRight: Double
  /// Nanoseconds between ticks of the axis.
  let step: Int64
  /// The time at the right end of the axis, from the first event: a whole number of steps.
  let axisEnd: Int64
  let unit: TimelineUnit

  init(layout: TimelineLayout, width: Int) {
    self.layout = layout
    self.width = width
    let longest = layout.rows.map(\.name.count).max() ?? 0
    plotLeft = min(max((Double(longest) * 7.5 + 32).rounded(), 100), 240)
    plotRight = Double(width) - 48
    step = TimelineUnit.niceStep(atLeast: max(1, layout.duration / 10))
    axisEnd = max(step, (layout.duration + step - 1) / step * step)
    unit = TimelineUnit(for: step)
  }

  private var height: Int { Self.top + layout.rows.count * Self.rowHeight + 56 }

  /// The horizontal position of a time, to a tenth of a pixel.
  private func x(_ time: Int64) -> Double {
    ((plotLeft + Double(time - layout.start) / Double(axisEnd) * (plotRight - plotLeft)) * 10).rounded() / 10
  }

  func render() -> String {
    var svg = SVGText()
    svg.line(
      "<svg xmlns='http://www.w3.org/2000/svg' width='\(width)' height='\(height)' "
        + "viewBox='0 0 \(width) \(height)' \(Self.font)>"
    )
    svg.line("<rect width='100%' height='100%' fill='#ffffff'/>")
    let lanes = "\(layout.laneCount) lane\(layout.laneCount == 1 ? "" : "s")"
    let subscriptions = "\(layout.spanCount) subscription\(layout.spanCount == 1 ? "" : "s")"
    svg.text("Timeline", x: 16, y: 26, size: 16, weight: "bold")
    svg.text(
      "\(lanes) · \(subscriptions) · \(unit.natural(layout.duration))",
      x: 104,
      y: 26,
      size: 12,
      fill: "#6b7280"
    )
    drawAxis(into: &svg)
    for (index, row) in layout.rows.enumerated() {
      drawRow(row, index: index, into: &svg)
    }
    drawLegend(into: &svg)
    svg.line("</svg>")
    return svg.result
  }

  private func drawAxis(into svg: inout SVGText) {
    let bottom = Self.top + layout.rows.count * Self.rowHeight
    svg.line(
      "<line x1='\(plotLeft)' y1='\(Self.top - 12)' x2='\(plotRight)' y2='\(Self.top - 12)' "
        + "stroke='#9ca3af'/>"
    )
    var tick: Int64 = 0
    while tick <= axisEnd {
      let at = x(layout.start + tick)
      svg.line(
        "<line x1='\(at)' y1='\(Self.top - 16)' x2='\(at)' y2='\(bottom)' stroke='#e5e7eb'/>"
      )
      svg.text(unit.natural(tick), x: at, y: Double(Self.top - 20), size: 11, fill: "#6b7280", anchor: "middle")
      tick += step
    }
  }

  private func drawRow(_ row: TimelineLayout.Row, index: Int, into svg: inout SVGText) {
    let rowTop = Double(Self.top + index * Self.rowHeight)
    let center = rowTop + 44
    let color = Self.palette[row.laneIndex % Self.palette.count]
    if index % 2 == 1 {
      svg.line(
        "<rect x='0' y='\(rowTop)' width='\(width)' height='\(Self.rowHeight)' fill='#f9fafb'/>"
      )
    }
    svg.text(
      row.name,
      x: 16,
      y: center + 4,
      size: 13,
      weight: row.indexInLane == 0 ? "bold" : "normal",
      fill: row.indexInLane == 0 ? "#111827" : "#6b7280"
    )
    var above = LabelPlacer(levels: 2)
    var below = LabelPlacer(levels: 1)
    let numbered = layout.rows.filter { $0.lane == row.lane }.map(\.spans.count).reduce(0, +) > 1
    for span in row.spans {
      drawSpan(span, center: center, color: color, into: &svg)
      if numbered, let placed = below.place("#\(span.number)", at: x(span.start) + 8, anchor: "start") {
        svg.text("#\(span.number)", x: placed.x, y: center + 24, size: 10, fill: "#6b7280", anchor: "start")
      }
      for event in span.events {
        drawEvent(event, of: span, center: center, color: color, above: &above, below: &below, into: &svg)
      }
    }
  }

  private func drawSpan(_ span: TimelineLayout.Span, center: Double, color: String, into svg: inout SVGText) {
    let start = x(span.start)
    let end = span.end.map(x) ?? plotRight
    let tooltip = "\(span.name) · \(span.source) · on \(span.threads.joined(separator: ", "))"
    let opacity = span.hasStart ? "0.28" : "0.10"
    svg.line(
      "<rect x='\(start)' y='\(center - 6)' width='\(max(end - start, 2))' height='12' rx='6' "
        + "fill='\(color)' fill-opacity='\(opacity)' stroke='\(color)' stroke-width='1.5'>"
        + "<title>\(SVGText.escaped(tooltip))</title></rect>"
    )
    if span.end == nil {
      svg.line(
        "<path d='M\(plotRight) \(center - 8) L\(plotRight + 10) \(center) L\(plotRight) \(center + 8) Z' "
          + "fill='\(color)'/>"
      )
    }
  }

  // swift-format-ignore: FunctionParameterCount
  private func drawEvent(
    _ event: Timeline.Event,
    of span: TimelineLayout.Span,
    center: Double,
    color: String,
    above: inout LabelPlacer,
    below: inout LabelPlacer,
    into svg: inout SVGText
  ) {
    let at = x(event.time)
    let when = "\(unit.natural(event.time - layout.start)) on \(event.thread), \(span.name)"
    switch event.kind {
    case .subscription:
      return
    case .value(let value):
      svg.line(
        "<circle cx='\(at)' cy='\(center)' r='5.5' fill='\(color)' stroke='#ffffff' stroke-width='1.5'>"
          + "<title>\(SVGText.escaped("\(value) · \(when)"))</title></circle>"
      )
      let label = value.isEmpty ? "\"\"" : value.count > 24 ? String(value.prefix(23)) + "…" : value
      if let placed = above.place(label, at: at, anchor: "middle") {
        svg.text(label, x: placed.x, y: center - 12 - Double(placed.level) * 14, size: 11, anchor: "middle")
      }
    case .request(let demand):
      svg.line(
        "<path d='M\(at - 4) \(center + 8) L\(at + 4) \(center + 8) L\(at) \(center + 14) Z' "
          + "fill='#6b7280'><title>\(SVGText.escaped("request \(demand) · \(when)"))</title></path>"
      )
    case .finished, .failure, .cancel:
      let (stroke, label): (String, String?)
      switch event.kind {
      case .failure(let error): (stroke, label) = ("#dc2626", "failed: \(error)")
      case .cancel: (stroke, label) = ("#d97706", "cancelled")
      default: (stroke, label) = ("#111827", nil)
      }
      svg.line(
        "<line x1='\(at)' y1='\(center - 11)' x2='\(at)' y2='\(center + 11)' stroke='\(stroke)' "
          + "stroke-width='3' stroke-linecap='round'><title>\(SVGText.escaped("\(event.kind) · \(when)"))</title>"
          + "</line>"
      )
      if let label, let placed = below.place(label, at: at, anchor: "middle") {
        svg.text(label, x: placed.x, y: center + 24, size: 10, fill: stroke, anchor: "middle")
      }
    }
  }

  private func drawLegend(into svg: inout SVGText) {
    let y = Double(Self.top + layout.rows.count * Self.rowHeight + 32)
    var at = 16.0
    func item(_ shape: String, _ label: String) {
      svg.line(shape)
      svg.text(label, x: at + 14, y: y + 4, size: 11, fill: "#374151", anchor: "start")
      at += 14 + Double(label.count) * 6.5 + 22
    }
    item(
      "<rect x='\(at - 6)' y='\(y - 5)' width='16' height='10' rx='5' fill='#4e79a7' fill-opacity='0.28' "
        + "stroke='#4e79a7'/>",
      "subscription"
    )
    at += 4
    item("<circle cx='\(at)' cy='\(y)' r='5' fill='#4e79a7'/>", "value")
    item("<path d='M\(at - 4) \(y - 3) L\(at + 4) \(y - 3) L\(at) \(y + 3) Z' fill='#6b7280'/>", "request")
    for (color, label) in [("#111827", "finished"), ("#dc2626", "failed"), ("#d97706", "cancelled")] {
      item(
        "<line x1='\(at)' y1='\(y - 7)' x2='\(at)' y2='\(y + 7)' stroke='\(color)' stroke-width='3' "
          + "stroke-linecap='round'/>",
        label
      )
    }
  }
}

/// Places labels on a few levels so that they do not overlap: each label goes on the lowest level where it fits.
private struct LabelPlacer {
  /// The right edge of the last label on each level.
  private var rightEdges: [Double]

  init(levels: Int) {
    rightEdges = Array(repeating: -.infinity, count: levels)
  }

  /// Where to draw `label` at `x`, or `nil` if no level has room for it.
  mutating func place(_ label: String, at x: Double, anchor: String) -> (x: Double, level: Int)? {
    let width = (Double(label.count) * 6.2 + 6).rounded()
    let left = anchor == "middle" ? x - width / 2 : x
    guard let level = rightEdges.firstIndex(where: { $0 <= left }) else { return nil }
    rightEdges[level] = left + width
    return (x, level)
  }
}

/// An SVG document being written, one element per line.
private struct SVGText {
  private(set) var result = ""

  mutating func line(_ element: String) {
    result += element + "\n"
  }

  // swift-format-ignore: FunctionParameterCount
  mutating func text(
    _ content: String,
    x: Double,
    y: Double,
    size: Int,
    weight: String = "normal",
    fill: String = "#111827",
    anchor: String = "start"
  ) {
    line(
      "<text x='\(x)' y='\(y)' font-size='\(size)' font-weight='\(weight)' fill='\(fill)' "
        + "text-anchor='\(anchor)'>\(Self.escaped(content))</text>"
    )
  }

  static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }
}
