@testable import RillCore

/// A virtual time for ``TimeOpsScheduler``, in ticks.
struct TimeOpsTime: Strideable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
  var ticks: Int

  init(_ ticks: Int) { self.ticks = ticks }

  init(integerLiteral value: Int) { ticks = value }

  func distance(to other: TimeOpsTime) -> TimeOpsStride { TimeOpsStride(other.ticks - ticks) }

  func advanced(by n: TimeOpsStride) -> TimeOpsTime { TimeOpsTime(ticks + n.ticks) }

  var description: String { "\(ticks)" }
}

/// A virtual time interval in ticks: one second is 1000 ticks.
struct TimeOpsStride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable,
  ExpressibleByIntegerLiteral, CustomStringConvertible
{
  var ticks: Int

  init(_ ticks: Int) { self.ticks = ticks }

  init(integerLiteral value: Int) { ticks = value }

  init?<T: BinaryInteger>(exactly source: T) {
    guard let ticks = Int(exactly: source) else { return nil }
    self.ticks = ticks
  }

  var magnitude: UInt { ticks.magnitude }

  var description: String { "\(ticks)" }

  static func < (lhs: Self, rhs: Self) -> Bool { lhs.ticks < rhs.ticks }
  static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.ticks + rhs.ticks) }
  static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.ticks - rhs.ticks) }
  static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.ticks * rhs.ticks) }
  static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
  static func seconds(_ s: Int) -> Self { Self(s * 1000) }
  static func seconds(_ s: Double) -> Self { Self(Int(s * 1000)) }
  static func milliseconds(_ ms: Int) -> Self { Self(ms) }
  static func microseconds(_ us: Int) -> Self { Self(us / 1000) }
  static func nanoseconds(_ ns: Int) -> Self { Self(ns / 1_000_000) }
}

/// A deterministic virtual-time scheduler: actions run only when the test advances time.
final class TimeOpsScheduler: Scheduler, @unchecked Sendable {
  typealias SchedulerTimeType = TimeOpsTime
  typealias SchedulerOptions = Int

  private struct Entry {
    let id: Int
    var date: TimeOpsTime
    let interval: TimeOpsStride?
    let action: () -> Void
  }

  private struct State {
    var now: TimeOpsTime = 0
    var nextID = 0
    var entries: [Entry] = []
    var log: [String] = []
  }

  private let state = Locked(State())

  var now: TimeOpsTime { state.withLock { $0.now } }

  var minimumTolerance: TimeOpsStride { 0 }

  /// What was asked of the scheduler: `now`, `after 5`, `every 5 from 5`, with options when given.
  var log: [String] { state.withLock { $0.log } }

  /// How many actions are waiting.
  var pendingCount: Int { state.withLock { $0.entries.count } }

  @discardableResult
  private func add(
    _ date: TimeOpsTime?,
    _ interval: TimeOpsStride?,
    _ options: Int?,
    _ action: @escaping () -> Void
  )
    -> Int
  {
    state.withLock { state in
      let date = date ?? state.now
      let suffix = options.map { " options \($0)" } ?? ""
      if let interval {
        state.log.append("every \(interval) from \(date)\(suffix)")
      } else {
        state.log.append((date == state.now ? "now" : "at \(date)") + suffix)
      }
      state.nextID += 1
      state.entries.append(Entry(id: state.nextID, date: date, interval: interval, action: action))
      return state.nextID
    }
  }

  func schedule(options: Int?, _ action: @escaping () -> Void) {
    add(nil, nil, options, action)
  }

  func schedule(after date: TimeOpsTime, tolerance: TimeOpsStride, options: Int?, _ action: @escaping () -> Void) {
    add(date, nil, options, action)
  }

  func schedule(
    after date: TimeOpsTime,
    interval: TimeOpsStride,
    tolerance: TimeOpsStride,
    options: Int?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let id = add(date, interval, options, action)
    return AnyCancellable { [weak self] in
      self?.state.withLock { $0.entries.removeAll { $0.id == id } }
    }
  }

