import RillCore
import RillTestSupport
import RillTesting
import Testing

/// An error for the reducing operators' tests.
enum ReducingTestError: Error, Equatable {
  case oops
  case thrown
}

/// Runs the checks every reducing operator must pass, given how to build it and what it should publish for
/// `inputs`.
struct ReducingContract<Output: Equatable, Failure: Error> {
  typealias Upstream = TestPublisher<Int, ReducingTestError>

  let make: (Upstream) -> AnyPublisher<Output, Failure>
  let inputs: [Int]
  /// The value published for `inputs` followed by `.finished`, or `nil` when none is published.
  let expected: Output?
  /// How many of `inputs` are consumed before the operator knows its answer and cancels upstream, if it does.
  let stopsAfter: Int?

  init<P: Publisher>(
    _ make: @escaping (Upstream) -> P,
    inputs: [Int],
    expected: Output?,
    stopsAfter: Int? = nil
  ) where P.Output == Output, P.Failure == Failure {
    self.make = { make($0).eraseToAnyPublisher() }
    self.inputs = inputs
    self.expected = expected
    self.stopsAfter = stopsAfter
  }

  /// The events the operator publishes for `inputs`, as ``TestSubscriber`` describes them.
  private var result: [String] {
    let events: [TestSubscriber<Output, Failure>.Event] =
      (expected.map { [.value($0)] } ?? []) + [.completion(.finished)]
    return events.map(\.description)
  }

  private func subscribe(
    demand: Subscribers.Demand,
    onValue: ((TestSubscriber<Output, Failure>, Output) -> Subscribers.Demand)? = nil
  ) -> (Upstream, TestSubscriber<Output, Failure>) {
    let upstream = Upstream()
    let recorder = TestSubscriber<Output, Failure>(initialDemand: demand, onValue: onValue)
    make(upstream).subscribe(recorder)
    return (upstream, recorder)
  }

  /// Every check below.
  func checkAll(sourceLocation: SourceLocation = #_sourceLocation) {
    checkResultWaitsForDemand(sourceLocation: sourceLocation)
    checkResultWithDemand(sourceLocation: sourceLocation)
    checkUpstreamFailure(sourceLocation: sourceLocation)
    checkCancel(sourceLocation: sourceLocation)
    checkReentrancy(sourceLocation: sourceLocation)
    checkSecondSubscription(sourceLocation: sourceLocation)
    checkMemory(sourceLocation: sourceLocation)
  }

  /// Requests `.unlimited` upstream at once, returns `.none` for each element, and holds the result until
  /// downstream asks.
  func checkResultWaitsForDemand(sourceLocation: SourceLocation = #_sourceLocation) {
    let (upstream, recorder) = subscribe(demand: .none)
    expectEqual(upstream.requestedDemands, [.unlimited], sourceLocation: sourceLocation)
    expectEqual(upstream.cancelCount, 0, sourceLocation: sourceLocation)
    for value in inputs {
      expectEqual(upstream.send(value), .none, sourceLocation: sourceLocation)
    }
    upstream.send(completion: .finished)
    expectEqual(recorder.eventDescriptions, ["subscription"], sourceLocation: sourceLocation)
    recorder.request(.max(1))
    expectEqual(recorder.eventDescriptions, ["subscription"] + result, sourceLocation: sourceLocation)
    recorder.request(.max(1))
    expectEqual(recorder.eventDescriptions, ["subscription"] + result, sourceLocation: sourceLocation)
    expectEqual(upstream.requestedDemands, [.unlimited], sourceLocation: sourceLocation)
    #expect(upstream.cancelCount == (stopsAfter == nil ? 0 : 1), sourceLocation: sourceLocation)
  }

