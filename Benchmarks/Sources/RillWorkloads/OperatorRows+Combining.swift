// Rows: combining, flattening, error handling, sharing, buffering and debugging (see OperatorRows.swift). The rows
// that OpenCombine lacks (merge, combineLatest) are in OperatorRows+RillOnly.swift.
extension OperatorRows {
  /// `n` values through `combine` of `count` subjects: each value is sent into every subject, so the pipeline puts
  /// out one value per round (zip).
  static func zipRow<P: Publisher>(
    _ name: String,
    subjects count: Int,
    _ combine: @escaping ([PassthroughSubject<Int, Never>]) -> P,
    checksum: @escaping (P.Output) -> Int
  ) -> Workload {
    Workload(
      name: name,
      run: { n in
        let sum = Accumulator()
        let subjects = (0..<count).map { _ in PassthroughSubject<Int, Never>() }
        let cancellable = combine(subjects)
          .sink(receiveCompletion: { _ in sum.add(1) }, receiveValue: { sum.add(checksum($0)) })
        for i in 0..<n {
          for subject in subjects { subject.send(i) }
        }
        cancellable.cancel()
        return sum.value
      }
    )
  }

  /// `n` values sent into the first of `count` subjects through `combine`, after each other subject has sent one
  /// value (combineLatest, withLatestFrom), or sent nothing (merge, amb).
  static func firstOfRow<P: Publisher>(
    _ name: String,
    subjects count: Int,
    primeOthers: Bool,
    _ combine: @escaping ([PassthroughSubject<Int, Never>]) -> P,
    checksum: @escaping (P.Output) -> Int
  ) -> Workload {
    Workload(
      name: name,
      run: { n in
        let sum = Accumulator()
        let subjects = (0..<count).map { _ in PassthroughSubject<Int, Never>() }
        let cancellable = combine(subjects)
          .sink(receiveCompletion: { _ in sum.add(1) }, receiveValue: { sum.add(checksum($0)) })
        if primeOthers {
          for subject in subjects.dropFirst() { subject.send(1) }
        }
        for i in 0..<n { subjects[0].send(i) }
        cancellable.cancel()
        return sum.value
      }
    )
  }

  static var combining: [Workload] {
    [
      zipRow("zip(_:)", subjects: 2, { $0[0].zip($0[1]) }, checksum: { $0.0 &+ $0.1 }),
      zipRow("zip(_:_:)", subjects: 3, { $0[0].zip($0[1], $0[2]) }, checksum: { $0.0 &+ $0.1 &+ $0.2 }),
      zipRow(
        "zip(_:_:_:)",
        subjects: 4,
        { $0[0].zip($0[1], $0[2], $0[3]) },
        checksum: { $0.0 &+ $0.1 &+ $0.2 &+ $0.3 }
      ),
      zipRow("zip(_:) { transform }", subjects: 2, { $0[0].zip($0[1]) { $0 &+ $1 } }, checksum: { $0 }),
    ] + rillOnlyCombining + [
      row("flatMap { Just }") { $0.flatMap { Just($0) } },
      row("flatMap(maxPublishers: .max(1)) { Just }") { $0.flatMap(maxPublishers: .max(1)) { Just($0) } },
      row("map { Just } → switchToLatest") { $0.map { Just($0) }.switchToLatest() },
      Workload(
        name: "flatMap, values through one inner subject",
        run: { n in
          let sum = Accumulator()
          let inner = PassthroughSubject<Int, Never>()
          let cancellable = sink(Just(inner).flatMap { $0 }, into: sum)
          for i in 0..<n { inner.send(i) }
          cancellable.cancel()
          return sum.value
        }
      ),
      Workload(
        name: "switchToLatest, values through the latest inner subject",
        run: { n in
          let sum = Accumulator()
          let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
          let inner = PassthroughSubject<Int, Never>()
          let cancellable = sink(outer.switchToLatest(), into: sum)
          outer.send(inner)
          for i in 0..<n { inner.send(i) }
          cancellable.cancel()
          return sum.value
        }
      ),
    ]
  }

  static let errorHandling: [Workload] = [
    failingRow("mapError") { $0.mapError { _ in RowError() } },
    failingRow("replaceError(with:)") { $0.replaceError(with: 0) },
    failingRow("assertNoFailure") { $0.assertNoFailure() },
    failingRow("catch") { $0.catch { _ in Just(0) } },
    failingRow("tryCatch") { $0.tryCatch { _ in Just(0) } },
    failingRow("retry(1)") { $0.retry(1) },
  ]

  static let sharing: [Workload] = [
    row("share") { $0.share() },
    Workload(
      name: "multicast(subject:) + connect",
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let multicast = subject.multicast(subject: PassthroughSubject<Int, Never>())
        let cancellable = sink(multicast, into: sum)
        let connection = multicast.connect()
        for i in 0..<n { subject.send(i) }
        connection.cancel()
        cancellable.cancel()
        return sum.value
      }
    ),
    row("multicast { subject } → autoconnect") { $0.multicast { PassthroughSubject<Int, Never>() }.autoconnect() },
    Workload(
      name: "makeConnectable + connect",
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let connectable = subject.makeConnectable()
        let cancellable = sink(connectable, into: sum)
        let connection = connectable.connect()
        for i in 0..<n { subject.send(i) }
        connection.cancel()
        cancellable.cancel()
        return sum.value
      }
    ),
    row("makeConnectable → autoconnect") { $0.makeConnectable().autoconnect() },
    row("buffer(64, .byRequest, .dropOldest)") { $0.buffer(size: 64, prefetch: .byRequest, whenFull: .dropOldest) },
    row("buffer(64, .keepFull, .dropNewest)") { $0.buffer(size: 64, prefetch: .keepFull, whenFull: .dropNewest) },
    row("buffer(64, .byRequest, .customError)") {
      $0.setFailureType(to: RowError.self)
        .buffer(size: 64, prefetch: .byRequest, whenFull: .customError { RowError() })
    },
    row("handleEvents(receiveOutput:)") { $0.handleEvents(receiveOutput: { _ in }) },
    row("handleEvents, all five closures") {
      $0.handleEvents(
        receiveSubscription: { _ in },
        receiveOutput: { _ in },
        receiveCompletion: { _ in },
        receiveCancel: {},
        receiveRequest: { _ in }
      )
    },
    row("print(_:to:) a null stream") { $0.print("row", to: NullStream()) },
    row("breakpoint(receiveOutput:)") { $0.breakpoint(receiveOutput: { _ in false }) },
    row("breakpointOnError") { $0.breakpointOnError() },
  ]
}
