import Foundation
import Rill
import RillExt
import RillTestSupport
import RillTesting
import Testing

// The example of the testing guide's "Testing a view model that uses DispatchQueue.main", as the guide writes it.

final class SearchViewModel: ObservableObject {
  @Published var query = ""
  @Published var isOnline = true
  @Published private(set) var searched: [String] = []

  private let scheduler: AnySchedulerOf<DispatchQueue>

  init(scheduler: AnySchedulerOf<DispatchQueue> = .main) {
    self.scheduler = scheduler
    searchTerms(typed: $query, isOnline: $isOnline)
      .scan([]) { $0 + [$1] }
      .assign(to: &$searched)
  }

  /// What to search for: the query, once the user has paused typing for 300 ms, while online.
  func searchTerms<Typed: Publisher, Online: Publisher>(
    typed: Typed,
    isOnline: Online
  ) -> some Publisher<String, Typed.Failure>
  where Typed.Output == String, Online.Output == Bool, Online.Failure == Typed.Failure {
    typed
      .debounce(for: .milliseconds(300), scheduler: scheduler)
      .removeDuplicates()
      .combineLatest(isOnline)
      .filter { _, isOnline in isOnline }
      .map { query, _ in query }
  }
}

@Suite struct ViewModelGuideTests {
  @Test func searchesOncePerPauseWhileOnline() {
    let scheduler = DispatchQueue.test
    let model = SearchViewModel(scheduler: scheduler.eraseToAnyScheduler())
    let terms = scheduler.marbles(
      Marbles("-r-'ri'-'ril'----'rill'-------|"),
      Marbles("t-------------f-----t---------|", values: ["t": true, "f": false]),
      tick: .milliseconds(100)
    ) { typed, isOnline in
      model.searchTerms(typed: typed, isOnline: isOnline)
    }
    expectEqual(terms, "--------'ril'----'rill'------'rill'---------|")
  }

  @Test func theViewModelSearchesWhenTheClockMoves() {
    let scheduler = DispatchQueue.test
    let model = SearchViewModel(scheduler: scheduler.eraseToAnyScheduler())
    model.query = "ril"
    scheduler.advance(by: .milliseconds(100))
    model.query = "rill"
    scheduler.advance(by: .milliseconds(300))
    expectEqual(model.searched, ["rill"])
  }
}
