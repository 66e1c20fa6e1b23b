import RillExt
import RillTestSupport
import RillTesting
import Testing

/// The errors of RillExt's operator tests.
enum ExtTestError: Error, Equatable {
  case upstream
  case other
}

/// The hand-driven upstream most of RillExt's operator tests use.
typealias ExtUpstream = TestPublisher<Int, ExtTestError>

/// Subscribes a recording subscriber to the operator applied to a fresh `ExtUpstream`.
func extSubscribe<P: Publisher>(
  _ make: (ExtUpstream) -> P,
  initialDemand: Subscribers.Demand = .unlimited,
  demandPerValue: Subscribers.Demand = .none,
  onValue: ((TestSubscriber<P.Output, P.Failure>, P.Output) -> Subscribers.Demand)? = nil
) -> (ExtUpstream, TestSubscriber<P.Output, P.Failure>) {
  let upstream = ExtUpstream()
  let subscriber = TestSubscriber<P.Output, P.Failure>(
    initialDemand: initialDemand,
    demandPerValue: demandPerValue,
    onValue: onValue
  )
  make(upstream).subscribe(subscriber)
  return (upstream, subscriber)
}

/// Sends `inputs` then `completion` through the operator with unlimited demand; returns the events as strings.
func extRun<P: Publisher>(
  _ make: (ExtUpstream) -> P,
  _ inputs: [Int],
  then completion: Subscribers.Completion<ExtTestError>? = .finished
) -> [String] {
  let (upstream, subscriber) = extSubscribe(make)
  for input in inputs { upstream.send(input) }
  if let completion { upstream.send(completion: completion) }
  return subscriber.eventDescriptions
}

/// Whether the subscription the operator hands downstream, and the one upstream gave it, are freed once `drive` has
/// ended the run (by completing upstream or cancelling) and upstream has let go of its subscribers.
func extPipelineIsFreed<P: Publisher>(
  _ make: (ExtUpstream) -> P,
  drive: (ExtUpstream, TestSubscriber<P.Output, P.Failure>) -> Void
) -> Bool {
  weak var inner: AnyObject?
  weak var upstreamSubscription: AnyObject?
  do {
    let (upstream, subscriber) = extSubscribe(make)
    inner = subscriber.subscription as AnyObject?
    upstreamSubscription = upstream.subscriptions.last
    drive(upstream, subscriber)
    upstream.releaseSubscribers()
  }
  return inner == nil && upstreamSubscription == nil
}

/// Runs RillTesting's contract checker on `publisher` under every standard demand plan, with `drive` pushing events.
func expectContract<P: Publisher>(
  _ name: String,
  _ makePublisher: () -> P,
  drive: @escaping (ContractChecker<P.Output, P.Failure>) -> Void = { _ in },
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for demand in ContractDemand.standard {
    let report = PublisherContract.check(makePublisher(), demand: demand, drive: drive)
    #expect(report.isSatisfied, "\(name), \(demand): \(report)", sourceLocation: sourceLocation)
  }
}

/// How long a test waits for a publisher that delivers from a task: longer than a whole run of the suite.
///
/// Swift Testing queues every test on the cooperative pool, two threads here, and synchronous tests hold them while
/// they run: a task the publisher starts, or a test that suspends, can wait behind most of the suite. A passing run
/// returns as soon as it has settled; only a broken one waits this long.
let asyncTestTimeout = Duration.seconds(300)

/// Runs the contract checker's `async` form on a publisher that delivers from a task, under each demand plan (every
/// standard one by default): checks that it keeps the contract and sends the first of `values` that the plan allows.
///
/// Each run first waits for those values, then for the publisher to settle: to complete (or be cancelled) when the
/// plan requests at least `demandToComplete` values in all (or cancels), or else to go quiet. Returns the reports,
/// for checks of their completions.
@discardableResult
func expectAsyncContract<P: Publisher>(
  _ name: String,
  values: [P.Output],
  completingAfterDemandOf demandToComplete: Int,
  demands: [ContractDemand] = ContractDemand.standard,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ makePublisher: () async -> P
) async -> [ContractDemand: ContractReport<P.Output, P.Failure>] where P.Output: Equatable {
  var reports: [ContractDemand: ContractReport<P.Output, P.Failure>] = [:]
  for demand in demands {
    let allowed = Array(values.prefix(valueCount(allowedBy: demand, of: values.count)))
    let report = await PublisherContract.check(
      await makePublisher(),
      demand: demand,
      expectsCompletion: demandCovers(demand, demandToComplete),
      timeout: asyncTestTimeout
    ) { checker in
      await eventually(within: asyncTestTimeout) { checker.report().values.count >= allowed.count }
    }
    #expect(report.isSatisfied, "\(name), \(demand): \(report)", sourceLocation: sourceLocation)
    expectEqual(report.values, allowed, "\(name), \(demand): \(report)", sourceLocation: sourceLocation)
    reports[demand] = report
  }
  return reports
}

/// How many of `count` values a demand plan lets through.
func valueCount(allowedBy demand: ContractDemand, of count: Int) -> Int {
  if let cancelAfterValues = demand.cancelAfterValues { return min(count, cancelAfterValues) }
  if demand.initial == .none { return 0 }
  if demand.perValue > .none { return count }
  return min(count, demand.initial.max ?? count)
}

/// Whether a demand plan ends the run on its own: by cancelling, or by requesting at least `count` values in all.
func demandCovers(_ demand: ContractDemand, _ count: Int) -> Bool {
  if demand.cancelAfterValues != nil { return true }
  if demand.initial > .none, demand.perValue > .none { return true }
  return demand.initial >= .max(count)
}

/// Waits until `condition` holds, polling every millisecond, for at most `timeout`.
func eventually(within timeout: Duration, _ condition: () -> Bool) async {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while !condition(), clock.now < deadline {
    try? await Task.sleep(for: .milliseconds(1))
  }
}
