// One engine, compiled twice: against Rill (with RILL defined) and against OpenCombine. It runs a `Case` and
// returns its trace: every event the recording subscriber receives and every request, cancel and subscription
// the scripted sources see, in the order they happen.
import DifferentialModel

#if RILL
import RillCore
#else
import OpenCombine
#endif

/// The coded error that sources fail with.
enum DiffError: Error, Equatable {
  case code(Int)
}

/// The trace of one run; everything runs on one thread.
final class Trace {
  var lines: [String] = []
}

private func format(_ demand: Subscribers.Demand) -> String {
  demand == .unlimited ? "inf" : "\(demand.max ?? -1)"
}

/// A subject-like source driven by the script: it sends a value to each subscription that has demand for it and
/// drops it for the others, sends completions to all, and completes late subscribers at once.
final class ScriptedSource: Publisher {
  typealias Output = Int
  typealias Failure = DiffError

  final class Link: Subscription {
    let id: Int
    weak var source: ScriptedSource?
    var downstream: AnySubscriber<Int, DiffError>?
    var demand = Subscribers.Demand.none

    init(id: Int, source: ScriptedSource, downstream: AnySubscriber<Int, DiffError>) {
      self.id = id
      self.source = source
      self.downstream = downstream
    }

    func request(_ demand: Subscribers.Demand) {
      guard let source else { return }
      source.trace.lines.append("\(source.name)#\(id) request \(format(demand))")
      if downstream != nil { self.demand += demand }
    }

    func cancel() {
      guard let source else { return }
      source.trace.lines.append("\(source.name)#\(id) cancel")
      downstream = nil
      source.links.removeAll { $0 === self }
    }
  }

  let name: String
  let trace: Trace
  var links: [Link] = []
  var completion: Subscribers.Completion<DiffError>?
  var count = 0

  init(name: String, trace: Trace) {
    self.name = name
    self.trace = trace
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == DiffError {
    count += 1
    trace.lines.append("\(name)#\(count) subscribed")
    let link = Link(id: count, source: self, downstream: AnySubscriber(subscriber))
    if let completion {
      subscriber.receive(subscription: link)
      link.downstream = nil
      subscriber.receive(completion: completion)
      return
    }
    links.append(link)
    subscriber.receive(subscription: link)
  }

  func send(_ value: Int) {
    guard completion == nil else { return }
    for link in links {
      guard let downstream = link.downstream, link.demand > 0 else { continue }
      link.demand -= 1
      // Demand returned from `receive(_:)` is the same as demand requested: trace both alike.
      let more = downstream.receive(value)
      if more > 0, link.downstream != nil {
        trace.lines.append("\(name)#\(link.id) request \(format(more))")
        link.demand += more
      }
    }
  }

  func send(completion: Subscribers.Completion<DiffError>) {
    guard self.completion == nil else { return }
    self.completion = completion
    let current = links
    links = []
    for link in current {
      let downstream = link.downstream
      link.downstream = nil
      downstream?.receive(completion: completion)
    }
  }
}

/// The subscriber at the end of the pipeline: records events, requests what the script says.
final class ScriptedRecorder: Subscriber {
  typealias Input = Int
  typealias Failure = DiffError

  let trace: Trace
  let initialDemand: Subscribers.Demand
  let returned: [Int]
  var received = 0
  var subscription: (any Subscription)?

  init(trace: Trace, initialDemand: Subscribers.Demand, returned: [Int]) {
    self.trace = trace
    self.initialDemand = initialDemand
    self.returned = returned
  }

  func receive(subscription: any Subscription) {
    trace.lines.append("subscription")
    self.subscription = subscription
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    let more = returned[received % returned.count]
    received += 1
    trace.lines.append("value \(input) -> \(more)")
    return .max(more)
  }

  func receive(completion: Subscribers.Completion<DiffError>) {
    switch completion {
    case .finished: trace.lines.append("finished")
    case .failure(.code(let code)): trace.lines.append("failure \(code)")
    }
  }
}

/// Turns a publisher that never fails into one that can, without any subscription of its own.
struct PromoteFailure<Upstream: Publisher>: Publisher where Upstream.Failure == Never {
  typealias Output = Upstream.Output
  typealias Failure = DiffError

