/// A subscription that records the demand requested from it and its cancellations.
///
/// ``TestPublisher`` hands one to each subscriber. A test can also make one itself, to send as an unwanted
/// second subscription and check that an operator cancels it:
///
/// ```swift
/// let extra = TestSubscription()
/// upstream.send(subscription: extra)
/// #expect(extra.isCancelled)
/// ```
///
/// It holds on to the subscriber it serves (as a real subscription does), so a subscriber that keeps its
/// subscription after cancelling forms a reference cycle that a memory test will catch. Given a scheduler, it
/// stamps each request with the scheduler's virtual time in ``demandRecords``.
// SAFETY: all mutable state is in `state`; the hooks are called outside the lock.
public final class TestSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
  private struct State {
    var demandRecords: [DemandRecord] = []
    var cancelCount = 0
    var record: SubscriptionRecord
    var retainedSubscriber: Any?
  }

  private let state: Locked<State>

  /// The scheduler whose clock stamps the requests, if any.
  public let scheduler: TestScheduler?

  private let onRequest: ((Subscribers.Demand) -> Void)?
  private let onCancel: (() -> Void)?

  /// Creates a recording subscription.
  ///
  /// - Parameters:
  ///   - scheduler: A scheduler whose time stamps each request; `nil` records no times.
  ///   - onRequest: Runs after each request is recorded.
  ///   - onCancel: Runs after each cancellation is recorded.
  public convenience init(
    scheduler: TestScheduler? = nil,
    onRequest: ((Subscribers.Demand) -> Void)? = nil,
    onCancel: (() -> Void)? = nil
  ) {
    self.init(retaining: nil, scheduler: scheduler, onRequest: onRequest, onCancel: onCancel)
  }

  init(
    retaining subscriber: Any?,
    scheduler: TestScheduler?,
    onRequest: ((Subscribers.Demand) -> Void)?,
    onCancel: (() -> Void)?
  ) {
    let record = SubscriptionRecord(subscribedAt: scheduler?.now, cancelledAt: nil, isCancelled: false)
    state = Locked(State(record: record, retainedSubscriber: subscriber))
    self.scheduler = scheduler
    self.onRequest = onRequest
    self.onCancel = onCancel
  }

  /// Records the demand, then runs `onRequest`.
  public func request(_ demand: Subscribers.Demand) {
    let time = scheduler?.now
    state.withLock { $0.demandRecords.append(DemandRecord(demand, at: time)) }
    onRequest?(demand)
  }

  /// Records the cancellation, then runs `onCancel`.
  public func cancel() {
    let time = scheduler?.now
    state.withLock { state in
      state.cancelCount += 1
      state.record = state.record.cancelled(at: time)
    }
    onCancel?()
  }

  /// Lets go of the subscriber this subscription serves.
  func releaseSubscriber() {
    let subscriber = state.withLock { state -> Any? in
      defer { state.retainedSubscriber = nil }
      return state.retainedSubscriber
    }
    _ = subscriber
  }

  /// Every demand requested, in order, including any `.none` (which a well-behaved subscriber never sends).
  public var requestedDemands: [Subscribers.Demand] { demandRecords.map(\.demand) }

  /// Every demand requested, in order, with the scheduler's time of the request (`nil` without a scheduler).
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let subscription = TestSubscription(scheduler: scheduler)
  /// subscription.request(.max(1))
  /// scheduler.advance(by: 3)
  /// subscription.request(.max(2))
  /// #expect(subscription.demandRecords == [DemandRecord(.max(1), at: 0), DemandRecord(.max(2), at: 3)])
  /// ```
  public var demandRecords: [DemandRecord] { state.withLock { $0.demandRecords } }

  /// The sum of ``requestedDemands``.
  public var totalDemand: Subscribers.Demand { requestedDemands.reduce(.none, +) }

  /// When the subscription was made and when it was first cancelled.
  var subscriptionRecord: SubscriptionRecord { state.withLock { $0.record } }

  /// The number of calls to ``cancel()``.
  public var cancelCount: Int { state.withLock { $0.cancelCount } }

  /// Whether ``cancel()`` has been called.
  public var isCancelled: Bool { cancelCount > 0 }

  /// The requested demands and the cancel count, for test failure messages.
  public var description: String {
    state.withLock { "TestSubscription(requested: \($0.demandRecords.map(\.demand)), cancelled: \($0.cancelCount))" }
  }
}
