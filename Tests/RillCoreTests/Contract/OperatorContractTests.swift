import RillTesting
import Testing

/// Every operator keeps the publisher contract under RillTesting's standard demand plans: subscription first,
/// no value beyond demand, nothing after completion, one completion, never two calls at once.
///
/// Sources are erased so that the operator types themselves run, not the eager `Publishers.Sequence` and
/// `Just` specializations.
@Suite struct OperatorContractTests {
  private struct Failure: Error, Equatable {}

  private static var values: AnyPublisher<Int, Never> { [3, 1, 4, 1, 5, 9, 2, 6].publisher.eraseToAnyPublisher() }

  private static var failing: AnyPublisher<Int, Failure> {
    Record<Int, Failure>(output: [3, 1, 4], completion: .failure(Failure())).eraseToAnyPublisher()
  }

  private static var optionals: AnyPublisher<Int?, Never> { [1, nil, 3].publisher.eraseToAnyPublisher() }

  private static func check<P: Publisher>(_ publisher: P, _ demand: ContractDemand) -> String {
    PublisherContract.check(publisher, demand: demand).description
  }

  private static func reports(_ demand: ContractDemand) -> [(String, String)] {
    let values = Self.values
    let failing = Self.failing
    let throwing: (Int) throws -> Bool = { value in
      if value == 4 { throw Failure() }
      return value > 1
    }
    return [
      ("map", check(values.map { $0 * 2 }, demand)),
      ("tryMap", check(values.tryMap { try throwing($0) }, demand)),
      ("compactMap", check(values.compactMap { $0 > 2 ? $0 : nil }, demand)),
      ("tryCompactMap", check(values.tryCompactMap { try throwing($0) ? $0 : nil }, demand)),
      ("mapError", check(failing.mapError { _ in Failure() }, demand)),
      ("replaceNil", check(optionals.replaceNil(with: 0), demand)),
      ("scan", check(values.scan(0, +), demand)),
      ("tryScan", check(values.tryScan(0) { try throwing($1) ? $0 + $1 : $0 }, demand)),
      ("setFailureType", check(values.setFailureType(to: Failure.self), demand)),
      ("filter", check(values.filter { $0 > 2 }, demand)),
      ("tryFilter", check(values.tryFilter { try throwing($0) }, demand)),
      ("removeDuplicates", check(values.removeDuplicates(), demand)),
      ("tryRemoveDuplicates", check(values.tryRemoveDuplicates { try throwing($0) && $0 == $1 }, demand)),
      ("replaceEmpty", check(Empty<Int, Never>().eraseToAnyPublisher().replaceEmpty(with: 1), demand)),
      ("replaceError", check(failing.replaceError(with: 0), demand)),
      ("first", check(values.first(), demand)),
      ("firstWhere", check(values.first { $0 > 3 }, demand)),
      ("tryFirstWhere", check(values.tryFirst { try throwing($0) }, demand)),
      ("last", check(values.last(), demand)),
      ("lastWhere", check(values.last { $0 < 3 }, demand)),
      ("tryLastWhere", check(values.tryLast { try throwing($0) }, demand)),
      ("outputAt", check(values.output(at: 2), demand)),
      ("outputIn", check(values.output(in: 1..<4), demand)),
      ("prefix", check(values.prefix(3), demand)),
      ("prefixWhile", check(values.prefix { $0 < 5 }, demand)),
      ("tryPrefixWhile", check(values.tryPrefix { try throwing($0) || $0 == 3 }, demand)),
      (
        "prefixUntilOutput",
        check(values.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)), demand)
      ),
      ("dropFirst", check(values.dropFirst(2), demand)),
      ("dropWhile", check(values.drop { $0 < 4 }, demand)),
      ("tryDropWhile", check(values.tryDrop { try !throwing($0) }, demand)),
      ("dropUntilOutput", check(values.drop(untilOutputFrom: Just(0)), demand)),
      ("ignoreOutput", check(values.ignoreOutput(), demand)),
      ("collect", check(values.collect(), demand)),
      ("collectCount", check(values.collect(3), demand)),
      ("reduce", check(values.reduce(0, +), demand)),
      ("tryReduce", check(values.tryReduce(0) { try throwing($1) ? $0 + $1 : $0 }, demand)),
      ("count", check(values.count(), demand)),
      ("min", check(values.min(), demand)),
      ("max", check(values.max(by: <), demand)),
      ("tryMin", check(values.tryMin { try throwing($0) && $0 < $1 }, demand)),
      ("contains", check(values.contains(5), demand)),
      ("containsWhere", check(values.contains { $0 > 8 }, demand)),
      ("tryContainsWhere", check(values.tryContains { try throwing($0) && $0 > 8 }, demand)),
      ("allSatisfy", check(values.allSatisfy { $0 > 0 }, demand)),
      ("tryAllSatisfy", check(values.tryAllSatisfy { try throwing($0) }, demand)),
      ("flatMap", check(values.flatMap { Just($0).append($0) }, demand)),
      ("flatMapMaxOne", check(values.flatMap(maxPublishers: .max(1)) { [$0, $0].publisher }, demand)),
      ("switchToLatest", check(values.map { [$0, -$0].publisher }.switchToLatest(), demand)),
      ("merge", check(values.merge(with: values), demand)),
      ("zip", check(values.zip(values.dropFirst()), demand)),
      ("combineLatest", check(values.combineLatest(values.prefix(2)), demand)),
      ("append", check(values.append(values), demand)),
      ("prepend", check(values.prepend(0, 1), demand)),
      ("catch", check(failing.catch { _ in Just(0) }, demand)),
      ("tryCatch", check(failing.tryCatch { _ in Just(0) }, demand)),
      ("retry", check(failing.retry(2), demand)),
      ("share", check(values.share(), demand)),
      ("bufferKeepFull", check(values.buffer(size: 3, prefetch: .keepFull, whenFull: .dropOldest), demand)),
      ("bufferByRequest", check(values.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest), demand)),
      ("handleEvents", check(values.handleEvents(receiveOutput: { _ in }), demand)),
      ("receiveOn", check(values.receive(on: ImmediateScheduler.shared), demand)),
      ("subscribeOn", check(values.subscribe(on: ImmediateScheduler.shared), demand)),
      ("measureInterval", check(values.measureInterval(using: ImmediateScheduler.shared), demand)),
    ]
  }

  /// The names of the operators checked, for the suites that must cover the same operators.
  static var operatorNames: [String] { reports(.unlimited).map(\.0) }

  @Test(arguments: ContractDemand.standard)
  func everyOperatorKeepsTheContract(demand: ContractDemand) {
    for (name, report) in Self.reports(demand) {
      #expect(report.hasPrefix("satisfied"), "\(name) under \(demand): \(report)")
    }
  }
}
