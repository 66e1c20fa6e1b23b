import Foundation
import RillCore
import RillTesting
import Testing

/// An error for the reducing operators' tests.
enum ReducingTestError: Error, Equatable {
  case oops
  case thrown
}

/// One event seen by a ``ReducingTestUpstream``'s subscription.
enum ReducingUpstreamEvent: Equatable {
  case requested(Subscribers.Demand)
  case cancelled
}

/// A hand-written upstream: hands its subscriber a subscription that records demand and cancellation, and sends
/// whatever the test tells it to, even after a cancel (to check that operators ignore it).
final class ReducingTestUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
  private let lock = NSLock()
  private var _events: [ReducingUpstreamEvent] = []
  private var subscriber: AnySubscriber<Output, Failure>?
  private(set) weak var lastSubscription: ReducingTestSubscription<Output, Failure>?

  init() {}

  /// What the operator did to its upstream subscription.
  var events: [ReducingUpstreamEvent] { lock.withLock { _events } }

  func record(_ event: ReducingUpstreamEvent) { lock.withLock { _events.append(event) } }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    lock.withLock { self.subscriber = AnySubscriber(subscriber) }
    let subscription = ReducingTestSubscription(upstream: self)
    lastSubscription = subscription
    subscriber.receive(subscription: subscription)
  }

  /// Sends a second subscription to the subscriber; returns it so the test can check it was cancelled.
  func sendSubscription() -> ReducingTestSubscription<Output, Failure> {
    let subscription = ReducingTestSubscription(upstream: self)
    current?.receive(subscription: subscription)
    return subscription
  }

  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    current?.receive(value) ?? .none
  }

  func send(completion: Subscribers.Completion<Failure>) {
    current?.receive(completion: completion)
  }

  /// Sends every value, then finishes.
  func send(_ values: [Output], then completion: Subscribers.Completion<Failure> = .finished) {
    for value in values { send(value) }
    send(completion: completion)
  }

  /// Drops the subscriber, as a real publisher does after completion or cancellation.
  func detach() { lock.withLock { subscriber = nil } }

  private var current: AnySubscriber<Output, Failure>? { lock.withLock { subscriber } }
}

/// The subscription handed out by ``ReducingTestUpstream``.
final class ReducingTestSubscription<Output, Failure: Error>: Subscription, @unchecked Sendable {
  private let upstream: ReducingTestUpstream<Output, Failure>
  private let lock = NSLock()
  private var _events: [ReducingUpstreamEvent] = []

  init(upstream: ReducingTestUpstream<Output, Failure>) {
    self.upstream = upstream
  }

  /// What was done to this subscription alone.
  var events: [ReducingUpstreamEvent] { lock.withLock { _events } }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { _events.append(.requested(demand)) }
    upstream.record(.requested(demand))
  }

  func cancel() {
    lock.withLock { _events.append(.cancelled) }
    upstream.record(.cancelled)
  }
}

