// Rows: the operators of the Combine API that take one upstream (see OperatorRows.swift). Predicates are written so
// that every value takes the operator's common path: a filter lets it through, a `first(where:)` does not match.
extension OperatorRows {
  static let transforming: [Workload] = [
    row("map") { $0.map { $0 &+ 1 } },
    row("tryMap") { $0.tryMap { $0 &+ 1 } },
    row("map → map(\\.a)") { $0.map { Point(a: $0, b: 1, c: 2) }.map(\.a) },
    row("map → map(\\.a, \\.b)", { $0.map { Point(a: $0, b: 1, c: 2) }.map(\.a, \.b) }, checksum: { $0.0 &+ $0.1 }),
    row(
      "map → map(\\.a, \\.b, \\.c)",
      { $0.map { Point(a: $0, b: 1, c: 2) }.map(\.a, \.b, \.c) },
      checksum: { $0.0 &+ $0.1 &+ $0.2 }
    ),
    row("map → replaceNil(with:)") { $0.map { $0 & 1 == 0 ? $0 : nil }.replaceNil(with: 0) },
    row("scan") { $0.scan(0) { $0 &+ $1 } },
    row("tryScan") { $0.tryScan(0) { $0 &+ $1 } },
    row("filter") { $0.filter { $0 >= 0 } },
    row("tryFilter") { $0.tryFilter { $0 >= 0 } },
    row("compactMap") { $0.compactMap { $0 } },
    row("tryCompactMap") { $0.tryCompactMap { $0 } },
    row("removeDuplicates()") { $0.removeDuplicates() },
    row("removeDuplicates(by:)") { $0.removeDuplicates { $0 == $1 } },
    row("tryRemoveDuplicates(by:)") { $0.tryRemoveDuplicates { $0 == $1 } },
    row("replaceEmpty(with:)") { $0.replaceEmpty(with: 0) },
    row("setFailureType(to:)") { $0.setFailureType(to: RowError.self) },
  ]

  static let reducing: [Workload] = [
    row("ignoreOutput", { $0.ignoreOutput() }, checksum: nothing),
    row("collect()", { $0.collect() }, checksum: { $0.count }),
    row("collect(2)", { $0.collect(2) }, checksum: { $0.count }),
    row("reduce") { $0.reduce(0) { $0 &+ $1 } },
    row("tryReduce") { $0.tryReduce(0) { $0 &+ $1 } },
    row("count") { $0.count() },
    row("max()") { $0.max() },
    row("min()") { $0.min() },
    row("max(by:)") { $0.max { $0 < $1 } },
    row("min(by:)") { $0.min { $0 < $1 } },
    row("tryMax(by:)") { $0.tryMax { $0 < $1 } },
    row("tryMin(by:)") { $0.tryMin { $0 < $1 } },
    row("contains(_:)", { $0.contains(-1) }, checksum: { $0 ? 1 : 0 }),
    row("contains(where:)", { $0.contains { $0 < 0 } }, checksum: { $0 ? 1 : 0 }),
    row("tryContains(where:)", { $0.tryContains { $0 < 0 } }, checksum: { $0 ? 1 : 0 }),
    row("allSatisfy", { $0.allSatisfy { $0 >= 0 } }, checksum: { $0 ? 1 : 0 }),
    row("tryAllSatisfy", { $0.tryAllSatisfy { $0 >= 0 } }, checksum: { $0 ? 1 : 0 }),
  ]

  static let sequenceOperators: [Workload] = [
    row("dropFirst()") { $0.dropFirst() },
    row("drop(while:)") { $0.drop { $0 < 0 } },
    row("tryDrop(while:)") { $0.tryDrop { $0 < 0 } },
    Workload(
      name: "drop(untilOutputFrom:)",
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let cancellable = sink(subject.drop(untilOutputFrom: trigger), into: sum)
        trigger.send()
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
        return sum.value
      }
    ),
    row("prefix(_:)") { $0.prefix(Int.max) },
    row("prefix(while:)") { $0.prefix { $0 >= 0 } },
    row("tryPrefix(while:)") { $0.tryPrefix { $0 >= 0 } },
    Workload(
      name: "prefix(untilOutputFrom:)",
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let cancellable = sink(subject.prefix(untilOutputFrom: trigger), into: sum)
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
        return sum.value
      }
    ),
    row("first(where:)") { $0.first { $0 < 0 } },
    row("tryFirst(where:)") { $0.tryFirst { $0 < 0 } },
    row("last()") { $0.last() },
    row("last(where:)") { $0.last { $0 >= 0 } },
    row("tryLast(where:)") { $0.tryLast { $0 >= 0 } },
    row("output(at:)") { $0.output(at: 1 << 40) },
    row("output(in:)") { $0.output(in: 0..<1 << 40) },
    row("append(_:) a value") { $0.append(-1) },
    row("prepend(_:) a value") { $0.prepend(-1) },
    row("append(Just)") { $0.append(Just(-1)) },
    row("prepend(Just)") { $0.prepend(Just(-1)) },
  ]
}

extension OperatorRows {
  /// The checksum of a pipeline that puts out no values.
  static func nothing(_ value: Never) -> Int {}
}
