// Rows that OpenCombine has no counterpart for: merge and combineLatest (which OpenCombine 0.14 lacks), the time
// operators on RillExt's virtual clock (OpenCombine has no virtual-time scheduler outside its tests) and RillExt's
// operators. OpenCombineWorkloads has a file of the same name with these lists empty; the table shows n/a.
import Dispatch
import Foundation
import RillExt

extension OperatorRows {
  static let rillOnlyCombining: [Workload] = [
    firstOfRow("merge(with:)", subjects: 2, primeOthers: false, { $0[0].merge(with: $0[1]) }, checksum: { $0 }),
    firstOfRow(
      "merge(with:_:)",
      subjects: 3,
      primeOthers: false,
      { $0[0].merge(with: $0[1], $0[2]) },
      checksum: { $0 }
    ),
    firstOfRow(
      "merge(with:_:_:)",
      subjects: 4,
      primeOthers: false,
      { $0[0].merge(with: $0[1], $0[2], $0[3]) },
      checksum: { $0 }
    ),
    firstOfRow(
      "merge(with:_:_:_:)",
      subjects: 5,
      primeOthers: false,
      { $0[0].merge(with: $0[1], $0[2], $0[3], $0[4]) },
      checksum: { $0 }
    ),
    firstOfRow(
      "merge(with:_:_:_:_:)",
      subjects: 6,
      primeOthers: false,
      { $0[0].merge(with: $0[1], $0[2], $0[3], $0[4], $0[5]) },
      checksum: { $0 }
    ),
    firstOfRow(
      "merge(with:_:_:_:_:_:)",
      subjects: 7,
      primeOthers: false,
      { $0[0].merge(with: $0[1], $0[2], $0[3], $0[4], $0[5], $0[6]) },
      checksum: { $0 }
    ),
    firstOfRow(
      "merge(with:_:_:_:_:_:_:)",
      subjects: 8,
      primeOthers: false,
      { $0[0].merge(with: $0[1], $0[2], $0[3], $0[4], $0[5], $0[6], $0[7]) },
      checksum: { $0 }
    ),
    firstOfRow("MergeMany", subjects: 3, primeOthers: false, { Publishers.MergeMany($0) }, checksum: { $0 }),
    firstOfRow(
      "combineLatest(_:)",
      subjects: 2,
      primeOthers: true,
      { $0[0].combineLatest($0[1]) },
      checksum: { $0.0 &+ $0.1 }
    ),
    firstOfRow(
      "combineLatest(_:_:)",
      subjects: 3,
      primeOthers: true,
      { $0[0].combineLatest($0[1], $0[2]) },
      checksum: { $0.0 &+ $0.1 &+ $0.2 }
    ),
    firstOfRow(
      "combineLatest(_:_:_:)",
      subjects: 4,
      primeOthers: true,
      { $0[0].combineLatest($0[1], $0[2], $0[3]) },
      checksum: { $0.0 &+ $0.1 &+ $0.2 &+ $0.3 }
    ),
    firstOfRow(
      "combineLatest(_:) { transform }",
      subjects: 2,
      primeOthers: true,
      { $0[0].combineLatest($0[1]) { $0 &+ $1 } },
      checksum: { $0 }
    ),
  ]

  /// `n` values from a subject through `operators` on a virtual clock that moves `step` after each value.
  static func virtualTimeRow<P: Publisher>(
    _ name: String,
    step: DispatchQueue.SchedulerTimeType.Stride = .seconds(1),
    _ operators: @escaping (PassthroughSubject<Int, Never>, TestSchedulerOf<DispatchQueue>) -> P,
    checksum: @escaping (P.Output) -> Int
  ) -> Workload {
    Workload(
      name: name + " (DispatchQueue.test)",
      run: { n in
        let sum = Accumulator()
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = operators(subject, scheduler)
          .sink(receiveCompletion: { _ in sum.add(1) }, receiveValue: { sum.add(checksum($0)) })
        scheduler.advance()
        for i in 0..<n {
          subject.send(i)
          scheduler.advance(by: step)
        }
        subject.send(completion: .finished)
        scheduler.advance(by: step)
        cancellable.cancel()
        return sum.value
      }
    )
  }

  static let virtualTime: [Workload] = [
    virtualTimeRow("debounce", { $0.debounce(for: .seconds(1), scheduler: $1) }, checksum: { $0 }),
    virtualTimeRow("delay", { $0.delay(for: .seconds(1), scheduler: $1) }, checksum: { $0 }),
    virtualTimeRow("throttle latest", { $0.throttle(for: .seconds(1), scheduler: $1, latest: true) }, checksum: { $0 }),
    virtualTimeRow("throttle first", { $0.throttle(for: .seconds(1), scheduler: $1, latest: false) }, checksum: { $0 }),
    virtualTimeRow("timeout", { $0.timeout(.seconds(10), scheduler: $1) }, checksum: { $0 }),
    virtualTimeRow("measureInterval", { $0.measureInterval(using: $1) }, checksum: { _ in 1 }),
    virtualTimeRow("receive(on:)", { $0.receive(on: $1) }, checksum: { $0 }),
    virtualTimeRow("subscribe(on:)", { $0.subscribe(on: $1) }, checksum: { $0 }),
    virtualTimeRow("collect(.byTime)", { $0.collect(.byTime($1, .seconds(1))) }, checksum: { $0.count }),
    virtualTimeRow(
      "collect(.byTimeOrCount)",
      { $0.collect(.byTimeOrCount($1, .seconds(10), 2)) },
      checksum: { $0.count }
    ),
    virtualTimeRow("prefix(duration:on:)", { $0.prefix(duration: .seconds(1 << 40), on: $1) }, checksum: { $0 }),
    virtualTimeRow(
      "receive(on: eraseToAnyScheduler())",
      { $0.receive(on: $1.eraseToAnyScheduler()) },
      checksum: { $0 }
    ),
    Workload(
      name: "timerPublisher → autoconnect (DispatchQueue.test)",
      run: { n in
        let sum = Accumulator()
        let scheduler = DispatchQueue.test
        let cancellable = scheduler.timerPublisher(every: .seconds(1)).autoconnect().sink { _ in sum.add(1) }
        for _ in 0..<n { scheduler.advance(by: .seconds(1)) }
        cancellable.cancel()
        return sum.value
      }
    ),
    row("receive(on: DispatchQueue.immediate)") { $0.receive(on: DispatchQueue.immediate) },
  ]
}
