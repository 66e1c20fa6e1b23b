/// SplitMix64: a tiny seeded generator, so a case is reproduced from its seed alone, on any platform.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `range`.
  public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  /// `true` with probability `percent` / 100.
  public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
}

/// Which of the two scripted sources an event or an operator refers to.
public enum SourceName: String, Sendable {
  case a = "A"
  case b = "B"
}

/// One operator of a pipeline; every stage is `Int` in, `Int` out, failing with a coded error.
public enum Op: Sendable, CustomStringConvertible {
  case map(Int)
  case filter(Int)
  case compactMap(Int)
  case scan
  case removeDuplicates
  case prefix(Int)
  case dropFirst(Int)
  case first
  case last
  case collect
  case collectCount(Int)
  case reduce
  case count
  case min
  case max
  case contains(Int)
  case allSatisfy(Int)
  case replaceErrorSetFailure(Int)
  case catchSequence(Int)
  case retry(Int)
  case flatMapSequence(maxPublishers: Int?)
  case flatMapSourceB(maxPublishers: Int?)
  case flatMapJust(maxPublishers: Int?)
  /// Each value becomes a range of two integers, flatMapped to `Just`s: the inner flatMap takes the range's run.
  case flatMapRangeOfJusts
  case switchToLatestSequence
  case zipB
  case mergeB
  case appendB
  case prependSequence(Int)
  case tryMapFailing(Int)
  case prefixWhile(Int)
  case dropWhile(Int)
  case ignoreOutput
  case replaceEmpty(Int)
  case outputAt(Int)
  case buffer(size: Int, byRequest: Bool, dropNewest: Bool)
  case prefixUntilOutputB
  case dropUntilOutputB
  case catchB
  case switchToLatestB
  case share
  case firstWhere(Int)
  case lastWhere(Int)
  case tryFilter(Int)
  case tryCompactMap(Int)
  case tryScan(Int)
  case tryRemoveDuplicates(Int)
  case tryDropWhile(Int)
  case tryPrefixWhile(Int)
  case tryFirstWhere(Int)
  case tryLastWhere(Int)
  case tryReduce(Int)
  case tryMin(Int)
  case tryMax(Int)
  case tryContains(Int)
  case tryAllSatisfy(Int)

