import RillTesting

// Small operators that the marble tests need before Rill's own land: they exercise the marble engine, not
// Combine's semantics, and keep to the simplest correct shape.

extension Publisher {
  /// Republishes values while `predicate` holds, then cancels upstream and finishes.
  func testingPrefix(while predicate: @escaping (Output) -> Bool) -> AnyPublisher<Output, Failure> {
    TestingPrefixWhile(upstream: self, predicate: predicate).eraseToAnyPublisher()
  }

  /// Delivers every event `ticks` later on `scheduler`.
  func testingDelay(_ ticks: Int, on scheduler: TestScheduler) -> AnyPublisher<Output, Failure> {
    TestingDelay(upstream: self, ticks: ticks, scheduler: scheduler).eraseToAnyPublisher()
  }

  /// Interleaves two publishers' values; finishes when both finish, fails when either fails.
  func testingMerge<Other: Publisher>(_ other: Other) -> AnyPublisher<Output, Failure>
  where Other.Output == Output, Other.Failure == Failure {
    TestingMerge(first: eraseToAnyPublisher(), second: other.eraseToAnyPublisher()).eraseToAnyPublisher()
  }
}

private struct TestingPrefixWhile<Upstream: Publisher>: Publisher {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure
  let upstream: Upstream
  let predicate: (Output) -> Bool

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let inner = TestingRelay(downstream: subscriber)
    upstream.subscribe(
      AnySubscriber(
        receiveSubscription: { inner.attach($0) },
        receiveValue: { value in
          if predicate(value) { return inner.forward(value) }
          inner.finishEarly()
          return .none
        },
        receiveCompletion: { inner.complete($0) }
      )
    )
  }
}

private struct TestingDelay<Upstream: Publisher>: Publisher {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure
  let upstream: Upstream
  let ticks: Int
  let scheduler: TestScheduler

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let inner = TestingRelay(downstream: subscriber)
    let scheduler = scheduler
    let delay = TestScheduler.SchedulerTimeType.Stride(ticks)
    upstream.subscribe(
      AnySubscriber(
        receiveSubscription: { inner.attach($0) },
        receiveValue: { value in
          scheduler.schedule(after: scheduler.now.advanced(by: delay)) { _ = inner.forward(value) }
          return .none
        },
        receiveCompletion: { completion in
          scheduler.schedule(after: scheduler.now.advanced(by: delay)) { inner.complete(completion) }
        }
      )
    )
  }
}

private struct TestingMerge<Upstream: Publisher>: Publisher {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure
  let first: Upstream
  let second: Upstream

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let inner = TestingRelay(downstream: subscriber, upstreamCount: 2)
    for upstream in [first, second] {
      upstream.subscribe(
        AnySubscriber(
          receiveSubscription: { inner.attach($0) },
          receiveValue: { inner.forward($0) },
          receiveCompletion: { inner.complete($0) }
        )
      )
    }
  }
}

/// Relays events downstream with unlimited demand upstream; not thread-safe, which these tests do not need.
private final class TestingRelay<Downstream: Subscriber>: Subscription {
  let downstream: Downstream
  var upstreams: [any Subscription] = []
  var remainingUpstreams: Int
  var isDone = false

  init(downstream: Downstream, upstreamCount: Int = 1) {
    self.downstream = downstream
    remainingUpstreams = upstreamCount
  }

  func attach(_ subscription: any Subscription) {
    upstreams.append(subscription)
    if upstreams.count == remainingUpstreams { downstream.receive(subscription: self) }
    subscription.request(.unlimited)
  }

  func forward(_ value: Downstream.Input) -> Subscribers.Demand {
    if !isDone { _ = downstream.receive(value) }
    return .none
  }

  func finishEarly() {
    guard !isDone else { return }
    isDone = true
    for upstream in upstreams { upstream.cancel() }
    downstream.receive(completion: .finished)
  }

  func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
    guard !isDone else { return }
    if case .finished = completion {
      remainingUpstreams -= 1
      guard remainingUpstreams == 0 else { return }
    }
    isDone = true
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {}

  func cancel() {
    isDone = true
    for upstream in upstreams { upstream.cancel() }
  }
}