  let upstream: Upstream

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == DiffError {
    upstream.subscribe(
      AnySubscriber<Output, Never>(
        receiveSubscription: { subscriber.receive(subscription: $0) },
        receiveValue: { subscriber.receive($0) },
        receiveCompletion: { _ in subscriber.receive(completion: .finished) }
      )
    )
  }
}

typealias Stage = AnyPublisher<Int, DiffError>

private func sequence(_ values: [Int]) -> Publishers.Sequence<[Int], DiffError> {
  Publishers.Sequence(sequence: values)
}

private func absurd(_ never: Never) -> Int {}

private func hash(_ values: [Int]) -> Int { values.reduce(7) { $0 &* 31 &+ $1 } }

/// What the `try` operators' closures do first: throw `.code(20 + bad)` on the value `bad`.
private func check(_ value: Int, _ bad: Int) throws {
  if value == bad { throw DiffError.code(20 + bad) }
}

private func coded(_ error: any Error) -> DiffError { error as? DiffError ?? .code(-1) }

/// Applies one operator, or returns `nil` when this library lacks it.
private func applyShared(_ op: Op, to upstream: Stage, b: ScriptedSource) -> Stage? {
  switch op {
  case .map(let k): return upstream.map { $0 &* 3 &+ k }.eraseToAnyPublisher()
  case .filter(let m): return upstream.filter { $0 % m != 0 }.eraseToAnyPublisher()
  case .scan: return upstream.scan(0) { $0 &+ $1 }.eraseToAnyPublisher()
  case .collect: return upstream.collect().map(hash).eraseToAnyPublisher()
  case .collectCount(let n): return upstream.collect(n).map(hash).eraseToAnyPublisher()
  case .reduce: return upstream.reduce(0) { $0 &+ $1 }.eraseToAnyPublisher()
  case .count: return upstream.count().eraseToAnyPublisher()
  case .min: return upstream.min().eraseToAnyPublisher()
  case .max: return upstream.max().eraseToAnyPublisher()
  case .contains(let v): return upstream.contains(v).map { $0 ? 1 : 0 }.eraseToAnyPublisher()
  case .allSatisfy(let m): return upstream.allSatisfy { $0 % m != 0 }.map { $0 ? 1 : 0 }.eraseToAnyPublisher()
  case .catchSequence(let v): return upstream.catch { _ in sequence([v, v + 1]) }.eraseToAnyPublisher()
  case .retry(let n): return upstream.retry(n).eraseToAnyPublisher()
  case .flatMapSequence(let max):
    return upstream.flatMap(maxPublishers: max.map { .max($0) } ?? .unlimited) { sequence([$0, $0 + 100]) }
      .eraseToAnyPublisher()
  case .flatMapSourceB(let max):
    return upstream.flatMap(maxPublishers: max.map { .max($0) } ?? .unlimited) { _ in b }.eraseToAnyPublisher()
  case .flatMapJust(let max):
    return upstream.flatMap(maxPublishers: max.map { .max($0) } ?? .unlimited) { Just($0 &* 10) }.eraseToAnyPublisher()
  case .flatMapRangeOfJusts:
    return upstream.flatMap {
      Publishers.Sequence<Range<Int>, DiffError>(sequence: $0..<($0 &+ 2)).flatMap { Just($0 &* 10) }
    }
    .eraseToAnyPublisher()
  case .switchToLatestSequence:
    return upstream.map { sequence([$0, $0 + 100]) }.switchToLatest().eraseToAnyPublisher()
  case .compactMap(let m): return upstream.compactMap { $0 % m == 0 ? nil : $0 + 1 }.eraseToAnyPublisher()
  case .removeDuplicates: return upstream.removeDuplicates { $0 / 2 == $1 / 2 }.eraseToAnyPublisher()
  case .prefix(let n): return upstream.prefix(n).eraseToAnyPublisher()
  case .dropFirst(let n): return upstream.dropFirst(n).eraseToAnyPublisher()
  case .first: return upstream.first().eraseToAnyPublisher()
  case .last: return upstream.last().eraseToAnyPublisher()
  case .replaceErrorSetFailure(let v):
    return PromoteFailure(upstream: upstream.replaceError(with: v)).eraseToAnyPublisher()
  case .tryMapFailing(let m):
    return upstream.tryMap { value -> Int in
      if value % m == 0 { throw DiffError.code(10 + m) }
      return value
    }
    .mapError { $0 as? DiffError ?? .code(-1) }
    .eraseToAnyPublisher()
  case .prefixWhile(let v): return upstream.prefix { $0 != v }.eraseToAnyPublisher()
  case .dropWhile(let v): return upstream.drop { $0 != v }.eraseToAnyPublisher()
  case .ignoreOutput: return upstream.ignoreOutput().map(absurd).eraseToAnyPublisher()
  case .replaceEmpty(let v): return upstream.replaceEmpty(with: v).eraseToAnyPublisher()
  case .outputAt(let n): return upstream.output(at: n).eraseToAnyPublisher()
  case .buffer(let size, let byRequest, let dropNewest):
    return upstream.buffer(
      size: size,
      prefetch: byRequest ? .byRequest : .keepFull,
      whenFull: dropNewest ? .dropNewest : .dropOldest
    )
    .eraseToAnyPublisher()
  case .prefixUntilOutputB: return upstream.prefix(untilOutputFrom: b).eraseToAnyPublisher()
  case .dropUntilOutputB: return upstream.drop(untilOutputFrom: b).eraseToAnyPublisher()
  case .zipB: return upstream.zip(b).map { $0 &+ $1 }.eraseToAnyPublisher()
  case .appendB: return upstream.append(b).eraseToAnyPublisher()
  case .prependSequence(let v): return upstream.prepend(v, v + 1).eraseToAnyPublisher()
  case .catchB: return upstream.catch { _ in b }.eraseToAnyPublisher()
  case .switchToLatestB: return upstream.map { _ in b }.switchToLatest().eraseToAnyPublisher()
  case .share: return upstream.share().eraseToAnyPublisher()
  case .firstWhere(let m): return upstream.first { $0 % m == 0 }.eraseToAnyPublisher()
  case .lastWhere(let m): return upstream.last { $0 % m == 0 }.eraseToAnyPublisher()
  default:
    return applyTrying(op, to: upstream) ?? applyLanding(op, to: upstream, b: b)
  }
}

/// The `try` operators: each closure throws on one value, and the error is mapped back to `DiffError`.
private func applyTrying(_ op: Op, to upstream: Stage) -> Stage? {
  switch op {
  case .tryFilter(let v):
    return upstream.tryFilter {
      try check($0, v)
      return $0 % 2 == 0
    }
    .mapError(coded).eraseToAnyPublisher()
  case .tryCompactMap(let v):
    return upstream.tryCompactMap {
      try check($0, v)
      return $0 % 3 == 0 ? nil : $0
    }
    .mapError(coded).eraseToAnyPublisher()
  case .tryScan(let v):
    return upstream.tryScan(0) {
      try check($1, v)
      return $0 &+ $1
    }
    .mapError(coded).eraseToAnyPublisher()
  case .tryRemoveDuplicates(let v):
    return upstream.tryRemoveDuplicates {
      try check($0, v)
      try check($1, v)
      return $0 == $1
    }
    .mapError(coded).eraseToAnyPublisher()
  case .tryDropWhile(let v):
    return upstream.tryDrop {
      try check($0, v)
      return $0 < 5
    }
    .mapError(coded).eraseToAnyPublisher()
  case .tryPrefixWhile(let v):
    return upstream.tryPrefix {
      try check($0, v)
      return $0 < 8
    }
    .mapError(coded).eraseToAnyPublisher()
  case .tryFirstWhere(let v):
    return upstream.tryFirst {
      try check($0, v)
      return $0 % 4 == 3
    }
    .mapError(coded).eraseToAnyPublisher()
  case .tryLastWhere(let v):
    return upstream.tryLast {
      try check($0, v)
      return $0 % 4 == 3
    }
    .mapError(coded).eraseToAnyPublisher()
  case .tryReduce(let v):
    return upstream.tryReduce(0) {
      try check($1, v)
      return $0 &+ $1
    }
    .mapError(coded).eraseToAnyPublisher()
  case .tryMin(let v):
    return upstream.tryMin {
      try check($0, v)
      try check($1, v)
      return $0 < $1
    }
    .mapError(coded).eraseToAnyPublisher()
  case .tryMax(let v):
    return upstream.tryMax {
      try check($0, v)
      try check($1, v)
      return $0 < $1
    }
    .mapError(coded).eraseToAnyPublisher()
  case .tryContains(let v):
    return upstream.tryContains {
      try check($0, v)
      return $0 == 7
    }
    .map { $0 ? 1 : 0 }.mapError(coded).eraseToAnyPublisher()
  case .tryAllSatisfy(let v):
    return upstream.tryAllSatisfy {
      try check($0, v)
      return $0 < 9
    }
    .map { $0 ? 1 : 0 }.mapError(coded).eraseToAnyPublisher()
  default:
    return nil
  }
}

/// Operators missing from one library: `merge` (OpenCombine 0.14 has no `Publishers.Merge`).
private func applyLanding(_ op: Op, to upstream: Stage, b: ScriptedSource) -> Stage? {
  #if RILL
  switch op {
  case .mergeB: return upstream.merge(with: b).eraseToAnyPublisher()
  default: return nil
  }
  #else
  return nil
  #endif
}

/// Runs `testCase`; returns its trace, or `nil` when this library lacks one of its operators.
public func run(_ testCase: Case) -> [String]? {
  let trace = Trace()
  let a = ScriptedSource(name: "A", trace: trace)
  let b = ScriptedSource(name: "B", trace: trace)
  var stage = a.eraseToAnyPublisher()
  for op in testCase.ops {
    guard let next = applyShared(op, to: stage, b: b) else { return nil }
    stage = next
  }
  let recorder = ScriptedRecorder(
    trace: trace,
    initialDemand: testCase.initialDemand.map { .max($0) } ?? .unlimited,
    returned: testCase.returnedDemand
  )
  stage.subscribe(recorder)
  for step in testCase.steps {
    trace.lines.append("> \(step)")
    switch step {
    case .send(let name, let value): (name == .a ? a : b).send(value)
    case .finish(let name): (name == .a ? a : b).send(completion: .finished)
    case .fail(let name, let code): (name == .a ? a : b).send(completion: .failure(.code(code)))
    case .request(let n):
      if n != 0 { recorder.subscription?.request(n.map { .max($0) } ?? .unlimited) }
    case .cancel: recorder.subscription?.cancel()
    }
  }
  // Tear the pipeline down as an `AnyCancellable` going out of scope would, so that leak checks see only real
  // leaks; what happens then is not part of the trace.
  let lines = trace.lines
  recorder.subscription?.cancel()
  recorder.subscription = nil
  return lines
}
