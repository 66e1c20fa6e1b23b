/// When a subscriber subscribed to a test publisher, and when it cancelled.
///
/// ``TestPublisher/subscriptionRecords`` and ``MarblePublisher/subscriptionRecords`` keep one per subscriber, in
/// subscription order. A test writes the expected log with ranges of virtual time: `SubscriptionRecord(2...7)`
/// for a subscriber that subscribed at tick 2 and cancelled at tick 7, `SubscriptionRecord(2...)` for one that
/// is still subscribed:
///
/// ```swift
/// let scheduler = TestScheduler()
/// let source = try scheduler.marbleSource("-a-b-c-|")
/// let subscriber = TestSubscriber<String, MarbleError>(scheduler: scheduler)
/// source.prefix(2).subscribe(subscriber)
/// scheduler.run()
/// #expect(source.subscriptionRecords == [SubscriptionRecord(0...3)])
/// ```
///
/// Only a cancellation ends a subscription here: a subscriber that received a completion and never cancelled
/// stays `2...`, since a Combine subscriber has no need to cancel after a completion. The times come from the
/// publisher's scheduler; without one they are `nil`, and the record only says whether the subscriber
/// cancelled.
public struct SubscriptionRecord: Hashable, Sendable, CustomStringConvertible {
  /// The scheduler's time when the subscriber subscribed, or `nil` without a scheduler.
  public let subscriptionTime: TestScheduler.SchedulerTimeType?

  /// The scheduler's time of the first cancellation, or `nil` if the subscriber has not cancelled or there is
  /// no scheduler.
  public let cancellationTime: TestScheduler.SchedulerTimeType?

  /// Whether the subscriber has cancelled.
  public let isCancelled: Bool

  /// Creates the record of a subscriber that subscribed at the range's lower bound and cancelled at its upper
  /// bound: `SubscriptionRecord(2...7)`.
  ///
  /// - Parameter times: The subscription time through the cancellation time.
  public init(_ times: ClosedRange<TestScheduler.SchedulerTimeType>) {
    self.init(subscribedAt: times.lowerBound, cancelledAt: times.upperBound, isCancelled: true)
  }

  /// Creates the record of a subscriber that subscribed at the range's lower bound and has not cancelled:
  /// `SubscriptionRecord(2...)`.
  ///
  /// - Parameter times: The subscription time onwards.
  public init(_ times: PartialRangeFrom<TestScheduler.SchedulerTimeType>) {
    self.init(subscribedAt: times.lowerBound, cancelledAt: nil, isCancelled: false)
  }

  /// Creates the record of a subscription to a publisher without a scheduler, which has no times.
  ///
  /// - Parameter isCancelled: Whether the subscriber has cancelled.
  public init(isCancelled: Bool) {
    self.init(subscribedAt: nil, cancelledAt: nil, isCancelled: isCancelled)
  }

  init(
    subscribedAt subscriptionTime: TestScheduler.SchedulerTimeType?,
    cancelledAt cancellationTime: TestScheduler.SchedulerTimeType?,
    isCancelled: Bool
  ) {
    self.subscriptionTime = subscriptionTime
    self.cancellationTime = cancellationTime
    self.isCancelled = isCancelled
  }

  /// The record with its cancellation at `time`, if it was not already cancelled.
  func cancelled(at time: TestScheduler.SchedulerTimeType?) -> SubscriptionRecord {
    isCancelled ? self : SubscriptionRecord(subscribedAt: subscriptionTime, cancelledAt: time, isCancelled: true)
  }

  /// `2...7` for a subscriber that subscribed at tick 2 and cancelled at tick 7, `2...` for one still
  /// subscribed; without times, `subscribed` or `cancelled`.
  public var description: String {
    guard let subscriptionTime else { return isCancelled ? "cancelled" : "subscribed" }
    guard isCancelled else { return "\(subscriptionTime)..." }
    return "\(subscriptionTime)...\(cancellationTime.map(\.description) ?? "?")"
  }
}
