// Each workload is written once, here, and compiled twice: against Rill (RillWorkloads, where `RILL` is
// defined) and against OpenCombine (OpenCombineWorkloads, through a symlink to this file). A workload pushes `n`
// elements through a pipeline and returns a checksum, so the optimiser cannot drop the work. Sinks add to a
// pointer's pointee, not to a captured `var`, so the closure costs no exclusivity check.
import Dispatch

#if RILL
import RillExt
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A counter that sink closures add to without exclusivity checks.
final class Accumulator: @unchecked Sendable {
  let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)

  init() { pointer.initialize(to: 0) }

  deinit { pointer.deallocate() }

  @inline(__always) func add(_ value: Int) { pointer.pointee &+= value }

  var value: Int { pointer.pointee }
}

/// One workload: a name, and how to run it over `n` elements (nil when the framework lacks the operator).
public struct Workload: @unchecked Sendable {
  public let name: String
  public let run: ((Int) -> Int)?
  /// For a workload with threads of its own: starts them for `n` elements, timing each send when asked.
  ///
  /// Returns `start`, which releases the threads and returns the checksum once every send has returned, and
  /// `finish`, which ends the threads and returns each send's time in nanoseconds (none when not timed). A
  /// benchmark times `start` alone, not the making and ending of the threads.
  public var threaded: ((_ n: Int, _ timed: Bool) -> (start: () -> Int, finish: () -> [Int]))? = nil
}

public enum Workloads {
  /// Every workload, in table order.
  public static let all: [Workload] = {
    var all = [
      Workload(name: "sequence → map → filter → sink", run: sequenceMapFilter),
      Workload(name: "subject → 10 stacked maps → sink", run: tenMaps),
      Workload(name: "PassthroughSubject send, 1 sink", run: passthroughOne),
      Workload(name: "PassthroughSubject send, 10 sinks", run: passthroughTen),
      Workload(name: "CurrentValueSubject send, 1 sink", run: currentValue),
      Workload(name: "sequence → flatMap { Just } → sink", run: flatMapJust),
      Workload(name: "sink + cancel churn (per subscription)", run: churn),
    ]
    #if RILL
    all.append(Workload(name: "merge of two subjects", run: mergeTwo))
    #else
    all.append(Workload(name: "merge of two subjects", run: nil))
    #endif
    #if RILL && !RILL_ZIP
    all.append(Workload(name: "zip of two subjects (per pair)", run: nil))
    #else
    all.append(Workload(name: "zip of two subjects (per pair)", run: zipTwo))
    #endif
    #if RILL && RILL_COMBINE_LATEST
    all.append(Workload(name: "combineLatest of two subjects", run: combineLatestTwo))
    #else
    all.append(Workload(name: "combineLatest of two subjects", run: nil))
    #endif
    all += [
      Workload(name: "two threads send into one subject", run: twoThreads),
      contended(threads: 8),
      contended(threads: 32),
      Workload(name: "subject → receive(on: DispatchQueue) → sink", run: receiveOnQueue),
      Workload(name: "sequence → scan → sink", run: sequenceScan),
      Workload(name: "subject → scan → sink", run: subjectScan),
      Workload(name: "subject → reduce → sink", run: subjectReduce),
      Workload(name: "sequence → map → erase → filter → erase → sink", run: erasedChain),
      Workload(name: "subject → 20 mixed operators → sink", run: twentyMixed),
    ]
    all += debugging
    // RillExt's operators and subjects, which OpenCombine lacks: Rill-only, so their OpenCombine column is n/a, as
    // for merge. The closest OpenCombine constructions (multicast with a hand-written replay) would measure
    // different code, not the same workload.
    #if RILL
    all += [
      Workload(name: "subject → share(replay: 1) → 1 sink (RillExt)", run: shareReplayOne),
      Workload(name: "subject → share(replay: 1) → 10 sinks (RillExt)", run: shareReplayTen),
      Workload(name: "subject → withLatestFrom(subject) → sink (RillExt)", run: withLatestFrom),
      Workload(name: "ReplaySubject(bufferSize: 1) send, 1 sink (RillExt)", run: replayOne),
      Workload(name: "ReplaySubject(bufferSize: 1) send, 10 sinks (RillExt)", run: replayTen),
    ]
    #else
    all += [
      Workload(name: "subject → share(replay: 1) → 1 sink (RillExt)", run: nil),
      Workload(name: "subject → share(replay: 1) → 10 sinks (RillExt)", run: nil),
      Workload(name: "subject → withLatestFrom(subject) → sink (RillExt)", run: nil),
      Workload(name: "ReplaySubject(bufferSize: 1) send, 1 sink (RillExt)", run: nil),
      Workload(name: "ReplaySubject(bufferSize: 1) send, 10 sinks (RillExt)", run: nil),
    ]
    #endif
    return all
  }()

  static func sequenceMapFilter(_ n: Int) -> Int {
    let sum = Accumulator()
    _ = (0..<n).publisher.map { $0 &* 3 }.filter { $0 & 1 == 0 }.sink { sum.add($0) }
    return sum.value
  }

