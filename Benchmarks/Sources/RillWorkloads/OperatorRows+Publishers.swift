// Rows: the publishers, subjects and subscribers of the Combine API (see OperatorRows.swift).
extension OperatorRows {
  static let publishers: [Workload] = [
    row("PassthroughSubject → sink") { $0 },
    Workload(
      name: "CurrentValueSubject → sink",
      run: { n in
        let sum = Accumulator()
        let subject = CurrentValueSubject<Int, Never>(0)
        let cancellable = sink(subject, into: sum)
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
        return sum.value
      }
    ),
    Workload(
      name: "sequence.publisher → sink",
      run: { n in
        let sum = Accumulator()
        _ = sink((0..<n).publisher, into: sum)
        return sum.value
      }
    ),
    Workload(
      name: "Record(output:) → sink",
      run: { n in
        let sum = Accumulator()
        _ = sink(Record<Int, Never>(output: Array(0..<n), completion: .finished), into: sum)
        return sum.value
      }
    ),
    Workload(
      name: "@Published → sink",
      run: { n in
        let sum = Accumulator()
        let target = Target()
        let cancellable = sink(target.$published, into: sum)
        for i in 0..<n { target.published = i }
        cancellable.cancel()
        return sum.value
      }
    ),
    Workload(
      name: "objectWillChange → sink",
      run: { n in
        let sum = Accumulator()
        let target = Target()
        let cancellable = target.objectWillChange.sink { _ in sum.add(1) }
        for i in 0..<n { target.published = i }
        cancellable.cancel()
        return sum.value
      }
    ),
    perSubscription("Just") { Just($0) },
    perSubscription("Empty") { _ in Empty<Int, Never>() },
    perSubscription("Fail") { _ in Fail<Int, RowError>(error: RowError()) },
    perSubscription("Future") { i in Future<Int, Never> { $0(.success(i)) } },
    perSubscription("Deferred") { i in Deferred { Just(i) } },
    perSubscription("Optional.Publisher") { Optional.Publisher($0) },
    perSubscription("Result.Publisher") { Result<Int, RowError>.Publisher(.success($0)) },
    perSubscription("Just → first()") { Just($0).first() },
  ]

  static let subscribers: [Workload] = [
    Workload(
      name: "sink(receiveValue:)",
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink { sum.add($0) }
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
        return sum.value
      }
    ),
    Workload(
      name: "assign(to:on:)",
      run: { n in
        let target = Target()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.assign(to: \.value, on: target)
        var sum = 0
        for i in 0..<n {
          subject.send(i)
          sum &+= target.value
        }
        cancellable.cancel()
        return sum
      }
    ),
    Workload(
      name: "assign(to: &$published)",
      run: { n in
        let target = Target()
        let subject = PassthroughSubject<Int, Never>()
        subject.assign(to: &target.$published)
        var sum = 0
        for i in 0..<n {
          subject.send(i)
          sum &+= target.published
        }
        return sum
      }
    ),
    Workload(
      name: "subscribe(AnySubscriber)",
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { sum.add($0) })
        subject.subscribe(AnySubscriber(sink))
        for i in 0..<n { subject.send(i) }
        sink.cancel()
        return sum.value
      }
    ),
    Workload(
      name: "subscribe(AnySubscriber(PassthroughSubject)) → sink",
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let relay = PassthroughSubject<Int, Never>()
        let cancellable = sink(relay, into: sum)
        subject.subscribe(AnySubscriber(relay))
        for i in 0..<n { subject.send(i) }
        subject.send(completion: .finished)
        cancellable.cancel()
        return sum.value
      }
    ),
    Workload(
      name: "subscribe(PassthroughSubject) → sink",
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let relay = PassthroughSubject<Int, Never>()
        let cancellable = sink(relay, into: sum)
        let link = subject.subscribe(relay)
        for i in 0..<n { subject.send(i) }
        link.cancel()
        cancellable.cancel()
        return sum.value
      }
    ),
    row("eraseToAnyPublisher") { $0.eraseToAnyPublisher() },
  ]
}
