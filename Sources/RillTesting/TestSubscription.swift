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
/// subscription after cancelling forms a reference cycle that a memory test will catch.
// SAFETY: all mutable state is in `state`; the hooks are called outside the lock.
public final class TestSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
  private struct State {
    var requestedDemands: [Subscribers.Demand] = []
    var cancelCount = 0
    var retainedSubscriber: Any?
  }

  private let state: Locked<State>
  private let onRequest: ((Subscribers.Demand) -> Void)?
  private let onCancel: (() -> Void)?

  /// Creates a recording subscription.
  ///
  /// - Parameters:
  ///   - onRequest: Runs after each request is recorded.
  ///   - onCancel: Runs after each cancellation is recorded.
  public convenience init(
    onRequest: ((Subscribers.Demand) -> Void)? = nil,
    onCancel: (() -> Void)? = nil
  ) {
    self.init(retaining: nil, onRequest: onRequest, onCancel: onCancel)
  }

  init(retaining subscriber: Any?, onRequest: ((Subscribers.Demand) -> Void)?, onCancel: (() -> Void)?) {
    state = Locked(State(retainedSubscriber: subscriber))
    self.onRequest = onRequest
    self.onCancel = onCancel
  }

  /// Records the demand, then runs `onRequest`.
  public func request(_ demand: Subscribers.Demand) {
    state.withLock { $0.requestedDemands.append(demand) }
    onRequest?(demand)
  }

  /// Records the cancellation, then runs `onCancel`.
  public func cancel() {
    state.withLock { $0.cancelCount += 1 }
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
  public var requestedDemands: [Subscribers.Demand] { state.withLock { $0.requestedDemands } }

  /// The sum of ``requestedDemands``.
  public var totalDemand: Subscribers.Demand { requestedDemands.reduce(.none, +) }

  /// The number of calls to ``cancel()``.
  public var cancelCount: Int { state.withLock { $0.cancelCount } }

  /// Whether ``cancel()`` has been called.
  public var isCancelled: Bool { cancelCount > 0 }

  /// The requested demands and the cancel count, for test failure messages.
  public var description: String {
    state.withLock { "TestSubscription(requested: \($0.requestedDemands), cancelled: \($0.cancelCount))" }
  }
}
