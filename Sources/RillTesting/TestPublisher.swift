/// A publisher driven by hand from a test, which records what its subscribers ask of it.
///
/// Each subscriber gets a ``TestSubscription`` right away. The test then sends values, completions or an extra
/// subscription with ``send(_:)``, ``send(completion:)`` and ``send(subscription:)``. These go to every
/// subscriber so far, whatever its demand and even after it cancelled or completed, so a test can play a
/// misbehaving upstream and check that an operator stays quiet. To play a well-behaved upstream, send only
/// while ``pendingDemand`` is above zero and stop after cancellation.
///
/// ```swift
/// let upstream = TestPublisher<Int, Never>()
/// let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
/// upstream.prefix { $0 < 10 }.subscribe(subscriber)
/// #expect(upstream.requestedDemands == [.max(2)])
/// upstream.send(1)
/// subscriber.cancel()
/// #expect(upstream.isCancelled)
/// upstream.send(2)                      // after cancel: prefix must not forward it
/// #expect(subscriber.values == [1])
/// ```
///
/// Given a scheduler, it stamps each request with the scheduler's virtual time in ``demandRecords``, and each
/// subscription and cancellation in ``subscriptionRecords``.
///
/// The publisher keeps its subscribers (and each subscription keeps its subscriber) until the test calls
/// ``releaseSubscribers()``, as a real publisher lets go after completing. A memory test calls it, or lets
/// the publisher go, before checking that the pipeline's objects are gone; letting the publisher go is the
/// stricter check, since the subscriptions then still hold their subscribers and a subscriber that keeps
/// its subscription forms a cycle. A subscription does not keep its publisher: keep the publisher for as long as
/// the test sends through it or reads its records.
// SAFETY: all mutable state is in `state`; subscribers and hooks are called outside the lock.
public final class TestPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible, @unchecked Sendable {
  private struct Entry {
    let subscriber: AnySubscriber<Output, Failure>
    let subscription: TestSubscription
  }

  private struct State {
    var entries: [Entry] = []
    /// Subscriptions whose subscribers were released, kept for their records.
    var released: [TestSubscription] = []
    var demandRecords: [DemandRecord] = []
    var returnedDemand = Subscribers.Demand.none
    var sentValueCount = 0
    var cancelCount = 0
  }

  private let state = Locked(State())

  /// The scheduler whose clock stamps the requests, if any; each subscription gets it too.
  public let scheduler: TestScheduler?

  private let onRequest: ((TestPublisher, Subscribers.Demand) -> Void)?
  private let onCancel: ((TestPublisher) -> Void)?

  /// Creates a test publisher with no subscribers.
  ///
  /// The hooks let a test react like a synchronous upstream does, for example by sending values from inside
  /// a request; they receive the publisher, so they need not capture it.
  ///
  /// - Parameters:
  ///   - scheduler: A scheduler whose time stamps each request; `nil` records no times.
  ///   - onRequest: Runs after a subscriber's request is recorded.
  ///   - onCancel: Runs after a subscriber's cancellation is recorded.
  public init(
    scheduler: TestScheduler? = nil,
    onRequest: ((TestPublisher, Subscribers.Demand) -> Void)? = nil,
    onCancel: ((TestPublisher) -> Void)? = nil
  ) {
    self.scheduler = scheduler
    self.onRequest = onRequest
    self.onCancel = onCancel
  }

