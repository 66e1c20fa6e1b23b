import Foundation
import Rill
import RillTestSupport
import RillTesting
import Testing

/// The examples of the Getting Started article, with what they print collected instead of printed, so the
/// article's comments stay true.
@Suite struct GettingStartedTests {
  @Test func firstPipeline() {
    let searches = PassthroughSubject<String, Never>()
    var printed: [String] = []
    let cancellable =
      searches
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
      .removeDuplicates()
      .sink { printed.append("searching for \($0)") }

    searches.send("rill")
    searches.send(" rill ")
    searches.send("")
    searches.send("combine")
    expectEqual(printed, ["searching for rill", "searching for combine"])
    cancellable.cancel()
  }

  @Test func valuesThatFail() {
    struct Offline: Error {}
    let requests = PassthroughSubject<Int, Offline>()
    var printed: [String] = []
    var finished = false
    let cancellable =
      requests
      .map { "page \($0)" }
      .catch { _ in Just("offline") }
      .sink(receiveCompletion: { _ in finished = true }, receiveValue: { printed.append($0) })

    requests.send(1)
    requests.send(completion: .failure(Offline()))
    expectEqual(printed, ["page 1", "offline"])
    #expect(finished)
    cancellable.cancel()
  }

  @Test func threads() {
    let results = DispatchQueue(label: "results")
    let done = DispatchSemaphore(value: 0)
    let printed = Locked<[Int]>([])
    let cancellable = (1...3).publisher
      .subscribe(on: DispatchQueue.global())
      .map { $0 * $0 }
      .receive(on: results)
      .sink(
        receiveCompletion: { _ in done.signal() },
        receiveValue: { value in printed.withLock { $0.append(value) } }
      )
    done.wait()
    #expect(printed.withLock { $0 } == [1, 4, 9])
    cancellable.cancel()
  }

  @Test func debounceKeepsTheLastValueOfABurst() {
    let scheduler = TestScheduler()
    #expect(
      scheduler.marbles("-ab---c---|") { $0.debounce(for: 2, scheduler: scheduler) }
        == "----b---c-|"
    )
  }
}
