import Foundation
import RillCore
import Testing

/// An error for the reducing operators' tests.
enum ReducingTestError: Error, Equatable {
  case oops
  case thrown
}

/// One event seen by a ``ReducingRecorder``; failures are recorded by description so any error type fits.
enum ReducingEvent<Value: Equatable>: Equatable {
  case subscription
  case value(Value)
  case finished
  case failed(String)
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

/// A subscriber that records events, requests `initialDemand` on subscription, and runs optional hooks.
final class ReducingRecorder<Value: Equatable, Failure: Error>: Subscriber, @unchecked Sendable {
  typealias Input = Value

  private let lock = NSLock()
  private var _events: [ReducingEvent<Value>] = []
  private var _subscription: (any Subscription)?
  private let initialDemand: Subscribers.Demand
  private let onValue: (ReducingRecorder, Value) -> Subscribers.Demand

  init(
    initialDemand: Subscribers.Demand = .unlimited,
    onValue: @escaping (ReducingRecorder, Value) -> Subscribers.Demand = { _, _ in .none }
  ) {
    self.initialDemand = initialDemand
    self.onValue = onValue
  }

  var events: [ReducingEvent<Value>] { lock.withLock { _events } }

  /// The subscription received, until a completion arrives or the recorder cancels.
  var subscription: (any Subscription)? { lock.withLock { _subscription } }

  func receive(subscription: any Subscription) {
    lock.withLock {
      _events.append(.subscription)
      _subscription = subscription
    }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Value) -> Subscribers.Demand {
    lock.withLock { _events.append(.value(input)) }
    return onValue(self, input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      switch completion {
      case .finished: _events.append(.finished)
      case .failure(let error): _events.append(.failed("\(error)"))
      }
      _subscription = nil
    }
  }

  func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }

  func cancel() {
    let subscription = lock.withLock {
      defer { _subscription = nil }
      return _subscription
    }
    subscription?.cancel()
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

  private var result: [ReducingEvent<Output>] {
    (expected.map { [.value($0)] } ?? []) + [.finished]
  }

  private func subscribe(
    demand: Subscribers.Demand,
    onValue: @escaping (ReducingRecorder<Output, Failure>, Output) -> Subscribers.Demand = { _, _ in .none }
  ) -> (Upstream, ReducingRecorder<Output, Failure>) {
    let upstream = Upstream()
    let recorder = ReducingRecorder<Output, Failure>(initialDemand: demand, onValue: onValue)
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
    #expect(recorder.events == [.subscription], sourceLocation: sourceLocation)
    recorder.request(.max(1))
    #expect(recorder.events == [.subscription] + result, sourceLocation: sourceLocation)
    recorder.request(.max(1))
    #expect(recorder.events == [.subscription] + result, sourceLocation: sourceLocation)
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
      #expect(recorder.events == [.subscription], sourceLocation: sourceLocation)
      upstream.send(completion: .finished)
    } else {
      #expect(upstream.events == [.requested(.unlimited), .cancelled], sourceLocation: sourceLocation)
    }
    #expect(recorder.events == [.subscription] + result, sourceLocation: sourceLocation)
    for value in inputs.dropFirst(consumed) { #expect(upstream.send(value) == .none, sourceLocation: sourceLocation) }
    upstream.send(completion: .failure(.oops))
    #expect(recorder.events == [.subscription] + result, sourceLocation: sourceLocation)
  }

  /// Forwards an upstream failure at once, without a value and without waiting for demand.
  func checkUpstreamFailure(sourceLocation: SourceLocation = #_sourceLocation) {
    let (upstream, recorder) = subscribe(demand: .none)
    upstream.send(inputs.first ?? 0)
    upstream.send(completion: .failure(.oops))
    #expect(recorder.events == [.subscription, .failed("oops")], sourceLocation: sourceLocation)
    recorder.request(.max(1))
    upstream.send(completion: .finished)
    #expect(recorder.events == [.subscription, .failed("oops")], sourceLocation: sourceLocation)
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
    #expect(recorder.events == [.subscription], sourceLocation: sourceLocation)
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
    #expect(recorder.events == [.subscription] + result, sourceLocation: sourceLocation)
    upstreamRef = nil

    let (cancelling, cancelled) = subscribe(demand: .none)
    cancelled.cancel()
    cancelled.request(.max(1))
    cancelling.send(inputs, then: .finished)
    #expect(cancelled.events == [.subscription], sourceLocation: sourceLocation)
  }

  /// A second subscription is cancelled and changes nothing.
  func checkSecondSubscription(sourceLocation: SourceLocation = #_sourceLocation) {
    let (upstream, recorder) = subscribe(demand: .max(1))
    let second = upstream.sendSubscription()
    #expect(second.events == [.cancelled], sourceLocation: sourceLocation)
    #expect(upstream.events == [.requested(.unlimited), .cancelled], sourceLocation: sourceLocation)
    #expect(upstream.lastSubscription?.events == [.requested(.unlimited)], sourceLocation: sourceLocation)
    upstream.send(inputs, then: .finished)
    #expect(recorder.events == [.subscription] + result, sourceLocation: sourceLocation)
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
      #expect(recorder.events == [.subscription] + result, sourceLocation: sourceLocation)
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

/// Subscribes a recorder with unlimited demand to `make(upstream)`, sends `inputs` and `completion`, and returns
/// what the recorder saw, without the leading `.subscription`.
func reducingRun<P: Publisher>(
  _ make: (ReducingTestUpstream<Int, ReducingTestError>) -> P,
  inputs: [Int],
  completion: Subscribers.Completion<ReducingTestError> = .finished
) -> [ReducingEvent<P.Output>] where P.Output: Equatable {
  let upstream = ReducingTestUpstream<Int, ReducingTestError>()
  let recorder = ReducingRecorder<P.Output, P.Failure>()
  make(upstream).subscribe(recorder)
  upstream.send(inputs, then: completion)
  return Array(recorder.events.dropFirst())
}

/// Subscribes with unlimited demand and returns what arrived synchronously, without the leading `.subscription`.
func reducingEvents<P: Publisher>(_ publisher: P) -> [ReducingEvent<P.Output>] where P.Output: Equatable {
  let recorder = ReducingRecorder<P.Output, P.Failure>()
  publisher.subscribe(recorder)
  return Array(recorder.events.dropFirst())
}
