import RillCore
import RillTestSupport
import RillTesting
import Testing

/// An error for the transform and filter operator tests.
enum TransformTestError: Error, Equatable {
  case upstream
  case thrown
}

/// The upstream most tests in this area use.
typealias TransformUpstream = TestPublisher<Int, TransformTestError>

/// Subscribes a recording subscriber to the operator applied to a fresh `TransformUpstream`.
func transformSubscribe<P: Publisher>(
  _ make: (TransformUpstream) -> P,
  initialDemand: Subscribers.Demand = .unlimited,
  demandPerValue: Subscribers.Demand = .none,
  onValue: ((TestSubscriber<P.Output, P.Failure>, P.Output) -> Subscribers.Demand)? = nil
) -> (TransformUpstream, TestSubscriber<P.Output, P.Failure>) {
  transformSubscribe(
    TransformUpstream(),
    make,
    initialDemand: initialDemand,
    demandPerValue: demandPerValue,
    onValue: onValue
  )
}

/// Subscribes a recording subscriber to the operator applied to `upstream`.
func transformSubscribe<Input, Failure: Error, P: Publisher>(
  _ upstream: TestPublisher<Input, Failure>,
  _ make: (TestPublisher<Input, Failure>) -> P,
  initialDemand: Subscribers.Demand = .unlimited,
  demandPerValue: Subscribers.Demand = .none,
  onValue: ((TestSubscriber<P.Output, P.Failure>, P.Output) -> Subscribers.Demand)? = nil
) -> (TestPublisher<Input, Failure>, TestSubscriber<P.Output, P.Failure>) {
  let subscriber = TestSubscriber<P.Output, P.Failure>(
    initialDemand: initialDemand,
    demandPerValue: demandPerValue,
    onValue: onValue
  )
  make(upstream).subscribe(subscriber)
  return (upstream, subscriber)
}

/// Sends `inputs` then `completion` through the operator with unlimited demand; returns the events as strings.
func transformRun<P: Publisher>(
  _ make: (TransformUpstream) -> P,
  _ inputs: [Int],
  then completion: Subscribers.Completion<TransformTestError>? = .finished
) -> [String] {
  transformRun(TransformUpstream(), make, inputs, then: completion)
}

/// Sends `inputs` then `completion` from `upstream` through the operator with unlimited demand; returns the
/// events as strings.
func transformRun<Input, Failure: Error, P: Publisher>(
  _ upstream: TestPublisher<Input, Failure>,
  _ make: (TestPublisher<Input, Failure>) -> P,
  _ inputs: [Input],
  then completion: Subscribers.Completion<Failure>? = .finished
) -> [String] {
  let (upstream, subscriber) = transformSubscribe(upstream, make)
  for input in inputs { upstream.send(input) }
  if let completion { upstream.send(completion: completion) }
  return subscriber.eventDescriptions
}

