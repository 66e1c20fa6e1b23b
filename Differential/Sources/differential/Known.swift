import DifferentialModel

/// Places where OpenCombine 0.14 departs from Combine, or where Rill deliberately departs from OpenCombine, each
/// documented in Differential/README.md; the harness normalises both traces there so the rest of the case is
/// still compared.
enum Known {
  static func isDownstreamEvent(_ line: String) -> Bool {
    line.hasPrefix("value ") || line == "finished" || line.hasPrefix("failure ")
  }

  /// Rewrites both traces where a known departure applies; returns the names of the rules that changed anything.
  static func normalise(_ testCase: Case, rill: inout [String], openCombine: inout [String]) -> [String] {
    var applied: [String] = []
    // 1. OpenCombine's reduce-like operators (collect, count, reduce, min, max, contains, allSatisfy, ...) deliver
    //    their result after the subscriber cancelled, when the result was waiting for demand. Combine delivers
    //    nothing after a cancel.
    if let cancel = openCombine.firstIndex(of: "> cancel") {
      let before = openCombine.count
      openCombine = openCombine.enumerated().filter { $0.offset < cancel || !isDownstreamEvent($0.element) }.map {
        $0.element
      }
      if openCombine.count != before { applied.append("delivery-after-cancel") }
    }
    // 7. OpenCombine's replaceError delivers its replacement and `.finished` a second time on a later request.
    //    A subscriber receives at most one completion and nothing after it.
    if let end = openCombine.firstIndex(where: { $0 == "finished" || $0.hasPrefix("failure ") }) {
      let before = openCombine.count
      openCombine = openCombine.enumerated().filter { $0.offset <= end || !isDownstreamEvent($0.element) }.map {
        $0.element
      }
      if openCombine.count != before { applied.append("delivery-after-completion") }
    }
    // 8. Once the subscriber has its completion, the pipeline is over and requests and cancels made on it have
    //    no effect: OpenCombine's operators pass them upstream anyway; Rill's do not. Upstream requests and
    //    cancels after the subscriber's completion are not compared.
    if rill != openCombine {
      let rillBefore = rill
      let openCombineBefore = openCombine
      rill = droppingUpstreamCallsAfterCompletion(rill)
      openCombine = droppingUpstreamCallsAfterCompletion(openCombine)
      if rillBefore != openCombineBefore, rill == openCombine { applied.append("requests-after-completion") }
    }
    // 9. Requests and cancels that reach a source after it completed have no effect; OpenCombine's operators
    //    (buffer, replaceError, ...) still send them, Rill's do not. They are not compared.
    if rill != openCombine {
      let rillBefore = rill
      let openCombineBefore = openCombine
      rill = droppingCallsToCompletedSources(rill)
      openCombine = droppingCallsToCompletedSources(openCombine)
      if rillBefore != openCombineBefore, rill == openCombine { applied.append("calls-to-completed-source") }
    }
    // 2. When a child of flatMap fails, Rill cancels flatMap's upstream; OpenCombine leaves it subscribed.
    let childCanFail =
      testCase.ops.contains { $0.kind == "flatMapB" }
      && testCase.steps.contains {
        if case .fail(.b, _) = $0 { return true }
        return false
      }
    if childCanFail, rill != openCombine {
      let isOuterCancel = { (line: String) in line.hasPrefix("A#") && line.hasSuffix(" cancel") }
      rill.removeAll(where: isOuterCancel)
      openCombine.removeAll(where: isOuterCancel)
      // What the still-subscribed upstream does after the failure (retry resubscribing, or append(B) subscribing
      // to B, say) is not compared.
      rill = droppingUpstreamAfterCompletion(rill, alsoB: true)
      openCombine = droppingUpstreamAfterCompletion(openCombine, alsoB: true)
      if rill == openCombine { applied.append("flatMap-child-failure-cancels-upstream") }
    }
    // 6. When upstream completes before the other publisher of drop(untilOutputFrom:) has delivered its value,
    //    Rill's drop cancels the other publisher's subscription, as prefix(untilOutputFrom:) does in Combine and
    //    OpenCombine; OpenCombine's drop leaves it subscribed. The other publisher's cancels are not compared in
    //    pipelines with either operator. Under `retry`, the other publisher that OpenCombine left subscribed can
    //    then end the stream from an earlier attempt, before the current attempt cancels its upstream; Rill's
    //    current attempt cancels its upstream and then passes the completion on. The cancels just before the
    //    completion are not compared either.
    if rill != openCombine, testCase.ops.contains(where: { $0.kind.hasSuffix("UntilOutput") }) {
      let isTriggerCancel = { (line: String) in line.hasPrefix("B#") && line.hasSuffix(" cancel") }
      rill.removeAll(where: isTriggerCancel)
      openCombine.removeAll(where: isTriggerCancel)
      if rill != openCombine, testCase.ops.contains(where: { $0.kind == "retry" }) {
        rill = droppingCancelsBeforeCompletion(rill)
        openCombine = droppingCancelsBeforeCompletion(openCombine)
      }
      if rill == openCombine { applied.append("drop-untilOutputFrom-cancels-other-on-completion") }
    }
    // 15. Before the script starts, an operator may hand its subscription downstream before or after it
    //     subscribes upstream (Rill's `append`/`prepend`), or subscribe its upstreams one after the other with the
    //     downstream's first request in between (Rill's `zip`). Set-up lines are compared link by link, each in
    //     order, but not their interleaving, nor where the subscriber receives its subscription.
    if rill != openCombine {
      let rillBefore = rill
      let openCombineBefore = openCombine
      rill = droppingSetUpSubscription(rill)
      openCombine = droppingSetUpSubscription(openCombine)
      if rillBefore != openCombineBefore, rill == openCombine { applied.append("subscription-order-at-set-up") }
    }
    // 16. When one upstream of `zip` fails, or finishes so that no further tuple can form, Rill's `zip` cancels
    //     the others before it passes the completion on; OpenCombine's leaves them subscribed. Cancels in the
    //     script step that completes the subscriber are not compared in pipelines with `zip`, nor where in its step
    //     a cancel lands (a `catch` may subscribe to its replacement before or after the cancel).
    if rill != openCombine, testCase.ops.contains(where: { $0.kind == "zip" }) {
      let rillBefore = rill
      let openCombineBefore = openCombine
      rill = movingCancelsToTheEndOfTheirStep(droppingCancelsInTheStepOfCompletion(rill))
      openCombine = movingCancelsToTheEndOfTheirStep(droppingCancelsInTheStepOfCompletion(openCombine))
      rill = droppingCancelsBeforeCompletion(rill)
      openCombine = droppingCancelsBeforeCompletion(openCombine)
      if rillBefore != openCombineBefore, rill == openCombine { applied.append("zip-failure-cancels-others") }
    }
    // 17. A finite request directly followed, on the same link, by a request for `.unlimited` adds nothing:
    //     OpenCombine's `ignoreOutput` and `replaceEmpty` pass the subscriber's finite demand upstream as well as
    //     their own unlimited one; Rill's only ask for `.unlimited`.
    if rill != openCombine {
      let rillBefore = rill
      let openCombineBefore = openCombine
      rill = droppingRequestsBeforeUnlimited(rill)
      openCombine = droppingRequestsBeforeUnlimited(openCombine)
      if rillBefore != openCombineBefore, rill == openCombine { applied.append("request-before-unlimited") }
    }
    // 17. Demand adds up: two finite requests in a row on one link ask for the same as one request for their
    //     sum (OpenCombine's `dropFirst` asks for the dropped count and the subscriber's demand separately).
    if rill != openCombine {
      let rillBefore = rill
      let openCombineBefore = openCombine
      rill = summingAdjacentRequests(rill)
      openCombine = summingAdjacentRequests(openCombine)
      if rillBefore != openCombineBefore, rill == openCombine { applied.append("adjacent-requests-summed") }
    }
    // 3. Demand that is already unlimited stays unlimited, so requesting more of it has no effect: OpenCombine's
    //    flatMap asks its children for `.unlimited` again on every downstream request; Rill does not.
    let rillBefore = rill
    let openCombineBefore = openCombine
    rill = droppingRedundantRequests(rill)
    openCombine = droppingRedundantRequests(openCombine)
    if rillBefore != openCombineBefore, rill == openCombine { applied.append("redundant-unlimited-request") }
    // 5. The order in which flatMap asks several children for more, or cancels them, is unspecified: OpenCombine
    //    keeps its children in a dictionary and follows hash order, Rill follows subscription order. Runs of
    //    adjacent upstream requests and cancels are compared as sets.
    if rill != openCombine, testCase.ops.contains(where: { $0.kind.hasPrefix("flatMap") }) {
      let sortedRill = sortingSourceRuns(rill)
      let sortedOpenCombine = sortingSourceRuns(openCombine)
      if sortedRill == sortedOpenCombine, rill != openCombine { applied.append("flatMap-children-order") }
      rill = sortedRill
      openCombine = sortedOpenCombine
    }
    return applied
  }

