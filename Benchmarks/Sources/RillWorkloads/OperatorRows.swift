// One row per operator and publisher: what a value costs on its way through each, in instructions, runtime
// metadata look-ups and allocations (Benchmarks/rows.py counts them under callgrind). Like Workloads.swift, these
// files are compiled against Rill and, through symlinks, against OpenCombine; a row OpenCombine lacks has no `run`
// there (n/a). Unless a row's name says "per subscription", `run(n)` sends `n` values and the cost is per value.
import Dispatch

/// The rows, in groups, in table order.
public enum OperatorRows {
  /// A titled group of rows, one table section.
  public struct Group: @unchecked Sendable {
    public let title: String
    public let rows: [Workload]
  }

  /// Every group, in table order.
  public static let groups: [Group] = [
    Group(title: "Publishers and subjects", rows: publishers),
    Group(title: "Subscribers and type erasure", rows: subscribers),
    Group(title: "Transforming and filtering", rows: transforming),
    Group(title: "Reducing, math and matching", rows: reducing),
    Group(title: "Sequence operators", rows: sequenceOperators),
    Group(title: "Combining and flattening", rows: combining),
    Group(title: "Error handling", rows: errorHandling),
    Group(title: "Sharing, buffering and debugging", rows: sharing),
    Group(title: "Time, on ImmediateScheduler", rows: immediateTime),
    Group(title: "Time, on a virtual clock (RillExt's DispatchQueue.test)", rows: virtualTime),
    Group(title: "Schedulers, Foundation and async", rows: foundation),
    Group(title: "RillExt", rows: rillExt),
  ]

  /// Every row, in table order.
  public static var all: [Workload] { groups.flatMap(\.rows) }
}

/// The failure of the rows that need one.
struct RowError: Error {}

/// A value with key paths for `map(_:_:_:)`.
struct Point {
  var a: Int
  var b: Int
  var c: Int
}

/// A print stream that drops what it is given, so `print` costs its formatting and nothing more.
struct NullStream: TextOutputStream {
  mutating func write(_ string: String) {}
}

/// The object of the `assign` rows: a property to set and a `@Published` one.
final class Target: ObservableObject {
  var value = 0
  @Published var published = 0
}

extension OperatorRows {
  /// A row of `n` values sent into a `PassthroughSubject` with failure `F`.
  ///
  /// The values go through `operators` into a sink that adds up `checksum` of each; then the subject finishes.
  /// Per value sent.
  static func row<F: Error, P: Publisher>(
    _ name: String,
    failure: F.Type,
    _ operators: @escaping (PassthroughSubject<Int, F>) -> P,
    checksum: @escaping (P.Output) -> Int
  ) -> Workload {
    Workload(
      name: name,
      run: { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, F>()
        let cancellable = operators(subject)
          .sink(receiveCompletion: { _ in sum.add(1) }, receiveValue: { sum.add(checksum($0)) })
        for i in 0..<n { subject.send(i) }
        subject.send(completion: .finished)
        cancellable.cancel()
        return sum.value
      }
    )
  }

  /// A row from a `PassthroughSubject<Int, Never>`.
  static func row<P: Publisher>(
    _ name: String,
    _ operators: @escaping (PassthroughSubject<Int, Never>) -> P,
    checksum: @escaping (P.Output) -> Int
  ) -> Workload {
    row(name, failure: Never.self, operators, checksum: checksum)
  }

  /// A row from a `PassthroughSubject<Int, Never>` whose pipeline ends in integers.
  static func row<P: Publisher>(
    _ name: String,
    _ operators: @escaping (PassthroughSubject<Int, Never>) -> P
  ) -> Workload where P.Output == Int {
    row(name, failure: Never.self, operators, checksum: { $0 })
  }

  /// A row from a `PassthroughSubject<Int, RowError>` (which never fails) whose pipeline ends in integers.
  static func failingRow<P: Publisher>(
    _ name: String,
    _ operators: @escaping (PassthroughSubject<Int, RowError>) -> P
  ) -> Workload where P.Output == Int {
    row(name, failure: RowError.self, operators, checksum: { $0 })
  }

  /// A row of `n` subscriptions, each to the publisher `make(i)` makes.
  ///
  /// Each is a sink kept until the publisher completes (or cancelled right after subscribing when it does not).
  /// Per subscription.
  static func perSubscription<P: Publisher>(_ name: String, _ make: @escaping (Int) -> P) -> Workload
  where P.Output == Int {
    Workload(
      name: name + " (per subscription)",
      run: { n in
        let sum = Accumulator()
        for i in 0..<n {
          make(i).sink(receiveCompletion: { _ in sum.add(1) }, receiveValue: { sum.add($0) }).cancel()
        }
        return sum.value
      }
    )
  }

  /// A row the framework does not have.
  static func missing(_ name: String) -> Workload {
    Workload(name: name, run: nil)
  }

  /// Sums what `publisher` sends into `sum`, keeping the subscription in the returned cancellable.
  static func sink<P: Publisher>(_ publisher: P, into sum: Accumulator) -> AnyCancellable where P.Output == Int {
    publisher.sink(receiveCompletion: { _ in sum.add(1) }, receiveValue: { sum.add($0) })
  }

  /// Runs `body` in a task and waits for its result (for the rows that consume `values`).
  static func blocking(_ body: @escaping @Sendable () async -> Int) -> Int {
    let done = DispatchSemaphore(value: 0)
    let result = Accumulator()
    Task {
      result.add(await body())
      done.signal()
    }
    done.wait()
    return result.value
  }
}