  /// Records the subscriber and sends it a new ``TestSubscription``.
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let erased = AnySubscriber(subscriber)
    let subscription = TestSubscription(
      retaining: erased,
      scheduler: scheduler,
      onRequest: { [weak self] demand in self?.subscriptionRequested(demand) },
      onCancel: { [weak self] in self?.subscriptionCancelled() }
    )
    state.withLock { $0.entries.append(Entry(subscriber: erased, subscription: subscription)) }
    erased.receive(subscription: subscription)
  }

  private func subscriptionRequested(_ demand: Subscribers.Demand) {
    let time = scheduler?.now
    state.withLock { $0.demandRecords.append(DemandRecord(demand, at: time)) }
    onRequest?(self, demand)
  }

  private func subscriptionCancelled() {
    state.withLock { $0.cancelCount += 1 }
    onCancel?(self)
  }

  // MARK: Sending

  /// Sends a value to every subscriber, whatever its demand, and returns the sum of the demands they return.
  ///
  /// - Parameter value: The value to send.
  /// - Returns: The total demand the subscribers returned for it.
  @discardableResult
  public func send(_ value: Output) -> Subscribers.Demand {
    let subscribers = state.withLock { state -> [AnySubscriber<Output, Failure>] in
      state.sentValueCount += 1
      return state.entries.map(\.subscriber)
    }
    var total = Subscribers.Demand.none
    for subscriber in subscribers {
      total += subscriber.receive(value)
    }
    state.withLock { $0.returnedDemand += total }
    return total
  }

  /// Sends a completion to every subscriber, even one that already completed or cancelled.
  ///
  /// - Parameter completion: The completion to send.
  public func send(completion: Subscribers.Completion<Failure>) {
    for subscriber in subscribers {
      subscriber.receive(completion: completion)
    }
  }

  /// Sends an additional subscription to every subscriber, which a well-behaved subscriber cancels.
  ///
  /// - Parameter subscription: The extra subscription, typically a fresh ``TestSubscription``.
  public func send(subscription: any Subscription) {
    for subscriber in subscribers {
      subscriber.receive(subscription: subscription)
    }
  }

  /// Lets go of every subscriber so far, as a publisher does after it completes; later sends reach only
  /// subscribers that arrive afterwards.
  ///
  /// The recorded demands and cancellations stay.
  public func releaseSubscribers() {
    let entries = state.withLock { state -> [Entry] in
      defer { state.entries = [] }
      state.released += state.entries.map(\.subscription)
      return state.entries
    }
    for entry in entries { entry.subscription.releaseSubscriber() }
  }

  // MARK: Accessors

  /// Every subscriber not yet released, in subscription order.
  public var subscribers: [AnySubscriber<Output, Failure>] { state.withLock { $0.entries.map(\.subscriber) } }

  /// The subscription handed to each subscriber, in subscription order, including released ones.
  public var subscriptions: [TestSubscription] { state.withLock { $0.released + $0.entries.map(\.subscription) } }

  /// When each subscriber subscribed and when it cancelled, in subscription order, including released ones.
  ///
  /// Times come from the publisher's scheduler, and are `nil` without one. Only a cancellation ends a record:
  /// sending a completion or releasing the subscribers does not.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
  /// let subscriber = TestSubscriber<Int, Never>()
  /// scheduler.advance(by: 2)
  /// upstream.subscribe(subscriber)
  /// scheduler.advance(by: 5)
  /// subscriber.cancel()
  /// upstream.subscribe(TestSubscriber<Int, Never>())
  /// #expect(upstream.subscriptionRecords == [SubscriptionRecord(2...7), SubscriptionRecord(7...)])
  /// ```
  public var subscriptionRecords: [SubscriptionRecord] { subscriptions.map(\.subscriptionRecord) }

  /// The number of subscribers so far, including released ones.
  public var subscriberCount: Int { state.withLock { $0.released.count + $0.entries.count } }

  /// Every demand requested through any subscription, in order.
  public var requestedDemands: [Subscribers.Demand] { demandRecords.map(\.demand) }

  /// Every demand requested through any subscription, in order, with the scheduler's time of the request
  /// (`nil` without a scheduler).
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let upstream = TestPublisher<Int, Never>(scheduler: scheduler)
  /// let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
  /// upstream.subscribe(subscriber)
  /// scheduler.advance(by: 3)
  /// subscriber.request(.max(1))
  /// #expect(upstream.demandRecords == [DemandRecord(.max(1), at: 0), DemandRecord(.max(1), at: 3)])
  /// ```
  public var demandRecords: [DemandRecord] { state.withLock { $0.demandRecords } }

  /// All demand granted so far: the requested demands plus the demands returned from sent values.
  public var totalDemand: Subscribers.Demand {
    state.withLock { $0.demandRecords.map(\.demand).reduce($0.returnedDemand, +) }
  }

  /// The demand granted and not yet used by sent values, summed over subscribers.
  ///
  /// With one subscriber, this is how many more values a well-behaved upstream may send now.
  public var pendingDemand: Subscribers.Demand {
    state.withLock { state in
      state.demandRecords.map(\.demand).reduce(state.returnedDemand, +) - .max(state.sentValueCount)
    }
  }

  /// The number of cancellations through any subscription.
  public var cancelCount: Int { state.withLock { $0.cancelCount } }

  /// Whether any subscription has been cancelled.
  public var isCancelled: Bool { cancelCount > 0 }

  /// The subscriber count, requested demands and cancel count, for test failure messages.
  public var description: String {
    state.withLock {
      "TestPublisher(subscribers: \($0.released.count + $0.entries.count), requested: \($0.demandRecords.map(\.demand)), cancelled: \($0.cancelCount))"
    }
  }
}