  static func tenMaps(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.map { $0 &+ 1 }.map { $0 &+ 2 }.map { $0 &+ 3 }.map { $0 &+ 4 }.map { $0 &+ 5 }
      .map { $0 &+ 6 }.map { $0 &+ 7 }.map { $0 &+ 8 }.map { $0 &+ 9 }.map { $0 &+ 10 }
      .sink { sum.add($0) }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
    return sum.value
  }

  static func passthroughOne(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.sink { sum.add($0) }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
    return sum.value
  }

  static func passthroughTen(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let cancellables = (0..<10).map { _ in subject.sink { sum.add($0) } }
    for i in 0..<n { subject.send(i) }
    for cancellable in cancellables { cancellable.cancel() }
    return sum.value
  }

  static func currentValue(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = CurrentValueSubject<Int, Never>(0)
    let cancellable = subject.sink { sum.add($0) }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
    return sum.value
  }

  static func churn(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    for _ in 0..<n {
      let cancellable = subject.sink { sum.add($0) }
      cancellable.cancel()
    }
    return sum.value &+ n
  }

  static func twoThreads(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.sink { sum.add($0) }
    let half = n / 2
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      for i in 0..<half { subject.send(i) }
    }
    cancellable.cancel()
    return sum.value
  }

  /// `threads` threads send into one subject with one sink: more threads than cores, all fighting for the
  /// subject's and the sink's locks, so a thread is often preempted while it holds one.
  static func contended(threads: Int) -> Workload {
    Workload(
      name: "\(threads) threads send into one subject",
      run: { n in
        let sends = ContendedSends(threads: threads, sends: n, timed: false)
        defer { _ = sends.finish() }
        return sends.start()
      },
      threaded: { n, timed in
        let sends = ContendedSends(threads: threads, sends: n, timed: timed)
        return (sends.start, sends.finish)
      }
    )
  }

  static func sequenceScan(_ n: Int) -> Int {
    let sum = Accumulator()
    _ = (0..<n).publisher.scan(0) { $0 &+ $1 }.sink { sum.add($0) }
    return sum.value
  }

  static func subjectScan(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.scan(0) { $0 &+ $1 }.sink { sum.add($0) }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
    return sum.value
  }

  static func erasedChain(_ n: Int) -> Int {
    let sum = Accumulator()
    _ = (0..<n).publisher.map { $0 &* 3 }.eraseToAnyPublisher().filter { $0 & 1 == 0 }.eraseToAnyPublisher()
      .sink { sum.add($0) }
    return sum.value
  }

  static func twentyMixed(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let first: AnyPublisher<Int, Never> =
      subject
      .map { (v: Int) in v &+ 1 }.filter { (v: Int) in v >= 0 }.scan(0) { (a: Int, v: Int) in a &+ v }
      .map { (v: Int) in v & 0xFFFF }.filter { (v: Int) in v != -1 }
      .eraseToAnyPublisher()
    let second: AnyPublisher<Int, Never> =
      first
      .map { (v: Int) in v &* 3 }.filter { (v: Int) in v >= 0 }.scan(0) { (a: Int, v: Int) in a ^ v }
      .map { (v: Int) in v &+ 7 }.filter { (v: Int) in v != -2 }
      .eraseToAnyPublisher()
    let third: AnyPublisher<Int, Never> =
      second
      .map { (v: Int) in v >> 1 }.filter { (v: Int) in v != -3 }.scan(1) { (a: Int, v: Int) in a &+ v }
      .map { (v: Int) in v & 0xFFFFF }.filter { (v: Int) in v != -4 }
      .eraseToAnyPublisher()
    let cancellable = third.map { (v: Int) in v &+ 2 }.sink { sum.add($0) }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
    return sum.value
  }

  static func flatMapJust(_ n: Int) -> Int {
    let sum = Accumulator()
    _ = (0..<n).publisher.flatMap { Just($0) }.sink { sum.add($0) }
    return sum.value
  }

  #if RILL
  static func mergeTwo(_ n: Int) -> Int {
    let sum = Accumulator()
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let cancellable = first.merge(with: second).sink { sum.add($0) }
    for i in 0..<n / 2 {
      first.send(i)
      second.send(i)
    }
    cancellable.cancel()
    return sum.value
  }
  #endif

  #if !RILL || RILL_ZIP
  static func zipTwo(_ n: Int) -> Int {
    let sum = Accumulator()
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let cancellable = first.zip(second).sink { sum.add($0.0 &+ $0.1) }
    for i in 0..<n {
      first.send(i)
      second.send(i)
    }
    cancellable.cancel()
    return sum.value
  }
  #endif

  #if RILL && RILL_COMBINE_LATEST
  static func combineLatestTwo(_ n: Int) -> Int {
    let sum = Accumulator()
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let cancellable = first.combineLatest(second).sink { sum.add($0.0 &+ $0.1) }
    for i in 0..<n / 2 {
      first.send(i)
      second.send(i)
    }
    cancellable.cancel()
    return sum.value
  }
  #endif

  #if RILL
  static func shareReplayOne(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.share(replay: 1).sink { sum.add($0) }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
    return sum.value
  }

  static func shareReplayTen(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.share(replay: 1)
    let cancellables = (0..<10).map { _ in shared.sink { sum.add($0) } }
    for i in 0..<n { subject.send(i) }
    for cancellable in cancellables { cancellable.cancel() }
    return sum.value
  }

  /// Values of the driving subject per update of the other one.
  static let latestUpdateInterval = 100

  /// `n` values from the driving subject, each paired with the latest of a second subject, which gets a new value
  /// every `latestUpdateInterval` values (those sends count in the time, not in the elements).
  static func withLatestFrom(_ n: Int) -> Int {
    let sum = Accumulator()
    let driver = PassthroughSubject<Int, Never>()
    let latest = PassthroughSubject<Int, Never>()
    let cancellable = driver.withLatestFrom(latest) { $0 &+ $1 }.sink { sum.add($0) }
    latest.send(0)
    for i in 0..<n {
      if i % latestUpdateInterval == 0 { latest.send(i) }
      driver.send(i)
    }
    cancellable.cancel()
    return sum.value
  }

  static func replayOne(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = ReplaySubject<Int, Never>(bufferSize: 1)
    let cancellable = subject.sink { sum.add($0) }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
    return sum.value
  }

  static func replayTen(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = ReplaySubject<Int, Never>(bufferSize: 1)
    let cancellables = (0..<10).map { _ in subject.sink { sum.add($0) } }
    for i in 0..<n { subject.send(i) }
    for cancellable in cancellables { cancellable.cancel() }
    return sum.value
  }
  #endif

  static let queue = DispatchQueue(label: "rill.benchmarks.receive-on")

  static func receiveOnQueue(_ n: Int) -> Int {
    let sum = Accumulator()
    let done = DispatchSemaphore(value: 0)
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.receive(on: scheduler(for: queue))
      .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { sum.add($0) })
    for i in 0..<n { subject.send(i) }
    subject.send(completion: .finished)
    done.wait()
    cancellable.cancel()
    return sum.value
  }

  static func subjectReduce(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.reduce(0) { $0 &+ $1 }.sink { sum.add($0) }
    for i in 0..<n { subject.send(i) }
    subject.send(completion: .finished)
    cancellable.cancel()
    return sum.value
  }
}

