import Foundation
import Rill
import RillExt
import RillTesting

/// The search screen's run again, with the view model's lanes recording on a timeline that reads the test
/// scheduler's clock; then the timeline drawn as text, and written as a Chrome trace and an SVG picture.
///
/// The model is freed at the end, which cancels its subscriptions: the last marks of each lane.
func seeingWhatTheViewModelDid() {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rill-demo-timeline")
  let timeline = recordTheSearchScreen()
  print(
    timeline.text(width: 110).split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
      .joined(separator: "\n")
  )
  do {
    let files = try write(timeline, to: directory)
    print("  wrote \(files.map(\.path).joined(separator: ", "))")
    print("  open the .json in ui.perfetto.dev or chrome://tracing, the .svg in a browser")
  } catch {
    print("rill-demo: could not write the timeline: \(error)")
    exit(1)
  }
}

/// Writes the search screen's timeline into `path` and exits: 0 once written, 1 if it could not be.
func writeTheSearchScreensTimeline(into path: String) -> Never {
  do {
    _ = try write(recordTheSearchScreen(), to: URL(fileURLWithPath: path))
    exit(0)
  } catch {
    print("rill-demo: could not write the timeline: \(error)")
    exit(1)
  }
}

/// Runs the search screen with its lanes recording, frees the model, and returns the timeline.
func recordTheSearchScreen() -> Timeline {
  let scheduler = TestScheduler()
  let timeline = Timeline(clock: .virtual(scheduler))
  do {
    let model = SearchViewModel(
      catalog: catalog,
      scheduler: scheduler,
      debounce: .milliseconds(300),
      timeline: timeline
    )
    useTheSearchScreen(model, scheduler: scheduler)
    scheduler.advance(by: .milliseconds(200))
  }
  return timeline
}

/// Writes `search-timeline.txt`, `.json` and `.svg` into `directory`; returns their URLs.
func write(_ timeline: Timeline, to directory: URL) throws -> [URL] {
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let renderings = [
    ("txt", timeline.text(width: 110) + "\n"), ("json", timeline.traceEventJSON()), ("svg", timeline.svg()),
  ]
  return try renderings.map { fileExtension, contents in
    let file = directory.appendingPathComponent("search-timeline.\(fileExtension)")
    try contents.write(to: file, atomically: true, encoding: .utf8)
    return file
  }
}
