import RillCore
import RillTestSupport
import RillTesting
import Testing

/// One time operator under test, built on a `TestScheduler` and mapped to strings so all share one table.
// SAFETY: immutable; `make` captures nothing and builds a fresh pipeline on each call.
struct TimingOperatorCase: CustomStringConvertible, @unchecked Sendable {
  let description: String
  /// The demand the operator asks upstream for when its subscriber requests `.max(1)`, then `.max(1)` more.
  let demands: [Subscribers.Demand]
  let make: (TestPublisher<Int, Never>, TestScheduler) -> AnyPublisher<String, Never>

  static let all: [TimingOperatorCase] = [
    TimingOperatorCase("delay", [.max(1), .max(1)]) { $0.delay(for: 2, scheduler: $1) },
    TimingOperatorCase("debounce", [.unlimited]) { $0.debounce(for: 3, scheduler: $1) },
    TimingOperatorCase("throttle latest", [.unlimited]) { $0.throttle(for: 10, scheduler: $1, latest: true) },
    TimingOperatorCase("throttle first", [.unlimited]) { $0.throttle(for: 10, scheduler: $1, latest: false) },
    TimingOperatorCase("timeout", [.max(1), .max(1)]) { $0.timeout(50, scheduler: $1) },
    TimingOperatorCase("measureInterval", [.max(1), .max(1)]) { $0.measureInterval(using: $1) },
    TimingOperatorCase("receive(on:)", [.max(1), .max(1)]) { $0.receive(on: $1) },
    TimingOperatorCase("subscribe(on:)", [.max(1), .max(1)]) { $0.subscribe(on: $1) },
    TimingOperatorCase("collect byTime", [.max(1), .max(1)]) { $0.collect(.byTime($1, 4)) },
    TimingOperatorCase("collect byTimeOrCount", [.max(1), .max(1)]) { $0.collect(.byTimeOrCount($1, 4, 1)) },
  ]

  init<P: Publisher>(
    _ name: String,
    _ demands: [Subscribers.Demand],
    _ make: @escaping (TestPublisher<Int, Never>, TestScheduler) -> P
  ) where P.Failure == Never {
    description = name
    self.demands = demands
    self.make = { make($0, $1).map { "\($0)" }.eraseToAnyPublisher() }
  }
}

/// Re-entrancy, cancellation and memory for every time operator, on virtual time.
@Suite struct TimingOperatorContractTests {
  /// Subscribes and lets a scheduled subscription (subscribe(on:)) arrive.
  private func start(
    _ operatorCase: TimingOperatorCase,
    _ subscriber: TestSubscriber<String, Never>
  ) -> (TestPublisher<Int, Never>, TestScheduler) {
    let upstream = TestPublisher<Int, Never>()
    let scheduler = TestScheduler()
    operatorCase.make(upstream, scheduler).subscribe(subscriber)
    scheduler.advance()
    return (upstream, scheduler)
  }

  @Test(arguments: TimingOperatorCase.all) func sendFromInsideReceiveIsDelivered(_ operatorCase: TimingOperatorCase) {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<String, Never>(onValue: { subscriber, _ in
      if subscriber.values.count == 1 { upstream.send(2) }
      return .none
    })
    let scheduler = TestScheduler()
    operatorCase.make(upstream, scheduler).subscribe(subscriber)
    scheduler.advance()
    upstream.send(1)
    scheduler.advance(by: 30)
    expectEqual(subscriber.values.count, 2, "\(subscriber.stampedEvents)")
    expectEqual(upstream.cancelCount, 0)
  }

  @Test(arguments: TimingOperatorCase.all) func requestFromInsideReceive(_ operatorCase: TimingOperatorCase) {
    let subscriber = TestSubscriber<String, Never>(
      initialDemand: .max(1),
      onValue: { subscriber, _ in
        if subscriber.values.count == 1 { subscriber.subscription?.request(.max(1)) }
        return .none
      }
    )
    let (upstream, scheduler) = start(operatorCase, subscriber)
    upstream.send(1)
    scheduler.advance(by: 30)
    scheduler.advance()
    upstream.send(2)
    scheduler.advance(by: 30)
    expectEqual(upstream.requestedDemands, operatorCase.demands)
    expectEqual(subscriber.values.count, 2, "\(subscriber.stampedEvents)")
  }

  @Test(arguments: TimingOperatorCase.all) func cancelFromInsideReceive(_ operatorCase: TimingOperatorCase) {
    let subscriber = TestSubscriber<String, Never>(onValue: { subscriber, _ in
      subscriber.cancel()
      return .none
    })
    let (upstream, scheduler) = start(operatorCase, subscriber)
    upstream.send(1)
    scheduler.advance(by: 30)
    upstream.send(2)
    upstream.send(3)
    upstream.send(completion: .finished)
    scheduler.advance(by: 100)
    expectEqual(subscriber.values.count, 1, "\(subscriber.stampedEvents)")
    #expect(subscriber.completion == nil)
    scheduler.advance()
    expectEqual(upstream.cancelCount, 1)
  }

  @Test(arguments: TimingOperatorCase.all) func silenceAfterCancel(_ operatorCase: TimingOperatorCase) {
    let subscriber = TestSubscriber<String, Never>()
    let (upstream, scheduler) = start(operatorCase, subscriber)
    upstream.send(1)
    subscriber.cancel()
    let before = subscriber.stampedEvents
    upstream.send(2)
    upstream.send(completion: .finished)
    scheduler.advance(by: 100)
    expectEqual(subscriber.stampedEvents, before)
    expectEqual(upstream.cancelCount, 1)
    expectEqual(scheduler.scheduledActionCount, 0)
  }

  @Test(arguments: TimingOperatorCase.all, [false, true])
  func pipelineIsFreedAfterCompletionOrCancel(_ operatorCase: TimingOperatorCase, cancels: Bool) {
    weak var weakSubscriber: TestSubscriber<String, Never>?
    weak var weakSubscription: AnyObject?
    let upstream = TestPublisher<Int, Never>()
    let scheduler = TestScheduler()
    do {
      let subscriber = TestSubscriber<String, Never>()
      weakSubscriber = subscriber
      operatorCase.make(upstream, scheduler).subscribe(subscriber)
      scheduler.advance()
      weakSubscription = subscriber.subscription.map { $0 as AnyObject }
      #expect(weakSubscription != nil)
      upstream.send(1)
      if cancels {
        subscriber.cancel()
      } else {
        upstream.send(completion: .finished)
      }
      scheduler.advance(by: 100)
      if !cancels {
        expectEqual(subscriber.completion, .finished)
      }
    }
    upstream.releaseSubscribers()
    #expect(weakSubscriber == nil)
    #expect(weakSubscription == nil)
    if cancels {
      expectEqual(upstream.cancelCount, 1)
    }
    expectEqual(scheduler.scheduledActionCount, 0)
  }
}