  /// Why comparing `testCase` is meaningless, or `nil` to compare it.
  static func skipReason(_ testCase: Case) -> String? {
    if testCase.ops.contains(where: { $0.kind == "prefix" || $0.kind == "outputAt" }) {
      return "OpenCombine's prefix(_:)/output(at:) finish only when an element after the last one arrives"
    }
    if let index = testCase.ops.firstIndex(where: { $0.kind == "replaceEmpty" }), index < testCase.ops.count - 1 {
      return "replaceEmpty asks for unlimited demand and forwards everything: what follows meets a misbehaving upstream"
    }
    if let replace = testCase.ops.firstIndex(where: { $0.kind == "replaceError" }),
      testCase.ops[replace...].contains(where: { $0.kind == "retry" })
    {
      return "OpenCombine's replaceError re-delivers on each request (rule 7); under retry that overflows its stack"
    }
    let synchronous: Set = ["prepend", "flatMap", "flatMapRangeOfJusts", "switchToLatest", "catch"]
    if let zip = testCase.ops.firstIndex(where: { $0.kind == "zip" }),
      testCase.ops[..<zip].contains(where: { synchronous.contains($0.kind) })
    {
      return "OpenCombine's zip never passes on a failure that arrives while it subscribes to its upstreams"
    }
    let completes = testCase.steps.contains {
      switch $0 {
      case .finish, .fail: true
      default: false
      }
    }
    if testCase.ops.contains(where: { $0.kind == "zip" }), completes {
      return "OpenCombine's zip can crash (unowned reference read after release) once an upstream completes"
    }
    let completesB = testCase.steps.contains {
      switch $0 {
      case .finish(.b), .fail(.b, _): true
      default: false
      }
    }
    if testCase.ops.contains(where: { $0.kind == "catchB" }), completesB {
      return "OpenCombine's catch traps ('received completion but do not have subscription') when its B completes"
    }
    let limitsDemand: Set = ["buffer", "flatMap", "flatMapB", "flatMapRangeOfJusts"]
    if let zip = testCase.ops.firstIndex(where: { $0.kind == "zip" }),
      testCase.initialDemand != nil || testCase.ops[zip...].contains(where: { limitsDemand.contains($0.kind) })
    {
      return "OpenCombine's zip asks only the upstream that completed a tuple for the demand the subscriber returns"
    }
    if let buffer = testCase.ops.firstIndex(where: { $0.kind == "buffer" }),
      testCase.ops[..<buffer].contains(where: { synchronous.contains($0.kind) })
    {
      return "buffer meets values within its own upstream request: Rill delivers them at once, OpenCombine after"
    }
    if isUnspecified(testCase) { return "flatMap's child order once finite demand is raised is unspecified" }
    return nil
  }