/// The contract checks every operator in this area passes, given a few upstream elements.
///
/// `ownsSubscription` is true for operators that present their own subscription downstream; unless
/// `isSilentAfterEnd` is false, those must also stay silent when a misbehaving upstream keeps sending after
/// cancellation or completion. Pass-through operators hand upstream's subscription to downstream and rely on upstream
/// for that. `isSilentAfterEnd` is false for the operators whose Combine counterparts pass on what arrives after the
/// end (`tryMap`, `tryScan`, `output(in:)`, `dropFirst`); their own tests pin what they pass on.
func transformContract<Input, P: Publisher>(
  _ upstreamType: TestPublisher<Input, TransformTestError>.Type,
  _ make: (TestPublisher<Input, TransformTestError>) -> P,
  elements: [Input],
  ownsSubscription: Bool = true,
  isSilentAfterEnd: Bool = true,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let checksSilence = ownsSubscription && isSilentAfterEnd
  // A second subscription from upstream is cancelled.
  do {
    let (upstream, subscriber) = transformSubscribe(upstreamType.init(), make)
    let extra = TestSubscription()
    upstream.send(subscription: extra)
    #expect(extra.isCancelled, "second subscription", sourceLocation: sourceLocation)
    #expect(subscriber.subscriptionCount <= 2, sourceLocation: sourceLocation)
  }
  // Cancelling reaches upstream; an owning operator is silent afterwards.
  do {
    let (upstream, subscriber) = transformSubscribe(upstreamType.init(), make)
    subscriber.cancel()
    #expect(upstream.isCancelled, "cancel reaches upstream", sourceLocation: sourceLocation)
    if checksSilence {
      for element in elements { upstream.send(element) }
      upstream.send(completion: .finished)
      upstream.send(completion: .failure(.upstream))
      expectEqual(
        subscriber.eventDescriptions,
        ["subscription"],
        "silence after cancel",
        sourceLocation: sourceLocation
      )
    }
  }
  // After completion, an owning operator ignores further events.
  if checksSilence {
    let (upstream, subscriber) = transformSubscribe(upstreamType.init(), make)
    upstream.send(completion: .failure(.upstream))
    for element in elements { upstream.send(element) }
    upstream.send(completion: .finished)
    expectEqual(subscriber.completionCount, 1, "one completion", sourceLocation: sourceLocation)
    #expect(
      subscriber.eventDescriptions.last.map { $0 == "finished" || $0.hasPrefix("failure") } == true,
      "silence after completion",
      sourceLocation: sourceLocation
    )
  }
  // Cancelling from inside receive: upstream is cancelled, nothing more arrives from an owning operator.
  do {
    let (upstream, subscriber) = transformSubscribe(upstreamType.init(), make) { subscriber, _ in
      subscriber.cancel()
      return .none
    }
    for element in elements { upstream.send(element) }
    if subscriber.values.count > 0 {
      #expect(upstream.isCancelled, "cancel from receive", sourceLocation: sourceLocation)
      if checksSilence {
        expectEqual(subscriber.values.count, 1, "silence after cancel from receive", sourceLocation: sourceLocation)
      }
    }
  }
  // Requesting and sending from inside receive neither deadlocks nor loses the request.
  do {
    var isSending = false
    let upstream = upstreamType.init()
    let subscriber = TestSubscriber<P.Output, P.Failure>(
      initialDemand: .max(1),
      onValue: { subscriber, _ in
        subscriber.request(.max(1))
        if !isSending, let first = elements.first {
          isSending = true
          upstream.send(first)
        }
        return .none
      }
    )
    make(upstream).subscribe(subscriber)
    let requestsBefore = upstream.requestedDemands.count
    for element in elements { upstream.send(element) }
    if subscriber.values.count > 0 {
      #expect(subscriber.requestedDemands.count > 1, "request from receive", sourceLocation: sourceLocation)
      #expect(upstream.requestedDemands.count >= requestsBefore, sourceLocation: sourceLocation)
    }
  }
  // The pipeline is freed after completion and after cancellation.
  for end in ["complete", "cancel"] {
    weak var weakSubscription: AnyObject?
    weak var weakSubscriber: TestSubscriber<P.Output, P.Failure>?
    do {
      let (upstream, subscriber) = transformSubscribe(upstreamType.init(), make)
      weakSubscription = subscriber.subscription.map { $0 as AnyObject }
      weakSubscriber = subscriber
      for element in elements { upstream.send(element) }
      if end == "complete" { upstream.send(completion: .finished) } else { subscriber.cancel() }
    }
    #expect(weakSubscription == nil, "subscription freed after \(end)", sourceLocation: sourceLocation)
    #expect(weakSubscriber == nil, "subscriber freed after \(end)", sourceLocation: sourceLocation)
  }
}

/// The contract checks for an operator on a `TransformUpstream`.
func transformContract<P: Publisher>(
  _ make: (TransformUpstream) -> P,
  elements: [Int] = [1, 2, 3],
  ownsSubscription: Bool = true,
  isSilentAfterEnd: Bool = true,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  transformContract(
    TransformUpstream.self,
    make,
    elements: elements,
    ownsSubscription: ownsSubscription,
    isSilentAfterEnd: isSilentAfterEnd,
    sourceLocation: sourceLocation
  )
}

/// An object an operator's closure captures, so that a test can see when the closure is freed.
final class TransformCaptured {
  let value: Int

  init(_ value: Int) {
    self.value = value
  }
}

/// Checks that the subscriber, and the object the operator's closure captures, are freed once the stream ends
/// (by completion, then by cancel) and upstream lets go.
///
/// `make` builds the operator with a closure that captures the `TransformCaptured` it is given, which holds
/// `captured`; `elements` are sent before the end, and the subscriber must have received `expected`.
func expectTransformReleasesItsClosure<P: Publisher>(
  _ make: (TransformUpstream, TransformCaptured) -> P,
  captured value: Int,
  sending elements: [Int],
  receives expected: [P.Output],
  sourceLocation: SourceLocation = #_sourceLocation
) where P.Output: Equatable {
  for cancels in [false, true] {
    let upstream = TransformUpstream()
    weak var weakSubscriber: TestSubscriber<P.Output, P.Failure>?
    weak var weakCaptured: TransformCaptured?
    do {
      let captured = TransformCaptured(value)
      let (_, subscriber) = transformSubscribe(upstream, { make($0, captured) })
      weakSubscriber = subscriber
      weakCaptured = captured
      for element in elements { upstream.send(element) }
      expectEqual(subscriber.values, expected, sourceLocation: sourceLocation)
      if cancels { subscriber.cancel() } else { upstream.send(completion: .finished) }
    }
    upstream.releaseSubscribers()
    #expect(weakSubscriber == nil, "subscriber freed, cancels: \(cancels)", sourceLocation: sourceLocation)
    #expect(weakCaptured == nil, "closure freed, cancels: \(cancels)", sourceLocation: sourceLocation)
  }
}
