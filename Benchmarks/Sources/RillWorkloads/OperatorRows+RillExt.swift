// Rows: RillExt's operators, subjects, relays, traits and tools (see OperatorRows.swift); Rill only.
import Dispatch
import RillExt

extension OperatorRows {
  /// `n` values sent into `send`'s subject (a relay, a replay subject) with one sink; per value.
  static func sendRow<P: Publisher>(
    _ name: String,
    make: @escaping () -> P,
    send: @escaping (P, Int) -> Void
  )
    -> Workload where P.Output == Int
  {
    Workload(
      name: name,
      run: { n in
        let sum = Accumulator()
        let subject = make()
        let cancellable = sink(subject, into: sum)
        for i in 0..<n { send(subject, i) }
        cancellable.cancel()
        return sum.value
      }
    )
  }

  static var rillExt: [Workload] { rillExtSubjects + rillExtOperators + rillExtTraits }

  static let rillExtSubjects: [Workload] = [
    row("share(replay: 1)") { $0.share(replay: 1) },
    sendRow("ReplaySubject(bufferSize: 1)", make: { ReplaySubject<Int, Never>(bufferSize: 1) }, send: { $0.send($1) }),
    sendRow("PassthroughRelay", make: { PassthroughRelay<Int>() }, send: { $0.accept($1) }),
    sendRow("CurrentValueRelay", make: { CurrentValueRelay(0) }, send: { $0.accept($1) }),
    firstOfRow("withLatestFrom(_:)", subjects: 2, primeOthers: true, { $0[0].withLatestFrom($0[1]) }, checksum: { $0 }),
    firstOfRow(
      "withLatestFrom(_:_:)",
      subjects: 3,
      primeOthers: true,
      { $0[0].withLatestFrom($0[1], $0[2]) },
      checksum: { $0.0 &+ $0.1 }
    ),
    firstOfRow(
      "withLatestFrom(_:_:_:)",
      subjects: 4,
      primeOthers: true,
      { $0[0].withLatestFrom($0[1], $0[2], $0[3]) },
      checksum: { $0.0 &+ $0.1 &+ $0.2 }
    ),
    firstOfRow(
      "withLatestFrom(_:) { selector }",
      subjects: 2,
      primeOthers: true,
      { $0[0].withLatestFrom($0[1]) { $0 &+ $1 } },
      checksum: { $0 }
    ),
    firstOfRow("amb(_:)", subjects: 2, primeOthers: false, { $0[0].amb($0[1]) }, checksum: { $0 }),
    firstOfRow("Collection.amb()", subjects: 3, primeOthers: false, { $0.amb() }, checksum: { $0 }),
    firstOfRow("Collection.merge()", subjects: 3, primeOthers: false, { $0.merge() }, checksum: { $0 }),
    firstOfRow(
      "Collection.combineLatest()",
      subjects: 3,
      primeOthers: true,
      { $0.combineLatest() },
      checksum: { $0[0] }
    ),
    firstOfRow(
      "combineLatest(with:)",
      subjects: 3,
      primeOthers: true,
      { $0[0].combineLatest(with: $0[1], $0[2]) },
      checksum: { $0[0] }
    ),
    zipRow("Collection.zip()", subjects: 3, { $0.zip() }, checksum: { $0[0] }),
    zipRow("zip(with:)", subjects: 3, { $0[0].zip(with: $0[1], $0[2]) }, checksum: { $0[0] }),
  ]

