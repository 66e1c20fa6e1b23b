import RillExt
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
