import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

/// A scheduler that prepares repeated actions, as `DispatchQueue` does, and runs what it was given only when told.
///
/// It logs each preparation and each scheduling with its options, and never runs the plain
/// `schedule(options:_:)` path without logging it too, so a test sees which path an operator took.
// SAFETY: all mutable state is in `state`; actions run outside the lock.
private final class PreparingScheduler: RepeatedActionScheduler, @unchecked Sendable {
  typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
  typealias SchedulerOptions = Int

  private struct State {
    var log: [String] = []
    var pending: [() -> Void] = []
  }

  private let state = Locked(State())

  var now: SchedulerTimeType { 0 }

  var minimumTolerance: SchedulerTimeType.Stride { 0 }

  var log: [String] { state.withLock { $0.log } }

  var pendingCount: Int { state.withLock { $0.pending.count } }

  func prepareRepeatedAction(options: Int?, _ action: @escaping () -> Void) -> () -> Void {
    state.withLock { $0.log.append("prepare \(options.map(String.init) ?? "nil")") }
    return { [self] in
      state.withLock { state in
        state.log.append("prepared \(options.map(String.init) ?? "nil")")
        state.pending.append(action)
      }
    }
  }

  func schedule(options: Int?, _ action: @escaping () -> Void) {
    state.withLock { state in
      state.log.append("schedule")
      state.pending.append(action)
    }
  }

  func schedule(
    after date: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride,
    options: Int?,
    _ action: @escaping () -> Void
  ) {
    schedule(options: options, action)
  }

  func schedule(
    after date: SchedulerTimeType,
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: Int?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    schedule(options: options, action)
    return AnyCancellable {}
  }

  /// Runs the oldest pending action; `false` if there was none.
  @discardableResult
  func runFirst() -> Bool {
    guard let action = state.withLock({ $0.pending.isEmpty ? nil : $0.pending.removeFirst() }) else { return false }
    action()
    return true
  }

  /// Runs pending actions, including those they schedule, until none is left.
  func runAll() {
    while runFirst() {}
  }
}

@Suite struct ReceiveOnPreparedActionTests {
  @Test func preparesOnceAndSchedulesEveryEventThroughThePreparedAction() {
    let scheduler = PreparingScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.receive(on: scheduler, options: 3).subscribe(subscriber)
    expectEqual(scheduler.log, ["prepare 3"])
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)
    expectEqual(scheduler.log, ["prepare 3", "prepared 3", "prepared 3", "prepared 3"])
    #expect(subscriber.stampedEvents.isEmpty)
    scheduler.runAll()
    expectEqual(subscriber.stampedEvents, ["1", "2", "finished"])
  }

  @Test func optionsLeftOutArePreparedAsNil() {
    let scheduler = PreparingScheduler()
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.receive(on: scheduler).sink { received.append($0) }
    subject.send(5)
    scheduler.runAll()
    #expect(scheduler.log == ["prepare nil", "prepared nil"])
    expectEqual(received, [5])
    cancellable.cancel()
  }

  @Test func delayStaysOnThePlainPath() {
    let scheduler = PreparingScheduler()
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.delay(for: 1, scheduler: scheduler).sink { received.append($0) }
    subject.send(5)
    scheduler.runAll()
    expectEqual(scheduler.log, ["schedule"])
    expectEqual(received, [5])
    cancellable.cancel()
  }

  @Test func demandReturnedFromAValueGoesUpstreamAfterDelivery() {
    let scheduler = PreparingScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
    upstream.receive(on: scheduler).subscribe(subscriber)
    upstream.send(1)
    expectEqual(upstream.requestedDemands, [.max(1)])
    scheduler.runAll()
    expectEqual(upstream.requestedDemands, [.max(1), .max(2)])
  }

  @Test func reentrantSendFromReceiveIsScheduledAfterTheCurrentValue() {
    let scheduler = PreparingScheduler()
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.receive(on: scheduler).sink { value in
      received.append(value)
      if value == 1 { subject.send(2) }
      received.append(-value)
    }
    subject.send(1)
    scheduler.runFirst()
    expectEqual(received, [1, -1])
    expectEqual(scheduler.pendingCount, 1)
    scheduler.runAll()
    expectEqual(received, [1, -1, 2, -2])
    cancellable.cancel()
  }

  @Test func cancelFromReceiveSilencesTheActionsLeft() {
    let scheduler = PreparingScheduler()
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(onValue: { subscriber, _ in
      subscriber.cancel()
      return .none
    })
    upstream.receive(on: scheduler).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    scheduler.runAll()
    expectEqual(subscriber.stampedEvents, ["1"])
    expectEqual(upstream.cancelCount, 1)
  }

  @Test(arguments: [false, true])
  func pendingActionsKeepThePipelineUntilTheyRunThenFreeIt(cancels: Bool) {
    let scheduler = PreparingScheduler()
    let upstream = TestPublisher<Int, Never>()
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    do {
      let subscriber = TestSubscriber<Int, Never>()
      weakSubscriber = subscriber
      upstream.receive(on: scheduler).subscribe(subscriber)
      upstream.send(1)
      if cancels { subscriber.cancel() } else { upstream.send(completion: .finished) }
    }
    upstream.releaseSubscribers()
    // The actions scheduled for the events still hold the subscription, which holds the subscriber.
    #expect(weakSubscriber != nil)
    scheduler.runAll()
    #expect(weakSubscriber == nil)
    #expect(upstream.cancelCount == (cancels ? 1 : 0))
  }

  @Test func pipelineThatNeverEndsIsFreedWithItsUpstream() {
    final class Witness {}
    let scheduler = PreparingScheduler()
    let upstream = TestPublisher<Int, Never>()
    weak var weakWitness: Witness?
    var received: [Int] = []
    do {
      let witness = Witness()
      weakWitness = witness
      // Keeps no reference to its subscription, so only the upstream holds the pipeline.
      let subscriber = AnySubscriber<Int, Never>(
        receiveSubscription: { $0.request(.unlimited) },
        receiveValue: { value in
          withExtendedLifetime(witness) { received.append(value) }
          return .none
        }
      )
      upstream.receive(on: scheduler).subscribe(subscriber)
      upstream.send(1)
      scheduler.runAll()
    }
    expectEqual(received, [1])
    #expect(weakWitness != nil)
    upstream.releaseSubscribers()
    #expect(weakWitness == nil)
  }
}