/// Runs the checks every reducing operator must pass, given how to build it and what it should publish for
/// `inputs`.
struct ReducingContract<Output: Equatable, Failure: Error> {
  typealias Upstream = ReducingTestUpstream<Int, ReducingTestError>

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
    #expect(upstream.events == [.requested(.unlimited)], sourceLocation: sourceLocation)
    for value in inputs {
      #expect(upstream.send(value) == .none, sourceLocation: sourceLocation)
    }
    upstream.send(completion: .finished)
    #expect(recorder.eventDescriptions == ["subscription"], sourceLocation: sourceLocation)
    recorder.request(.max(1))
    #expect(recorder.eventDescriptions == ["subscription"] + result, sourceLocation: sourceLocation)
    recorder.request(.max(1))
    #expect(recorder.eventDescriptions == ["subscription"] + result, sourceLocation: sourceLocation)
    let upstreamEvents: [ReducingUpstreamEvent] = stopsAfter == nil ? [] : [.cancelled]
    #expect(upstream.events == [.requested(.unlimited)] + upstreamEvents, sourceLocation: sourceLocation)
  }

  /// Delivers the result as soon as the reduction ends when downstream has already asked.
  func checkResultWithDemand(sourceLocation: SourceLocation = #_sourceLocation) {
    let (upstream, recorder) = subscribe(demand: .max(1))
    #expect(upstream.events == [.requested(.unlimited)], sourceLocation: sourceLocation)
    let consumed = stopsAfter ?? inputs.count
    for value in inputs.prefix(consumed) { upstream.send(value) }
    if stopsAfter == nil {
      #expect(recorder.eventDescriptions == ["subscription"], sourceLocation: sourceLocation)
      upstream.send(completion: .finished)
    } else {
      #expect(upstream.events == [.requested(.unlimited), .cancelled], sourceLocation: sourceLocation)
    }
    #expect(recorder.eventDescriptions == ["subscription"] + result, sourceLocation: sourceLocation)
    for value in inputs.dropFirst(consumed) { #expect(upstream.send(value) == .none, sourceLocation: sourceLocation) }
    upstream.send(completion: .failure(.oops))
    #expect(recorder.eventDescriptions == ["subscription"] + result, sourceLocation: sourceLocation)
  }

  /// Forwards an upstream failure at once, without a value and without waiting for demand.
  func checkUpstreamFailure(sourceLocation: SourceLocation = #_sourceLocation) {
    let (upstream, recorder) = subscribe(demand: .none)
    upstream.send(inputs.first ?? 0)
    upstream.send(completion: .failure(.oops))
    #expect(recorder.eventDescriptions == ["subscription", "failure(oops)"], sourceLocation: sourceLocation)
    recorder.request(.max(1))
    upstream.send(completion: .finished)
    #expect(recorder.eventDescriptions == ["subscription", "failure(oops)"], sourceLocation: sourceLocation)
    #expect(upstream.events == [.requested(.unlimited)], sourceLocation: sourceLocation)
  }

  /// Cancelling cancels upstream once; nothing reaches downstream afterwards.
  func checkCancel(sourceLocation: SourceLocation = #_sourceLocation) {
    let (upstream, recorder) = subscribe(demand: .max(1))
    let subscription = recorder.subscription
    recorder.cancel()
    #expect(upstream.events == [.requested(.unlimited), .cancelled], sourceLocation: sourceLocation)
    for value in inputs { #expect(upstream.send(value) == .none, sourceLocation: sourceLocation) }
    upstream.send(completion: .finished)
    subscription?.request(.max(1))
    subscription?.cancel()
    #expect(recorder.eventDescriptions == ["subscription"], sourceLocation: sourceLocation)
    #expect(upstream.events == [.requested(.unlimited), .cancelled], sourceLocation: sourceLocation)
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
    upstream.send(inputs, then: .finished)
    #expect(recorder.eventDescriptions == ["subscription"] + result, sourceLocation: sourceLocation)
    upstreamRef = nil

    let (cancelling, cancelled) = subscribe(demand: .none)
    cancelled.cancel()
    cancelled.request(.max(1))
    cancelling.send(inputs, then: .finished)
    #expect(cancelled.eventDescriptions == ["subscription"], sourceLocation: sourceLocation)
  }

  /// A second subscription is cancelled and changes nothing.
  func checkSecondSubscription(sourceLocation: SourceLocation = #_sourceLocation) {
    let (upstream, recorder) = subscribe(demand: .max(1))
    let second = upstream.sendSubscription()
    #expect(second.events == [.cancelled], sourceLocation: sourceLocation)
    #expect(upstream.events == [.requested(.unlimited), .cancelled], sourceLocation: sourceLocation)
    #expect(upstream.lastSubscription?.events == [.requested(.unlimited)], sourceLocation: sourceLocation)
    upstream.send(inputs, then: .finished)
    #expect(recorder.eventDescriptions == ["subscription"] + result, sourceLocation: sourceLocation)
  }

  /// The operator's subscription and upstream's are released after completion and after cancel.
  func checkMemory(sourceLocation: SourceLocation = #_sourceLocation) {
    weak var inner: AnyObject?
    weak var upstreamSubscription: AnyObject?
    do {
      let (upstream, recorder) = subscribe(demand: .max(1))
      inner = recorder.subscription as AnyObject?
      upstreamSubscription = upstream.lastSubscription
      upstream.send(inputs, then: .finished)
      upstream.detach()
      #expect(recorder.eventDescriptions == ["subscription"] + result, sourceLocation: sourceLocation)
    }
    #expect(inner == nil, "released after completion", sourceLocation: sourceLocation)
    #expect(upstreamSubscription == nil, "released after completion", sourceLocation: sourceLocation)
    do {
      let (upstream, recorder) = subscribe(demand: .none)
      inner = recorder.subscription as AnyObject?
      upstreamSubscription = upstream.lastSubscription
      recorder.cancel()
      upstream.detach()
    }
    #expect(inner == nil, "released after cancel", sourceLocation: sourceLocation)
    #expect(upstreamSubscription == nil, "released after cancel", sourceLocation: sourceLocation)
  }
}

/// Subscribes a ``TestSubscriber`` with unlimited demand to `make(upstream)`, sends `inputs` and `completion`, and
/// returns the events it saw as strings (`"value(1)"`, `"finished"`, `"failure(oops)"`), without the leading
/// `"subscription"`.
func reducingRun<P: Publisher>(
  _ make: (ReducingTestUpstream<Int, ReducingTestError>) -> P,
  inputs: [Int],
  completion: Subscribers.Completion<ReducingTestError> = .finished
) -> [String] {
  let upstream = ReducingTestUpstream<Int, ReducingTestError>()
  let recorder = TestSubscriber<P.Output, P.Failure>()
  make(upstream).subscribe(recorder)
  upstream.send(inputs, then: completion)
  return Array(recorder.eventDescriptions.dropFirst())
}

/// Subscribes a ``TestSubscriber`` with unlimited demand and returns the events that arrived synchronously, as
/// strings, without the leading `"subscription"`.
func reducingEvents<P: Publisher>(_ publisher: P) -> [String] {
  let recorder = TestSubscriber<P.Output, P.Failure>()
  publisher.subscribe(recorder)
  return Array(recorder.eventDescriptions.dropFirst())
}
