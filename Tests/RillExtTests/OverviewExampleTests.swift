import Rill
import RillExt
import RillTestSupport
import Testing

/// The example of RillExt's overview page (RillExt.docc/RillExt.md), as written there, with its output recorded.
@Suite struct OverviewExampleTests {
  struct SearchError: Error, Equatable {}

  /// Looks `term` up; here, one result at once.
  func search(_ term: String) -> AnyPublisher<[String], SearchError> {
    Just(["\(term).swift"]).setFailureType(to: SearchError.self).eraseToAnyPublisher()
  }

  @Test func eachTapSearchesForTheLatestQuery() {
    let taps = PassthroughSubject<Void, Never>()
    let query = CurrentValueSubject<String, Never>("rill")
    var events: [Event<[String], SearchError>] = []

    let cancellable =
      taps
      .withLatestFrom(query)
      .flatMapLatest { search($0).materialize() }
      .sink { event in events.append(event) }

    taps.send()
    query.send("combine")
    taps.send()
    expectEqual(events, [.value(["rill.swift"]), .finished, .value(["combine.swift"]), .finished])
    cancellable.cancel()
  }
}