  public var description: String {
    switch self {
    case .map(let k): "map{$0*3+\(k)}"
    case .filter(let m): "filter{$0%\(m)!=0}"
    case .compactMap(let m): "compactMap{$0%\(m)==0 ? nil : $0+1}"
    case .scan: "scan(0,+)"
    case .removeDuplicates: "removeDuplicates{$0/2==$1/2}"
    case .prefix(let n): "prefix(\(n))"
    case .dropFirst(let n): "dropFirst(\(n))"
    case .first: "first()"
    case .last: "last()"
    case .collect: "collect().map(hash)"
    case .collectCount(let n): "collect(\(n)).map(hash)"
    case .reduce: "reduce(0,+)"
    case .count: "count()"
    case .min: "min()"
    case .max: "max()"
    case .contains(let v): "contains(\(v)).map(0/1)"
    case .allSatisfy(let m): "allSatisfy{$0%\(m)!=0}.map(0/1)"
    case .replaceErrorSetFailure(let v): "replaceError(with:\(v)).promoteFailure"
    case .catchSequence(let v): "catch{_ in [\(v),\(v + 1)]}"
    case .retry(let n): "retry(\(n))"
    case .flatMapSequence(let max): "flatMap(max:\(max.map(String.init) ?? "inf")){[$0,$0+100]}"
    case .flatMapSourceB(let max): "flatMap(max:\(max.map(String.init) ?? "inf")){_ in B}"
    case .flatMapJust(let max): "flatMap(max:\(max.map(String.init) ?? "inf")){Just($0&*10)}"
    case .flatMapRangeOfJusts: "flatMap{($0..<$0+2).flatMap{Just($0&*10)}}"
    case .switchToLatestSequence: "map{[$0,$0+100]}.switchToLatest()"
    case .zipB: "zip(B).map(+)"
    case .mergeB: "merge(with:B)"
    case .appendB: "append(B)"
    case .prependSequence(let v): "prepend(\(v),\(v + 1))"
    case .tryMapFailing(let m): "tryMap{$0%\(m)==0 throws}.mapError"
    case .prefixWhile(let v): "prefix{$0!=\(v)}"
    case .dropWhile(let v): "drop{$0!=\(v)}"
    case .ignoreOutput: "ignoreOutput().map(never)"
    case .replaceEmpty(let v): "replaceEmpty(with:\(v))"
    case .outputAt(let n): "output(at:\(n))"
    case .buffer(let size, let byRequest, let dropNewest):
      "buffer(size:\(size),prefetch:\(byRequest ? "byRequest" : "keepFull"),whenFull:\(dropNewest ? "dropNewest" : "dropOldest"))"
    case .prefixUntilOutputB: "prefix(untilOutputFrom:B)"
    case .dropUntilOutputB: "drop(untilOutputFrom:B)"
    case .catchB: "catch{_ in B}"
    case .switchToLatestB: "map{_ in B}.switchToLatest()"
    case .share: "share()"
    case .firstWhere(let m): "first{$0%\(m)==0}"
    case .lastWhere(let m): "last{$0%\(m)==0}"
    case .tryFilter(let v): "tryFilter{$0==\(v) throws; $0%2==0}.mapError"
    case .tryCompactMap(let v): "tryCompactMap{$0==\(v) throws; $0%3==0 ? nil : $0}.mapError"
    case .tryScan(let v): "tryScan(0){$1==\(v) throws; $0+$1}.mapError"
    case .tryRemoveDuplicates(let v): "tryRemoveDuplicates{$1==\(v) throws; $0==$1}.mapError"
    case .tryDropWhile(let v): "tryDrop{$0==\(v) throws; $0<5}.mapError"
    case .tryPrefixWhile(let v): "tryPrefix{$0==\(v) throws; $0<8}.mapError"
    case .tryFirstWhere(let v): "tryFirst{$0==\(v) throws; $0%4==3}.mapError"
    case .tryLastWhere(let v): "tryLast{$0==\(v) throws; $0%4==3}.mapError"
    case .tryReduce(let v): "tryReduce(0){$1==\(v) throws; $0+$1}.mapError"
    case .tryMin(let v): "tryMin{$0==\(v) throws; $0<$1}.mapError"
    case .tryMax(let v): "tryMax{$0==\(v) throws; $0<$1}.mapError"
    case .tryContains(let v): "tryContains{$0==\(v) throws; $0==7}.map(0/1).mapError"
    case .tryAllSatisfy(let v): "tryAllSatisfy{$0==\(v) throws; $0<9}.map(0/1).mapError"
    }
  }
}

/// One step of a script, run against the pipeline's sources and its recording subscriber.
public enum Step: Sendable, CustomStringConvertible {
  case send(SourceName, Int)
  case finish(SourceName)
  case fail(SourceName, Int)
  case request(Int?)
  case cancel

  public var description: String {
    switch self {
    case .send(let source, let value): "\(source.rawValue).send(\(value))"
    case .finish(let source): "\(source.rawValue).finish"
    case .fail(let source, let code): "\(source.rawValue).fail(\(code))"
    case .request(let n): "request(\(n.map(String.init) ?? "unlimited"))"
    case .cancel: "cancel"
    }
  }
}

/// A whole case: a pipeline over source A, the subscriber's demand, and the script.
public struct Case: Sendable, CustomStringConvertible {
  public var seed: UInt64
  public var ops: [Op]
  /// The subscriber's initial request; `nil` is `.unlimited`, `0` requests nothing.
  public var initialDemand: Int?
  /// What the subscriber returns from each `receive(_:)`, cycled.
  public var returnedDemand: [Int]
  public var steps: [Step]