  static let rillExtOperators: [Workload] = [
    row("materialize", { $0.materialize() }, checksum: { if case .value(let value) = $0 { value } else { 0 } }),
    row("materialize → dematerialize") { $0.materialize().dematerialize() },
    row("materialize → values()") { $0.materialize().values() },
    row("flatMapLatest { Just }") { $0.flatMapLatest { Just($0) } },
    row("flatMapFirst { Just }") { $0.flatMapFirst { Just($0) } },
    failingRow("ignoreFailure") { $0.ignoreFailure() },
    failingRow("retryWhen") { $0.retryWhen { $0 } },
    row("map → mapMany", { $0.map { [$0] }.mapMany { $0 &+ 1 } }, checksum: { $0[0] }),
    row("map → filterMany", { $0.map { [$0] }.filterMany { $0 >= 0 } }, checksum: { $0[0] }),
    row("mapToValue") { $0.mapToValue(1) },
    row("mapToVoid", { $0.mapToVoid() }, checksum: { 1 }),
    row("mapToResult", { $0.mapToResult() }, checksum: { if case .success(let value) = $0 { value } else { 0 } }),
    row("ignoreOutput(setOutputType:)") { $0.ignoreOutput(setOutputType: Int.self) },
    row("map → toggle", { $0.map { $0 & 1 == 0 }.toggle() }, checksum: { $0 ? 1 : 0 }),
    row("enumerated", { $0.enumerated() }, checksum: { $0.index &+ $0.element }),
    row("nwise(3)", { $0.nwise(3) }, checksum: { $0[0] }),
    row("pairwise", { $0.pairwise() }, checksum: { $0.0 &+ $0.1 }),
    Workload(
      name: "partition",
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let (matches, nonMatches) = subject.partition { $0 & 1 == 0 }
        let first = sink(matches, into: sum)
        let second = sink(nonMatches, into: sum)
        for i in 0..<n { subject.send(i) }
        first.cancel()
        second.cancel()
        return sum.value
      }
    ),
    row("removeAllDuplicates()") { $0.removeAllDuplicates() },
    row("map → removeAllDuplicates(by:), 8 distinct") { $0.map { $0 & 7 }.removeAllDuplicates { $0 == $1 } },
    row("prefix(while:behavior: .inclusive)") { $0.prefix(while: { $0 >= 0 }, behavior: .inclusive) },
    Workload(
      name: "AnyPublisher.create",
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let created = AnyPublisher<Int, Never>.create { subscriber in
          subject.sink { subscriber.send($0) }
        }
        let cancellable = sink(created, into: sum)
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
        return sum.value
      }
    ),
    Workload(
      name: "AsyncStream.asPublisher",
      run: { n in
        let sum = Accumulator()
        let done = DispatchSemaphore(value: 0)
        let stream = AsyncStream<Int> { continuation in
          for i in 0..<n { continuation.yield(i) }
          continuation.finish()
        }
        let cancellable = stream.asPublisher()
          .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { sum.add($0) })
        done.wait()
        cancellable.cancel()
        return sum.value
      }
    ),
  ]

  static let rillExtTraits: [Workload] = [
    Workload(
      name: "eraseToAnySinglePublisher → sinkSingle (per subscription)",
      run: { n in
        let sum = Accumulator()
        for i in 0..<n {
          Just(i).eraseToAnySinglePublisher().sinkSingle { if case .success(let value) = $0 { sum.add(value) } }
            .cancel()
        }
        return sum.value
      }
    ),
    perSubscription("Just → eraseToAnyPublisher → assertSingle") { Just($0).eraseToAnyPublisher().assertSingle() },
    perSubscription("Just → eraseToAnyMaybePublisher") { Just($0).eraseToAnyMaybePublisher() },
    perSubscription("Just → preventCancellation") { Just($0).preventCancellation() },
    Workload(
      name: "zipSingle of two Justs (per subscription)",
      run: { n in
        let sum = Accumulator()
        for i in 0..<n {
          _ = sink([Just(i), Just(1)].zipSingle().map { $0[0] }, into: sum)
        }
        return sum.value
      }
    ),
    Workload(
      name: "sink(in: CancelBag) (per subscription)",
      run: { n in
        let sum = Accumulator()
        let bag = CancelBag()
        for i in 0..<n {
          Just(i).sink(in: bag, receiveCompletion: { _ in }, receiveValue: { sum.add($0) })
        }
        bag.cancel()
        return sum.value
      }
    ),
    Workload(
      name: "Action.execute (per subscription)",
      run: { n in
        let sum = Accumulator()
        let action = Action<Int, Int, Never> { Just($0) }
        for i in 0..<n {
          action.execute(i).sink(receiveCompletion: { _ in }, receiveValue: { sum.add($0) }).cancel()
        }
        return sum.value
      }
    ),
  ]
}
