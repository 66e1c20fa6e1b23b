import Rill
import Testing

/// The examples of Porting from Combine's "Sharing a pipeline across tasks in Swift 6", as the article writes them;
/// the example that must not compile is in Tests/RillCompileFailures.
@Suite(.timeLimit(.minutes(1)))
struct SharingAcrossTasksTests {
  func runningTotals(of prices: Publishers.Sequence<[Int], Never>) async -> [[Int]] {
    let makeTotals: @Sendable () -> AnyPublisher<Int, Never> = {
      prices.scan(0, +).eraseToAnyPublisher()
    }
    async let first = makeTotals().values.reduce(into: []) { $0.append($1) }
    async let second = makeTotals().values.reduce(into: []) { $0.append($1) }
    return await [first, second]  // [[3, 7, 12], [3, 7, 12]]
  }

  @Test func eachTaskBuildsThePipelineItRuns() async {
    let prices = [3, 4, 5].publisher
    #expect(await runningTotals(of: prices) == [[3, 7, 12], [3, 7, 12]])
  }

  @Test func tasksShareOneSubscriptionThroughASubject() async {
    let prices = [3, 4, 5].publisher
    let latest = CurrentValueSubject<Int, Never>(0)
    let feed = prices.scan(0, +).sink { latest.send($0) }  // keep `feed` as long as the tasks need values
    let watcher = Task { await latest.values.first { $0 >= 12 } }
    let other = Task { await latest.values.first { $0 >= 12 } }
    #expect(await watcher.value == 12)
    #expect(await other.value == 12)
    feed.cancel()
  }
}