  /// Runs, in date order, every action due up to `now + stride`, then sets the clock there.
  func advance(by stride: TimeOpsStride = 0) {
    let target = now.advanced(by: stride)
    while true {
      let next = state.withLock { state -> (() -> Void)? in
        guard
          let index = state.entries.indices.filter({ state.entries[$0].date <= target })
            .min(by: { (state.entries[$0].date, state.entries[$0].id) < (state.entries[$1].date, state.entries[$1].id) }
            )
        else {
          state.now = target
          return nil
        }
        let entry = state.entries[index]
        state.now = entry.date
        if let interval = entry.interval {
          state.entries[index].date = entry.date.advanced(by: Swift.max(interval, 1))
        } else {
          state.entries.remove(at: index)
        }
        return entry.action
      }
      guard let next else { return }
      next()
    }
  }
}

/// A hand-written upstream that records demand and cancellation and sends on command.
final class TimeOpsUpstream<Output, Failure: Error>: Publisher, Subscription, @unchecked Sendable {
  private struct State {
    var downstream: AnySubscriber<Output, Failure>?
    var demands: [Subscribers.Demand] = []
    var cancelCount = 0
    var onRequest: ((Int) -> Void)?
  }

  private let state = Locked(State())

  var demands: [Subscribers.Demand] { state.withLock { $0.demands } }

  var cancelCount: Int { state.withLock { $0.cancelCount } }

  func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    state.withLock { $0.downstream = AnySubscriber(subscriber) }
    subscriber.receive(subscription: self)
  }

  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    state.withLock { $0.downstream }?.receive(value) ?? .none
  }

  func send(completion: Subscribers.Completion<Failure>) {
    state.withLock { $0.downstream }?.receive(completion: completion)
  }

  /// Sends a second subscription, as a misbehaving upstream would.
  func sendSubscription(_ subscription: any Subscription) {
    state.withLock { $0.downstream }?.receive(subscription: subscription)
  }

  /// Drops the subscriber, so the pipeline below can be freed.
  func release() {
    state.withLock { $0.downstream = nil }
  }

  /// Called after each request with the number of requests so far.
  var onRequest: ((Int) -> Void)? {
    get { state.withLock { $0.onRequest } }
    set { state.withLock { $0.onRequest = newValue } }
  }

  func request(_ demand: Subscribers.Demand) {
    let (count, onRequest) = state.withLock { state in
      state.demands.append(demand)
      return (state.demands.count, state.onRequest)
    }
    onRequest?(count)
  }

  func cancel() {
    state.withLock { $0.cancelCount += 1 }
  }
}

/// A subscriber recording events with the virtual time they arrived at, with scripted demand.
final class TimeOpsSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  private struct State {
    var subscription: (any Subscription)?
    var events: [String] = []
    var values: [Input] = []
    var completion: Subscribers.Completion<Failure>?
  }

  private let state = Locked(State())
  private let initialDemand: Subscribers.Demand
  private let demandPerValue: Subscribers.Demand
  private let clock: TimeOpsScheduler?
  private let onValue: ((TimeOpsSubscriber, Input) -> Void)?

  init(
    initialDemand: Subscribers.Demand = .unlimited,
    demandPerValue: Subscribers.Demand = .none,
    clock: TimeOpsScheduler? = nil,
    onValue: ((TimeOpsSubscriber, Input) -> Void)? = nil
  ) {
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
    self.clock = clock
    self.onValue = onValue
  }

  /// Events as `"value@time"`, `"finished@time"`, `"failure@time"` (time only when a clock was given).
  var events: [String] { state.withLock { $0.events } }

  var values: [Input] { state.withLock { $0.values } }

  var completion: Subscribers.Completion<Failure>? { state.withLock { $0.completion } }

  var subscription: (any Subscription)? { state.withLock { $0.subscription } }

  private func stamp(_ text: String) -> String {
    clock.map { "\(text)@\($0.now)" } ?? text
  }

  func receive(subscription: any Subscription) {
    state.withLock { $0.subscription = subscription }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let text = stamp("\(input)")
    state.withLock {
      $0.values.append(input)
      $0.events.append(text)
    }
    onValue?(self, input)
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let text: String
    switch completion {
    case .finished: text = stamp("finished")
    case .failure: text = stamp("failure")
    }
    state.withLock {
      $0.completion = completion
      $0.events.append(text)
      $0.subscription = nil
    }
  }

  func cancel() {
    let subscription = state.withLock { state -> (any Subscription)? in
      defer { state.subscription = nil }
      return state.subscription
    }
    subscription?.cancel()
  }
}

/// The failure the time operator tests send.
enum TimeOpsError: Error, Equatable {
  case boom
  case timedOut
}
