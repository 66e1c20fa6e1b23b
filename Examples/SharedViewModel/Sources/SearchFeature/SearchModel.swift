public import Foundation
public import RillShim

#if canImport(Combine)
public import CombineSchedulers
#else
public import RillExt
#endif

/// Finds the results for a query.
public typealias Search = (String) -> AnyPublisher<[String], Never>

extension Publisher where Output == String {
  /// The queries worth a search: trimmed, not empty, unchanged for 300 milliseconds, and new.
  ///
  /// - Parameter scheduler: The scheduler that measures the 300 milliseconds.
  /// - Returns: The settled queries.
  public func settledQueries<S: Scheduler>(on scheduler: S) -> AnyPublisher<String, Failure> {
    map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
      .debounce(for: .milliseconds(300), scheduler: scheduler)
      .removeDuplicates()
      .eraseToAnyPublisher()
  }
}

/// A search screen's model: results for the query once it settles, and favourites.
public final class SearchModel: ObservableObject {
  @Published public var query = ""
  @Published public private(set) var results: [String] = []
  @Published public private(set) var favorites: Set<String> = []

  /// Creates a model that searches with `search` and updates its results on `mainQueue`.
  ///
  /// - Parameters:
  ///   - search: Finds the results for a query, on any thread.
  ///   - mainQueue: `.main` in the app; `DispatchQueue.test.eraseToAnyScheduler()` or `.unimplemented` in tests.
  public init(search: @escaping Search, mainQueue: AnySchedulerOf<DispatchQueue> = .main) {
    $query
      .settledQueries(on: mainQueue)
      .map(search)
      .switchToLatest()
      .receive(on: mainQueue)
      .assign(to: &$results)
  }

  /// Adds `result` to the favourites, or removes it if it is one.
  ///
  /// - Parameter result: A result of the search.
  public func toggleFavorite(_ result: String) {
    if favorites.remove(result) == nil {
      favorites.insert(result)
    }
  }
}