/// Threads that send `n` values in all into one subject with one sink.
///
/// The threads are made and parked when it is created; `start()` releases them all and returns when every send
/// has returned, and `finish()` lets them exit and joins them, so that neither making nor ending a thread falls
/// inside the time of `start()`.
final class ContendedSends: @unchecked Sendable {
  private let sum = Accumulator()
  private let subject = PassthroughSubject<Int, Never>()
  private var cancellable: AnyCancellable?
  private let share: Int
  private let timed: Bool
  private let ready = DispatchSemaphore(value: 0)
  private let gate = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)
  private let exit = DispatchSemaphore(value: 0)
  private var threads: [pthread_t] = []
  /// Each thread's send times in nanoseconds, written by that thread only.
  private let latencies: [UnsafeMutableBufferPointer<Int>]

  init(threads count: Int, sends n: Int, timed: Bool) {
    share = n / count
    self.timed = timed
    latencies = (0..<count).map { [share] _ in .allocate(capacity: timed ? share : 0) }
    let sum = self.sum
    cancellable = subject.sink { sum.add($0) }
    for index in 0..<count {
      let context = Unmanaged.passRetained(ThreadContext(sends: self, index: index)).toOpaque()
      var thread = pthread_t()
      precondition(pthread_create(&thread, nil, { ThreadContext.run($0) }, context) == 0)
      threads.append(thread)
    }
    for _ in 0..<count { ready.wait() }
  }

  deinit {
    for buffer in latencies { buffer.deallocate() }
  }

  func start() -> Int {
    for _ in threads { gate.signal() }
    for _ in threads { done.wait() }
    cancellable?.cancel()
    return sum.value
  }

  /// Ends the threads and returns every send's time in nanoseconds (none when not timed).
  func finish() -> [Int] {
    for _ in threads { exit.signal() }
    for thread in threads { pthread_join(thread, nil) }
    return latencies.flatMap { Array($0) }
  }

  fileprivate func send(index: Int) {
    ready.signal()
    gate.wait()
    if timed {
      let times = latencies[index]
      for i in 0..<share {
        let before = DispatchTime.now().uptimeNanoseconds
        subject.send(i)
        times[i] = Int(DispatchTime.now().uptimeNanoseconds &- before)
      }
    } else {
      for i in 0..<share { subject.send(i) }
    }
    done.signal()
    exit.wait()
  }
}

/// What a sending thread is started with.
private final class ThreadContext {
  let sends: ContendedSends
  let index: Int

  init(sends: ContendedSends, index: Int) {
    self.sends = sends
    self.index = index
  }

  static func run(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let context = Unmanaged<ThreadContext>.fromOpaque(context!).takeRetainedValue()
    context.sends.send(index: context.index)
    return nil
  }
}
