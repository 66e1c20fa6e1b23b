import Dispatch
import Foundation
import Rill
import RillExt
import RillTesting

/// A book in the search screen's catalog.
struct Book {
  var title: String
  var available: Bool
}

/// A search screen's view model, written as with Combine.
///
/// The view writes `query` and `onlyAvailable`, and shows `results`. In an app, `scheduler` is
/// `DispatchQueue.main` and `debounce` `.milliseconds(300)`; the demo and its marble test pass a `TestScheduler`,
/// whose time moves only when told to. Lanes record the pipeline's steps on `timeline` (RillExt's `lane`), the
/// shared one unless told otherwise: see "Seeing what the view model did".
final class SearchViewModel<S: Scheduler>: ObservableObject {
  @Published var query = ""
  @Published var onlyAvailable = false
  @Published private(set) var results: [String] = []

  init(catalog: [Book], scheduler: S, debounce: S.SchedulerTimeType.Stride, timeline: Timeline = .shared) {
    Self.searches(for: $query.lane("query", timeline: timeline), scheduler: scheduler, debounce: debounce)
      .lane("search", timeline: timeline)
      .combineLatest($onlyAvailable.lane("onlyAvailable", timeline: timeline))
      .map { search, onlyAvailable in
        catalog
          .filter { !search.isEmpty && $0.title.lowercased().contains(search) }
          .filter { !onlyAvailable || $0.available }
          .map(\.title)
      }
      .removeDuplicates()
      .lane("results", timeline: timeline) { $0.isEmpty ? "none" : $0.joined(separator: ", ") }
      .assign(to: &$results)
  }

  /// What the user typed, as the searches to run.
  ///
  /// Trimmed and lowercased, once typing has paused for `debounce`, and only when it changed. Kept apart from
  /// `init` so that a marble test can check it.
  static func searches<Typed: Publisher<String, Never>>(
    for typed: Typed,
    scheduler: S,
    debounce: S.SchedulerTimeType.Stride
  ) -> AnyPublisher<String, Never> {
    typed
      .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      .debounce(for: debounce, scheduler: scheduler)
      .removeDuplicates()
      .eraseToAnyPublisher()
  }
}

/// The search screen's catalog.
let catalog = [
  Book(title: "River Song", available: true),
  Book(title: "Rill and Brook", available: false),
  Book(title: "Delta", available: true),
]

/// The view model above, driven as a user would: typing with pauses, then a toggle.
func searchViewModel() {
  let scheduler = RillTesting.TestScheduler()
  let model = SearchViewModel(catalog: catalog, scheduler: scheduler, debounce: .milliseconds(300))
  func milliseconds() -> Int { scheduler.now.ticks / 1_000_000 }
  let shown = model.$results.dropFirst().sink { print("    \(milliseconds()) ms: the screen shows \($0)") }
  useTheSearchScreen(model, scheduler: scheduler) { print("  \($0)") }
  _ = shown
}

/// What the user does on the search screen: types with pauses, then turns on "only available".
func useTheSearchScreen(
  _ model: SearchViewModel<RillTesting.TestScheduler>,
  scheduler: RillTesting.TestScheduler,
  say: (String) -> Void = { _ in }
) {
  func type(_ text: String, at time: Int) {
    scheduler.advance(to: .init(time * 1_000_000))
    say("\(time) ms: query = \"\(text)\"")
    model.query = text
  }
  type("r", at: 0)
  type("ri", at: 100)
  type("riv", at: 200)
  type("ri", at: 700)
  type("ri ", at: 800)
  scheduler.advance(to: .init(1_500_000_000))
  say("1500 ms: onlyAvailable = true")
  model.onlyAvailable = true
  scheduler.run()
}

/// A marble test of the view model's search pipeline, as it would sit in the app's test target.
func marbleTestOfTheViewModel() {
  let scheduler = RillTesting.TestScheduler()
  let typed = "-r-'ri'-'riv'------'Riv'-'RIV '----|"
  let expected = "--------'riv'----------|"
  let searches = scheduler.marbles(typed) { typed in
    SearchViewModel.searches(for: typed.replaceError(with: ""), scheduler: scheduler, debounce: 3)
  }
  print("  typed:    \(typed)")
  print("  searches: \(searches)")
  guard searches == expected else {
    print("  expected: \(expected)")
    print("rill-demo: the marble test failed")
    exit(1)
  }
  print("  as expected: three quick keystrokes make one search, and \"Riv\", \"RIV \" after a pause make none, as")
  print("  they normalise to the search already made")
}

/// `values` turns a publisher into an async sequence, for code that prefers `for await` to `sink`.
func valuesInAForAwaitLoop() {
  let done = DispatchSemaphore(value: 0)
  Task {
    for await word in ["rill", "river", "delta"].publisher.map({ $0.uppercased() }).values {
      print("  for await: \(word)")
    }
    print("  the loop ended: the publisher finished")

    let readings = [12, 15, -1, 14].publisher.tryMap { reading in
      guard reading >= 0 else { throw SensorError.negativeReading(reading) }
      return reading
    }
    do {
      for try await reading in readings.values { print("  for try await: \(reading)") }
    } catch {
      print("  the loop threw: \(error)")
    }
    done.signal()
  }
  waitOrExit(done, for: "for await")
}

enum SensorError: Error, CustomStringConvertible {
  case negativeReading(Int)

  var description: String {
    switch self {
    case .negativeReading(let value): "negative reading \(value)"
    }
  }
}

/// Two subscribers of one pipeline run its work twice, unless the pipeline is shared.
func shareRunsTheWorkOnce() {
  let userIDs = PassthroughSubject<Int, Never>()
  let profiles = userIDs.map { id -> String in
    print("  looking up user \(id)")
    return "profile of user \(id)"
  }

  print("  without share(), each subscriber has its own map:")
  let header = log("header", profiles)
  let avatar = log("avatar", profiles)
  userIDs.send(1)
  header.cancel()
  avatar.cancel()

  print("  with share(), one map feeds both:")
  let shared = profiles.share()
  let sharedHeader = log("header", shared)
  let sharedAvatar = log("avatar", shared)
  userIDs.send(2)
  _ = (sharedHeader, sharedAvatar)
}
