import RillCore
import RillTesting
import Testing

/// One operator under RillTesting's release probe: a pipeline built on the probe's source.
// SAFETY: immutable; `run` builds a fresh pipeline on each call.
struct ProbedOperator: CustomStringConvertible, @unchecked Sendable {
  typealias Source = ReleaseProbe.Source
  typealias Value = ReleaseProbe.Value
  typealias Failure = ReleaseProbe.Failure

  let description: String
  let run: (ReleaseProbe.Reentry, ContractDemand, ReleaseProbe.Ending) async -> ReleaseProbe.Report

  init<P: Publisher>(_ name: String, _ pipeline: @escaping (Source) -> P) {
    description = name
    run = { reentry, demand, ending in
      await ReleaseProbe.check(reentry: reentry, demand: demand, ending: ending, pipeline)
    }
  }

  private static func throwing(_ value: Value) throws -> Bool {
    if value.number == 4 { throw Failure() }
    return value.number > 1
  }

  /// Every operator of `OperatorContractTests` and `TimingOperatorContractTests`, under the same names, and more.
  static let all: [ProbedOperator] = [
    ProbedOperator("map") { $0.map { $0 } },
    ProbedOperator("tryMap") { $0.tryMap { try throwing($0) ? $0 : $0 } },
    ProbedOperator("compactMap") { $0.compactMap { $0.number > 2 ? $0 : nil } },
    ProbedOperator("tryCompactMap") { $0.tryCompactMap { try throwing($0) ? $0 : nil } },
    ProbedOperator("mapError") { $0.mapError { $0 } },
    ProbedOperator("replaceNil") { source in
      source.map { $0.number == 2 ? nil : $0 }.replaceNil(with: source.value(0))
    },
    ProbedOperator("scan") { source in source.scan(source.value(0)) { $1 } },
    ProbedOperator("tryScan") { source in source.tryScan(source.value(0)) { try throwing($1) ? $1 : $0 } },
    ProbedOperator("setFailureType") { source in
      source.replaceError(with: source.value(0)).setFailureType(to: Failure.self)
    },
    ProbedOperator("filter") { $0.filter { $0.number > 2 } },
    ProbedOperator("tryFilter") { $0.tryFilter { try throwing($0) } },
    ProbedOperator("removeDuplicates") { $0.removeDuplicates() },
    ProbedOperator("tryRemoveDuplicates") { $0.tryRemoveDuplicates { try throwing($0) && $0 == $1 } },
    ProbedOperator("replaceEmpty") { source in source.replaceEmpty(with: source.value(0)) },
    ProbedOperator("replaceError") { source in source.replaceError(with: source.value(0)) },
    ProbedOperator("first") { $0.first() },
    ProbedOperator("firstWhere") { $0.first { $0.number > 3 } },
    ProbedOperator("tryFirstWhere") { $0.tryFirst { try throwing($0) } },
    ProbedOperator("last") { $0.last() },
    ProbedOperator("lastWhere") { $0.last { $0.number < 3 } },
    ProbedOperator("tryLastWhere") { $0.tryLast { try throwing($0) } },
    ProbedOperator("outputAt") { $0.output(at: 2) },
    ProbedOperator("outputIn") { $0.output(in: 1..<4) },
    ProbedOperator("prefix") { $0.prefix(3) },
    ProbedOperator("prefixWhile") { $0.prefix { $0.number < 5 } },
    ProbedOperator("tryPrefixWhile") { $0.tryPrefix { try throwing($0) || $0.number == 3 } },
    ProbedOperator("prefixUntilOutput") { $0.prefix(untilOutputFrom: $0.dropFirst(3)) },
    ProbedOperator("prefixUntilOutput, upstream ends first") {
      $0.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false))
    },
    ProbedOperator("dropFirst") { $0.dropFirst(2) },
    ProbedOperator("dropWhile") { $0.drop { $0.number < 4 } },
    ProbedOperator("tryDropWhile") { $0.tryDrop { try !throwing($0) } },
    ProbedOperator("dropUntilOutput") { $0.drop(untilOutputFrom: $0.dropFirst(2)) },
    ProbedOperator("dropUntilOutput, upstream ends first") {
      $0.drop(untilOutputFrom: Empty<Int, Failure>(completeImmediately: false))
    },
    ProbedOperator("ignoreOutput") { $0.ignoreOutput() },
    ProbedOperator("collect") { $0.collect() },
    ProbedOperator("collectCount") { $0.collect(3) },
    ProbedOperator("reduce") { source in source.reduce(source.value(0)) { $1 } },
    ProbedOperator("tryReduce") { source in source.tryReduce(source.value(0)) { try throwing($1) ? $1 : $0 } },
    ProbedOperator("count") { $0.count() },
    ProbedOperator("min") { $0.min() },
    ProbedOperator("max") { $0.max(by: <) },
    ProbedOperator("tryMin") { $0.tryMin { try throwing($0) && $0 < $1 } },
    ProbedOperator("contains") { source in source.contains(source.value(5)) },
    ProbedOperator("containsWhere") { $0.contains { $0.number > 8 } },
    ProbedOperator("tryContainsWhere") { $0.tryContains { try throwing($0) && $0.number > 8 } },
    ProbedOperator("allSatisfy") { $0.allSatisfy { $0.number > 0 } },
    ProbedOperator("tryAllSatisfy") { $0.tryAllSatisfy { try throwing($0) } },
    ProbedOperator("flatMap") { $0.flatMap { Just($0).append($0).setFailureType(to: Failure.self) } },
    ProbedOperator("flatMapMaxOne") {
      $0.flatMap(maxPublishers: .max(1)) { [$0, $0].publisher.setFailureType(to: Failure.self) }
    },
    ProbedOperator("switchToLatest") {
      $0.map { [$0, $0].publisher.setFailureType(to: Failure.self) }.switchToLatest()
    },
    ProbedOperator("merge") { $0.merge(with: $0) },
    ProbedOperator("zip") { $0.zip($0.dropFirst()) },
    ProbedOperator("combineLatest") { $0.combineLatest($0.prefix(2)) },
    ProbedOperator("append") { $0.append($0) },
    ProbedOperator("prepend") { source in source.prepend(source.value(0), source.value(1)) },
    ProbedOperator("catch") { source in source.catch { _ in Just(source.value(0)) } },
    ProbedOperator("tryCatch") { source in source.tryCatch { _ in Just(source.value(0)) } },
    ProbedOperator("retry") { $0.retry(2) },
    ProbedOperator("share") { $0.share() },
    ProbedOperator("bufferKeepFull") { $0.buffer(size: 3, prefetch: .keepFull, whenFull: .dropOldest) },
    ProbedOperator("bufferByRequest") { $0.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest) },
    ProbedOperator("handleEvents") { $0.handleEvents(receiveOutput: { _ in }) },
    ProbedOperator("receiveOn") { $0.receive(on: $0.scheduler) },
    ProbedOperator("subscribeOn") { $0.subscribe(on: $0.scheduler) },
    ProbedOperator("measureInterval") { $0.measureInterval(using: $0.scheduler) },
    // TimingOperatorContractTests' operators.
    ProbedOperator("delay") { $0.delay(for: 2, scheduler: $0.scheduler) },
    ProbedOperator("debounce") { $0.debounce(for: 3, scheduler: $0.scheduler) },
    ProbedOperator("throttle latest") { $0.throttle(for: 10, scheduler: $0.scheduler, latest: true) },
    ProbedOperator("throttle first") { $0.throttle(for: 10, scheduler: $0.scheduler, latest: false) },
    ProbedOperator("timeout") { $0.timeout(50, scheduler: $0.scheduler) },
    ProbedOperator("receive(on:)") { $0.receive(on: $0.scheduler) },
    ProbedOperator("subscribe(on:)") { $0.subscribe(on: $0.scheduler) },
    ProbedOperator("collect byTime") { $0.collect(.byTime($0.scheduler, 4)) },
    ProbedOperator("collect byTimeOrCount") { $0.collect(.byTimeOrCount($0.scheduler, 4, 2)) },
    // Children, triggers and replacements whose subscriptions call back when freed.
    ProbedOperator("flatMap of the source") { source in source.flatMap { _ in source.prefix(2) } },
    ProbedOperator("switchToLatest of the source") { source in source.map { _ in source.prefix(2) }.switchToLatest() },
    ProbedOperator("catch of the source") { source in source.catch { _ in source } },
    ProbedOperator("zip3") { $0.zip($0.dropFirst(), $0.dropFirst(2)) },
    ProbedOperator("combineLatest3") { $0.combineLatest($0.prefix(2), $0.dropFirst(3)) },
    ProbedOperator("merge3") { $0.merge(with: $0.dropFirst(), $0.prefix(2)) },
    ProbedOperator("mergeMany") {
      Publishers.MergeMany([$0.eraseToAnyPublisher(), $0.dropFirst().eraseToAnyPublisher()])
    },
    ProbedOperator("multicast") { $0.multicast(subject: PassthroughSubject()).autoconnect() },
    ProbedOperator("print") { $0.print("", to: DiscardingStream()) },
    ProbedOperator("breakpoint") { $0.breakpoint() },
  ]
}