  public init(seed: UInt64, ops: [Op], initialDemand: Int?, returnedDemand: [Int], steps: [Step]) {
    self.seed = seed
    self.ops = ops
    self.initialDemand = initialDemand
    self.returnedDemand = returnedDemand
    self.steps = steps
  }

  public var description: String {
    let demand = initialDemand.map(String.init) ?? "unlimited"
    return """
      seed \(seed)
        pipeline: A.\(ops.map(\.description).joined(separator: "."))
        subscriber: initial \(demand), returns \(returnedDemand) cycled
        script: \(steps.map(\.description).joined(separator: "; "))
      """
  }
}

extension Case {
  /// The case that `seed` stands for.
  public static func generate(seed: UInt64, exclude: Set<String> = []) -> Case {
    var rng = SplitMix64(seed: seed)
    var ops: [Op] = []
    let length = rng.int(1...4)
    while ops.count < length {
      let op = randomOp(&rng)
      if !exclude.contains(op.kind) { ops.append(op) }
    }
    let usesB = ops.contains { $0.usesSourceB }
    let initialDemand: Int? = rng.chance(30) ? nil : rng.int(0...3)
    let returnedDemand = (0..<rng.int(1...3)).map { _ in rng.chance(60) ? 0 : rng.int(1...2) }
    var steps: [Step] = []
    for _ in 0..<rng.int(3...24) {
      let source: SourceName = usesB && rng.chance(40) ? .b : .a
      let roll = rng.int(0...99)
      switch roll {
      case 0..<62: steps.append(.send(source, rng.int(0...9)))
      case 62..<68: steps.append(.finish(source))
      case 68..<72: steps.append(.fail(source, rng.int(1...3)))
      case 72..<95: steps.append(.request(rng.chance(10) ? nil : rng.int(1...3)))
      default: steps.append(.cancel)
      }
    }
    return Case(seed: seed, ops: ops, initialDemand: initialDemand, returnedDemand: returnedDemand, steps: steps)
  }

  private static func randomOp(_ rng: inout SplitMix64) -> Op {
    switch rng.int(0...55) {
    case 0: .map(rng.int(0...5))
    case 1: .filter(rng.int(2...4))
    case 2: .compactMap(rng.int(2...4))
    case 3: .scan
    case 4: .removeDuplicates
    case 5: .prefix(rng.int(0...4))
    case 6: .dropFirst(rng.int(0...3))
    case 7: .first
    case 8: .last
    case 9: .collect
    case 10: .collectCount(rng.int(1...3))
    case 11: .reduce
    case 12: .count
    case 13: .min
    case 14: .max
    case 15: .contains(rng.int(0...9))
    case 16: .allSatisfy(rng.int(2...5))
    case 17: .replaceErrorSetFailure(rng.int(0...9))
    case 18: .catchSequence(rng.int(0...9))
    case 19: .retry(rng.int(0...2))
    case 20: .flatMapSequence(maxPublishers: rng.chance(50) ? nil : rng.int(1...2))
    case 21: .flatMapSourceB(maxPublishers: rng.chance(50) ? nil : rng.int(1...2))
    case 22: .switchToLatestSequence
    case 23: .zipB
    case 24: .mergeB
    case 25: .appendB
    case 26: .prependSequence(rng.int(0...9))
    case 27: .tryMapFailing(rng.int(2...5))
    case 28: .prefixWhile(rng.int(0...9))
    case 29: .dropWhile(rng.int(0...9))
    case 30: .ignoreOutput
    case 31: .replaceEmpty(rng.int(0...9))
    case 32: .outputAt(rng.int(0...3))
    case 33: .buffer(size: rng.int(1...3), byRequest: rng.chance(50), dropNewest: rng.chance(50))
    case 34: .prefixUntilOutputB
    case 35: .dropUntilOutputB
    case 36: .catchB
    case 37: .switchToLatestB
    case 38: .share
    case 39: .firstWhere(rng.int(2...4))
    case 40: .lastWhere(rng.int(2...4))
    case 41: .tryFilter(rng.int(0...12))
    case 42: .tryCompactMap(rng.int(0...12))
    case 43: .tryScan(rng.int(0...12))
    case 44: .tryRemoveDuplicates(rng.int(0...12))
    case 45: .tryDropWhile(rng.int(0...12))
    case 46: .tryPrefixWhile(rng.int(0...12))
    case 47: .tryFirstWhere(rng.int(0...12))
    case 48: .tryLastWhere(rng.int(0...12))
    case 49: .tryReduce(rng.int(0...12))
    case 50: .tryMin(rng.int(0...12))
    case 51: .tryMax(rng.int(0...12))
    case 52: .tryContains(rng.int(0...12))
    case 53: .flatMapJust(maxPublishers: rng.chance(50) ? nil : rng.int(1...2))
    case 54: .flatMapRangeOfJusts
    default: .tryAllSatisfy(rng.int(0...12))
    }
  }
}