  /// Whether comparing `testCase` is meaningless: a flatMap with several children whose downstream demand starts
  /// finite and is later raised; OpenCombine drains the values its children queued meanwhile in hash order, which
  /// changes from run to run.
  static func isUnspecified(_ testCase: Case) -> Bool {
    let flatMapWithSeveralChildren = testCase.ops.contains {
      switch $0 {
      case .flatMapSequence(let max), .flatMapSourceB(let max): max != 1
      case .flatMapRangeOfJusts: true
      default: false
      }
    }
    let raises = testCase.steps.contains {
      if case .request = $0 { return true }
      return false
    }
    return flatMapWithSeveralChildren && raises && testCase.initialDemand != nil
  }

  static func droppingSetUpSubscription(_ trace: [String]) -> [String] {
    let firstStep = trace.firstIndex { $0.hasPrefix("> ") } ?? trace.count
    let setUp = trace[..<firstStep].filter { $0 != "subscription" }
    let link = { (line: String) in isDownstreamEvent(line) ? "~" : String(line.prefix { $0 != " " }) }
    let byLink = setUp.enumerated().sorted { (link($0.element), $0.offset) < (link($1.element), $1.offset) }
    return byLink.map(\.element) + trace[firstStep...]
  }

  static func droppingCancelsInTheStepOfCompletion(_ trace: [String]) -> [String] {
    guard let end = trace.firstIndex(where: { $0 == "finished" || $0.hasPrefix("failure ") }) else { return trace }
    let step = trace[..<end].lastIndex { $0.hasPrefix("> ") } ?? 0
    return trace.enumerated().filter { index, line in
      index < step || index > end || !(isSourceEvent(line) && line.hasSuffix(" cancel"))
    }.map(\.element)
  }