/// A stream that keeps nothing, for `print`.
private struct DiscardingStream: TextOutputStream {
  mutating func write(_ string: String) {}
}

/// Every operator lets go of values and subscriptions only after unlocking: a value or subscription whose `deinit`
/// cancels, requests or sends into the source never hangs its thread.
@Suite struct ReleaseProbeTests {
  @Test(arguments: ProbedOperator.all)
  func releasesNothingWhileLocked(_ probed: ProbedOperator) async {
    var reentries = 0
    for reentry in ReleaseProbe.Reentry.allCases {
      for demand in ContractDemand.standard {
        for ending in ReleaseProbe.Ending.allCases {
          let report = await probed.run(reentry, demand, ending)
          #expect(report.hasReturned, "\(probed): \(report)")
          // A hung run keeps its locks for good: the next runs of the same pipeline are independent, but stop here.
          if !report.hasReturned { return }
          reentries += report.reentries
        }
      }
    }
    #expect(reentries > 0, "\(probed): nothing was freed while the runs lasted")
  }

  /// The probe covers every operator that the contract tests check.
  @Test func probesEveryOperatorOfTheContractTests() {
    let probed = Set(ProbedOperator.all.map(\.description))
    let checked = Set(OperatorContractTests.operatorNames).union(TimingOperatorCase.all.map(\.description))
    #expect(checked.subtracting(probed).isEmpty, "not probed: \(checked.subtracting(probed).sorted())")
  }
}