extension Op {
  /// The operator's name without its parameters, for `--exclude` and skip lists.
  public var kind: String {
    switch self {
    case .map: "map"
    case .filter: "filter"
    case .compactMap: "compactMap"
    case .scan: "scan"
    case .removeDuplicates: "removeDuplicates"
    case .prefix: "prefix"
    case .dropFirst: "dropFirst"
    case .first: "first"
    case .last: "last"
    case .collect: "collect"
    case .collectCount: "collectCount"
    case .reduce: "reduce"
    case .count: "count"
    case .min: "min"
    case .max: "max"
    case .contains: "contains"
    case .allSatisfy: "allSatisfy"
    case .replaceErrorSetFailure: "replaceError"
    case .catchSequence: "catch"
    case .retry: "retry"
    case .flatMapSequence: "flatMap"
    case .flatMapSourceB: "flatMapB"
    case .flatMapJust: "flatMapJust"
    case .flatMapRangeOfJusts: "flatMapRangeOfJusts"
    case .switchToLatestSequence: "switchToLatest"
    case .zipB: "zip"
    case .mergeB: "merge"
    case .appendB: "append"
    case .prependSequence: "prepend"
    case .tryMapFailing: "tryMap"
    case .prefixWhile: "prefixWhile"
    case .dropWhile: "dropWhile"
    case .ignoreOutput: "ignoreOutput"
    case .replaceEmpty: "replaceEmpty"
    case .outputAt: "outputAt"
    case .buffer: "buffer"
    case .prefixUntilOutputB: "prefixUntilOutput"
    case .dropUntilOutputB: "dropUntilOutput"
    case .catchB: "catchB"
    case .switchToLatestB: "switchToLatestB"
    case .share: "share"
    case .firstWhere: "firstWhere"
    case .lastWhere: "lastWhere"
    case .tryFilter: "tryFilter"
    case .tryCompactMap: "tryCompactMap"
    case .tryScan: "tryScan"
    case .tryRemoveDuplicates: "tryRemoveDuplicates"
    case .tryDropWhile: "tryDropWhile"
    case .tryPrefixWhile: "tryPrefixWhile"
    case .tryFirstWhere: "tryFirstWhere"
    case .tryLastWhere: "tryLastWhere"
    case .tryReduce: "tryReduce"
    case .tryMin: "tryMin"
    case .tryMax: "tryMax"
    case .tryContains: "tryContains"
    case .tryAllSatisfy: "tryAllSatisfy"
    }
  }

  var usesSourceB: Bool {
    switch self {
    case .flatMapSourceB, .zipB, .mergeB, .appendB, .prefixUntilOutputB, .dropUntilOutputB, .catchB, .switchToLatestB:
      true
    default: false
    }
  }
}