  static func movingCancelsToTheEndOfTheirStep(_ trace: [String]) -> [String] {
    var result: [String] = []
    var cancels: [String] = []
    for line in trace {
      if line.hasPrefix("> ") {
        result += cancels
        cancels = []
      }
      if isSourceEvent(line), line.hasSuffix(" cancel") { cancels.append(line) } else { result.append(line) }
    }
    return result + cancels
  }

  static func droppingCancelsBeforeCompletion(_ trace: [String]) -> [String] {
    guard let end = trace.firstIndex(where: { $0 == "finished" || $0.hasPrefix("failure ") }) else { return trace }
    var start = end
    while start > 0, isSourceEvent(trace[start - 1]), trace[start - 1].hasSuffix(" cancel") { start -= 1 }
    return Array(trace[..<start] + trace[end...])
  }

  static func droppingRequestsBeforeUnlimited(_ trace: [String]) -> [String] {
    var dropped = Set<Int>()
    for (index, line) in trace.enumerated() where isSourceEvent(line) && line.contains(" request ") {
      guard !line.hasSuffix(" request inf"), let space = line.firstIndex(of: " ") else { continue }
      let link = line[..<space]
      var next = index + 1
      while next < trace.count, isSourceEvent(trace[next]) || trace[next].hasSuffix(" subscribed") {
        if trace[next] == link + " request inf" {
          dropped.insert(index)
          break
        }
        next += 1
      }
    }
    return trace.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
  }

  static func summingAdjacentRequests(_ trace: [String]) -> [String] {
    var result: [String] = []
    for line in trace {
      if let last = result.last, let (link, previous) = finiteRequest(last), let (sameLink, more) = finiteRequest(line),
        link == sameLink
      {
        result[result.count - 1] = "\(link) request \(previous + more)"
      } else {
        result.append(line)
      }
    }
    return result
  }

  /// The link and the count of a finite request line such as `A#1 request 2`.
  static func finiteRequest(_ line: String) -> (String, Int)? {
    let parts = line.split(separator: " ")
    guard parts.count == 3, parts[1] == "request", let count = Int(parts[2]), isSourceEvent(line) else { return nil }
    return (String(parts[0]), count)
  }

  static func droppingUpstreamCallsAfterCompletion(_ trace: [String]) -> [String] {
    guard let end = trace.firstIndex(where: { $0 == "finished" || $0.hasPrefix("failure ") }) else { return trace }
    return trace.enumerated().filter {
      $0.offset <= end || !isSourceEvent($0.element)
    }.map(\.element)
  }

