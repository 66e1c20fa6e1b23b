// Rows: time operators on ImmediateScheduler, the Foundation schedulers and publishers, the JSON coders and `values`
// (see OperatorRows.swift). The same operators on a virtual clock are in OperatorRows+RillOnly.swift: OpenCombine has
// no virtual-time scheduler outside its tests.
import Dispatch
import Foundation

/// A `TopLevelEncoder` that encodes nothing, so the `encode` row measures the operator and not Foundation's coder.
struct CountingEncoder: TopLevelEncoder {
  func encode<T: Encodable>(_ value: T) throws -> Int { 1 }
}

/// A `TopLevelDecoder` that hands its input back, so the `decode` row measures the operator alone.
struct IdentityDecoder: TopLevelDecoder {
  func decode<T: Decodable>(_ type: T.Type, from input: Int) throws -> T { input as! T }
}

extension OperatorRows {
  static let immediateTime: [Workload] = [
    row("debounce (ImmediateScheduler)") { $0.debounce(for: .seconds(1), scheduler: ImmediateScheduler.shared) },
    row("delay (ImmediateScheduler)") { $0.delay(for: .seconds(1), scheduler: ImmediateScheduler.shared) },
    row("throttle latest (ImmediateScheduler)") {
      $0.throttle(for: .seconds(1), scheduler: ImmediateScheduler.shared, latest: true)
    },
    row("throttle first (ImmediateScheduler)") {
      $0.throttle(for: .seconds(1), scheduler: ImmediateScheduler.shared, latest: false)
    },
    row(
      "measureInterval (ImmediateScheduler)",
      { $0.measureInterval(using: ImmediateScheduler.shared) },
      checksum: { _ in 1 }
    ),
    row("receive(on: ImmediateScheduler)") { $0.receive(on: ImmediateScheduler.shared) },
    row("subscribe(on: ImmediateScheduler)") { $0.subscribe(on: ImmediateScheduler.shared) },
  ]

  /// A serial queue for the dispatch rows.
  static let serialQueue = DispatchQueue(label: "rill.benchmarks.rows")

  /// `n` values from a subject through `operators`, which hand them to another thread; waits for the completion.
  static func asynchronousRow<P: Publisher>(
    _ name: String,
    _ operators: @escaping (PassthroughSubject<Int, Never>) -> P
  ) -> Workload where P.Output == Int, P.Failure == Never {
    Workload(
      name: name,
      run: { n in
        let sum = Accumulator()
        let done = DispatchSemaphore(value: 0)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = operators(subject)
          .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { sum.add($0) })
        for i in 0..<n { subject.send(i) }
        subject.send(completion: .finished)
        done.wait()
        cancellable.cancel()
        return sum.value
      }
    )
  }

  /// Runs the current run loop until `sum` has counted `n` values.
  static func spin(until n: Int, _ sum: Accumulator) {
    while sum.value < n { _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 1)) }
  }

  static let foundation: [Workload] = [
    asynchronousRow("receive(on: DispatchQueue)") { $0.receive(on: scheduler(for: serialQueue)) },
    Workload(
      name: "subscribe(on: DispatchQueue)",
      run: { n in
        let sum = Accumulator()
        let subscribed = DispatchSemaphore(value: 0)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = sink(
          subject.handleEvents(receiveSubscription: { _ in subscribed.signal() })
            .subscribe(on: scheduler(for: serialQueue)),
          into: sum
        )
        subscribed.wait()
        serialQueue.sync {}
        for i in 0..<n { subject.send(i) }
        cancellable.cancel()
        return sum.value
      }
    ),
    asynchronousRow("receive(on: OperationQueue)") {
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 1
      return $0.receive(on: operationQueueScheduler(queue))
    },
    Workload(
      name: "receive(on: RunLoop)",
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.receive(on: runLoopScheduler()).sink { _ in sum.add(1) }
        for i in 0..<n { subject.send(i) }
        spin(until: n, sum)
        cancellable.cancel()
        return sum.value
      }
    ),
    Workload(
      name: "Timer.publish → autoconnect",
      run: { n in
        let sum = Accumulator()
        let cancellable = timer(every: 0.000_1).sink { _ in sum.add(1) }
        spin(until: n, sum)
        cancellable.cancel()
        return sum.value
      }
    ),
    Workload(
      name: "NotificationCenter.publisher",
      run: { n in
        let sum = Accumulator()
        let name = Notification.Name("rill.benchmarks.rows")
        let center = NotificationCenter()
        let cancellable = notifications(named: name, from: center).sink { _ in sum.add(1) }
        for _ in 0..<n { center.post(name: name, object: nil) }
        cancellable.cancel()
        return sum.value
      }
    ),
    row("encode (JSONEncoder)", { $0.encode(encoder: JSONEncoder()) }, checksum: { $0.count }),
    row("decode (JSONDecoder)") { $0.map { _ in Data("1".utf8) }.decode(type: Int.self, decoder: JSONDecoder()) },
    row("encode (an empty TopLevelEncoder)") { $0.encode(encoder: CountingEncoder()) },
    row("decode (an identity TopLevelDecoder)") { $0.decode(type: Int.self, decoder: IdentityDecoder()) },
    Workload(
      name: "values (AsyncPublisher)",
      run: { n in
        blocking {
          var sum = 0
          for await value in (0..<n).publisher.values { sum &+= value }
          return sum
        }
      }
    ),
    Workload(
      name: "values (AsyncThrowingPublisher)",
      run: { n in
        blocking {
          var sum = 0
          do {
            for try await value in (0..<n).publisher.setFailureType(to: RowError.self).values { sum &+= value }
          } catch {}
          return sum
        }
      }
    ),
    Workload(
      name: "buffer(64, .byRequest, .dropOldest) → values",
      run: { n in
        blocking {
          var sum = 0
          let buffered = (0..<n).publisher.buffer(size: 64, prefetch: .byRequest, whenFull: .dropOldest)
          for await value in buffered.values { sum &+= value }
          return sum
        }
      }
    ),
    Workload(
      // The buffer holds every value, so each `next()` requests one through `prefix(untilOutputFrom:)` and `buffer`,
      // which deliver it before the task suspends: the request path of the server-shaped load, once per value.
      name: "buffer(n, .byRequest) → prefix(untilOutputFrom:) → values (a request per value)",
      run: { n in
        blocking {
          var sum = 0
          let stop = PassthroughSubject<Void, Never>()
          let buffered = (0..<n).publisher.buffer(size: n, prefetch: .byRequest, whenFull: .dropOldest)
            .prefix(untilOutputFrom: stop)
          for await value in buffered.values { sum &+= value }
          return sum
        }
      }
    ),
    Workload(
      name: "Future.value (per subscription)",
      run: { n in
        blocking {
          var sum = 0
          for i in 0..<n { sum &+= await Future<Int, Never> { $0(.success(i)) }.value }
          return sum
        }
      }
    ),
  ]
}
