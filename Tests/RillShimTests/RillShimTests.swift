// Code as an app shared between Apple platforms and Linux writes it: `import RillShim` for the reactive API (Apple's
// Combine there, Rill here) and Foundation for DispatchQueue, as with Combine. Nothing here names Rill.
import Foundation
import RillShim
import Testing

/// A view model as Combine users write it: published input, a derived published output, an `ObservableObject`.
final class SearchModel: ObservableObject {
  @Published var query = ""
  @Published private(set) var matches: [String] = []

  init(catalog: [String], scheduler: DispatchQueue) {
    $query
      .map { query in query.isEmpty ? [] : catalog.filter { $0.hasPrefix(query) } }
      .removeDuplicates()
      .receive(on: scheduler)
      .assign(to: &$matches)
  }
}

@Suite struct RillShimTests {
  /// Where Apple's Combine is missing, the types the shim gives are Rill's.
  @Test func reExportsRillWhereCombineIsMissing() {
    let module = String(reflecting: PassthroughSubject<Int, Never>.self).prefix { $0 != "." }
    #if canImport(Combine)
    #expect(module == "Combine")
    #else
    #expect(module == "RillCore")
    #endif
  }

  @Test func subjectMapFilterSink() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [String] = []
    let cancellable = subject.map { $0 * 2 }.filter { $0 > 2 }.sink { received.append("got \($0)") }
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(received == ["got 4", "got 6"])
    cancellable.cancel()
  }

  @Test func publishedAndObservableObject() {
    let queue = DispatchQueue(label: "RillShimTests.publishedAndObservableObject")
    let model = SearchModel(catalog: ["rill", "river", "combine"], scheduler: queue)
    queue.sync {}  // the first, empty, matches
    var changes = 0
    let cancellable = model.objectWillChange.sink { _ in changes += 1 }

    model.query = "ri"
    queue.sync {}  // the matches arrive on `queue`; this waits until it has run what was scheduled
    #expect(model.matches == ["rill", "river"])
    model.query = "c"
    queue.sync {}
    #expect(model.matches == ["combine"])
    // Two changes of `query`, two of `matches`.
    #expect(changes == 4)
    cancellable.cancel()
  }

  @Test func currentValueSubjectOnADispatchQueue() {
    let queue = DispatchQueue(label: "RillShimTests.currentValueSubjectOnADispatchQueue")
    let temperature = CurrentValueSubject<Double, Never>(20)
    var received: [Double] = []
    let cancellable =
      temperature
      .receive(on: queue)
      .sink { value in
        dispatchPrecondition(condition: .onQueue(queue))
        received.append(value)
      }
    temperature.send(21.5)
    temperature.send(completion: .finished)
    queue.sync {}
    #expect(received == [20, 21.5])
    cancellable.cancel()
  }

  @Test func valuesInAForAwaitLoop() async {
    var collected: [Int] = []
    for await value in [1, 2, 3].publisher.map({ $0 * 10 }).values {
      collected.append(value)
    }
    #expect(collected == [10, 20, 30])
  }

  @Test func futureAndJustAndZip() {
    let future = Future<Int, Never> { promise in promise(.success(2)) }
    var received: [Int] = []
    let cancellable = future.zip(Just(3)).map { $0 * $1 }.sink { received.append($0) }
    #expect(received == [6])
    cancellable.cancel()
  }
}