  static func droppingCallsToCompletedSources(_ trace: [String]) -> [String] {
    var newest: [Character: Int] = [:]
    var completedUpTo: [Character: Int] = [:]
    return trace.filter { line in
      if line.hasPrefix("> A.finish") || line.hasPrefix("> A.fail") { completedUpTo["A"] = newest["A"] ?? 0 }
      if line.hasPrefix("> B.finish") || line.hasPrefix("> B.fail") { completedUpTo["B"] = newest["B"] ?? 0 }
      guard let source = line.first, source == "A" || source == "B", let hash = line.firstIndex(of: "#"),
        let space = line.firstIndex(of: " "), let id = Int(line[line.index(after: hash)..<space])
      else { return true }
      if line.hasSuffix(" subscribed") { newest[source] = id }
      return !(isSourceEvent(line) && id <= completedUpTo[source, default: 0])
    }
  }

  /// `trace` without the events of A's links after the completion, nor of B's when `alsoB`.
  static func droppingUpstreamAfterCompletion(_ trace: [String], alsoB: Bool = false) -> [String] {
    guard let end = trace.firstIndex(where: { $0 == "finished" || $0.hasPrefix("failure ") }) else { return trace }
    let isUpstream = { (line: String) in line.hasPrefix("A#") || (alsoB && line.hasPrefix("B#")) }
    return trace.enumerated().filter { $0.offset <= end || !isUpstream($0.element) }.map(\.element)
  }

  static func droppingRedundantRequests(_ trace: [String]) -> [String] {
    var unlimited = Set<Substring>()
    return trace.filter { line in
      guard isSourceEvent(line), let space = line.firstIndex(of: " "), line.contains(" request ") else { return true }
      let link = line[..<space]
      if unlimited.contains(link) { return false }
      if line.hasSuffix(" request inf") { unlimited.insert(link) }
      return true
    }
  }

  static func isSourceEvent(_ line: String) -> Bool {
    (line.hasPrefix("A#") || line.hasPrefix("B#")) && (line.contains(" request ") || line.hasSuffix(" cancel"))
  }

  static func sortingSourceRuns(_ trace: [String]) -> [String] {
    var result: [String] = []
    var run: [String] = []
    for line in trace {
      if isSourceEvent(line) {
        run.append(line)
        continue
      }
      result += run.sorted()
      run = []
      result.append(line)
    }
    return result + run.sorted()
  }

  /// Checks Rill's trace against the contract alone: no value beyond demand, nothing after the completion or after the subscriber cancelled, at most one completion.
  ///
  /// Returns the first violation.
  static func contractViolation(_ testCase: Case, rill: [String]) -> String? {
    // Combine's replaceEmpty asks its upstream for unlimited demand and forwards every value (Rill and OpenCombine
    // both follow it), so a pipeline with it can deliver beyond the subscriber's demand.
    let demandIsKept = !testCase.ops.contains { $0.kind == "replaceEmpty" }
    var demand: Int? = demandIsKept ? testCase.initialDemand : nil  // nil: unlimited
    var ended = false
    var cancelled = false
    for (index, line) in rill.enumerated() {
      if line == "> cancel" { cancelled = true }
      if line.hasPrefix("> request(") && !cancelled && !ended {
        let inner = line.dropFirst("> request(".count).dropLast()
        if let n = Int(inner), let current = demand { demand = current + n } else { demand = nil }
        if !demandIsKept { demand = nil }
      }
      guard isDownstreamEvent(line) else { continue }
      if ended { return "line \(index): \(line) after the completion" }
      if cancelled { return "line \(index): \(line) after cancel" }
      if line.hasPrefix("value ") {
        if let current = demand {
          if current == 0 { return "line \(index): \(line) beyond demand" }
          demand = current - 1
        }
        if let returned = Int(line.split(separator: " ").last ?? ""), let current = demand {
          demand = current + returned
        }
      } else {
        ended = true
      }
    }
    return nil
  }
}