  /// Delivers the result as soon as the reduction ends when downstream has already asked.
  func checkResultWithDemand(sourceLocation: SourceLocation = #_sourceLocation) {
    let (upstream, recorder) = subscribe(demand: .max(1))
    expectEqual(upstream.requestedDemands, [.unlimited], sourceLocation: sourceLocation)
    expectEqual(upstream.cancelCount, 0, sourceLocation: sourceLocation)
    let consumed = stopsAfter ?? inputs.count
    for value in inputs.prefix(consumed) { upstream.send(value) }
    if stopsAfter == nil {
      expectEqual(recorder.eventDescriptions, ["subscription"], sourceLocation: sourceLocation)
      upstream.send(completion: .finished)
    } else {
      expectEqual(upstream.requestedDemands, [.unlimited], sourceLocation: sourceLocation)
      expectEqual(upstream.cancelCount, 1, sourceLocation: sourceLocation)
    }
    expectEqual(recorder.eventDescriptions, ["subscription"] + result, sourceLocation: sourceLocation)
    for value in inputs.dropFirst(consumed) { #expect(upstream.send(value) == .none, sourceLocation: sourceLocation) }
    upstream.send(completion: .failure(.oops))
    expectEqual(recorder.eventDescriptions, ["subscription"] + result, sourceLocation: sourceLocation)
  }

  /// Forwards an upstream failure at once, without a value and without waiting for demand.
  func checkUpstreamFailure(sourceLocation: SourceLocation = #_sourceLocation) {
    let (upstream, recorder) = subscribe(demand: .none)
    upstream.send(inputs.first ?? 0)
    upstream.send(completion: .failure(.oops))
    expectEqual(recorder.eventDescriptions, ["subscription", "failure(oops)"], sourceLocation: sourceLocation)
    recorder.request(.max(1))
    upstream.send(completion: .finished)
    expectEqual(recorder.eventDescriptions, ["subscription", "failure(oops)"], sourceLocation: sourceLocation)
    expectEqual(upstream.requestedDemands, [.unlimited], sourceLocation: sourceLocation)
    expectEqual(upstream.cancelCount, 0, sourceLocation: sourceLocation)
  }

  /// Cancelling cancels upstream once; nothing reaches downstream afterwards.
  func checkCancel(sourceLocation: SourceLocation = #_sourceLocation) {
    let (upstream, recorder) = subscribe(demand: .max(1))
    let subscription = recorder.subscription
    recorder.cancel()
    expectEqual(upstream.requestedDemands, [.unlimited], sourceLocation: sourceLocation)
    expectEqual(upstream.cancelCount, 1, sourceLocation: sourceLocation)
    for value in inputs { #expect(upstream.send(value) == .none, sourceLocation: sourceLocation) }
    upstream.send(completion: .finished)
    subscription?.request(.max(1))
    subscription?.cancel()
    expectEqual(recorder.eventDescriptions, ["subscription"], sourceLocation: sourceLocation)
    expectEqual(upstream.requestedDemands, [.unlimited], sourceLocation: sourceLocation)
    expectEqual(upstream.cancelCount, 1, sourceLocation: sourceLocation)
  }

  /// Requesting, cancelling and sending from inside `receive` are harmless.
  func checkReentrancy(sourceLocation: SourceLocation = #_sourceLocation) {
    var upstreamRef: Upstream?
    let (upstream, recorder) = subscribe(demand: .max(1)) { recorder, _ in
      recorder.subscription?.request(.max(1))
      upstreamRef?.send(42)
      upstreamRef?.send(completion: .finished)
      recorder.subscription?.cancel()
      return .max(1)
    }
    upstreamRef = upstream
    reducingSend(inputs, then: .finished, from: upstream)
    expectEqual(recorder.eventDescriptions, ["subscription"] + result, sourceLocation: sourceLocation)
    upstreamRef = nil

    let (cancelling, cancelled) = subscribe(demand: .none)
    cancelled.cancel()
    cancelled.request(.max(1))
    reducingSend(inputs, then: .finished, from: cancelling)
    expectEqual(cancelled.eventDescriptions, ["subscription"], sourceLocation: sourceLocation)
  }

  /// A second subscription is cancelled and changes nothing.
  func checkSecondSubscription(sourceLocation: SourceLocation = #_sourceLocation) {
    let (upstream, recorder) = subscribe(demand: .max(1))
    let second = TestSubscription()
    upstream.send(subscription: second)
    expectEqual(second.requestedDemands, [], sourceLocation: sourceLocation)
    expectEqual(second.cancelCount, 1, sourceLocation: sourceLocation)
    expectEqual(upstream.requestedDemands, [.unlimited], sourceLocation: sourceLocation)
    expectEqual(upstream.cancelCount, 0, sourceLocation: sourceLocation)
    reducingSend(inputs, then: .finished, from: upstream)
    expectEqual(recorder.eventDescriptions, ["subscription"] + result, sourceLocation: sourceLocation)
  }

  /// The operator's subscription and upstream's are released after completion and after cancel.
  func checkMemory(sourceLocation: SourceLocation = #_sourceLocation) {
    weak var inner: AnyObject?
    weak var upstreamSubscription: AnyObject?
    do {
      let (upstream, recorder) = subscribe(demand: .max(1))
      inner = recorder.subscription as AnyObject?
      upstreamSubscription = upstream.subscriptions.last
      reducingSend(inputs, then: .finished, from: upstream)
      upstream.releaseSubscribers()
      expectEqual(recorder.eventDescriptions, ["subscription"] + result, sourceLocation: sourceLocation)
    }
    #expect(inner == nil, "released after completion", sourceLocation: sourceLocation)
    #expect(upstreamSubscription == nil, "released after completion", sourceLocation: sourceLocation)
    do {
      let (upstream, recorder) = subscribe(demand: .none)
      inner = recorder.subscription as AnyObject?
      upstreamSubscription = upstream.subscriptions.last
      recorder.cancel()
      upstream.releaseSubscribers()
    }
    #expect(inner == nil, "released after cancel", sourceLocation: sourceLocation)
    #expect(upstreamSubscription == nil, "released after cancel", sourceLocation: sourceLocation)
  }
}

/// Subscribes a ``TestSubscriber`` with unlimited demand to `make(upstream)`, sends `inputs` and `completion`, and
/// returns the events it saw as strings (`"value(1)"`, `"finished"`, `"failure(oops)"`), without the leading
/// `"subscription"`.
func reducingRun<P: Publisher>(
  _ make: (TestPublisher<Int, ReducingTestError>) -> P,
  inputs: [Int],
  completion: Subscribers.Completion<ReducingTestError> = .finished
) -> [String] {
  let upstream = TestPublisher<Int, ReducingTestError>()
  let recorder = TestSubscriber<P.Output, P.Failure>()
  make(upstream).subscribe(recorder)
  reducingSend(inputs, then: completion, from: upstream)
  return Array(recorder.eventDescriptions.dropFirst())
}

/// Subscribes a ``TestSubscriber`` with unlimited demand and returns the events that arrived synchronously, as
/// strings, without the leading `"subscription"`.
func reducingEvents<P: Publisher>(_ publisher: P) -> [String] {
  let recorder = TestSubscriber<P.Output, P.Failure>()
  publisher.subscribe(recorder)
  return Array(recorder.eventDescriptions.dropFirst())
}

/// Sends every value from `upstream`, then `completion`.
func reducingSend<Output, Failure: Error>(
  _ values: [Output],
  then completion: Subscribers.Completion<Failure>,
  from upstream: TestPublisher<Output, Failure>
) {
  for value in values { upstream.send(value) }
  upstream.send(completion: completion)
}
