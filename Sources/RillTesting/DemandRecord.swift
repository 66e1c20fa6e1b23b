/// A demand requested from a subscription, with the virtual time it was requested at.
///
/// ``TestSubscriber``, ``TestPublisher`` and ``TestSubscription`` log each request as one of these in
/// `demandRecords`, next to the plain `requestedDemands`. The time comes from the scheduler the recorder was
/// made with, and is `nil` without one. A test writes the expected log by hand:
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
public struct DemandRecord: Hashable, Sendable, CustomStringConvertible {
  /// The demand requested.
  public let demand: Subscribers.Demand

  /// The scheduler's time when it was requested, or `nil` without a scheduler.
  public let time: TestScheduler.SchedulerTimeType?

  /// Creates a record, typically to write an expected log by hand.
  ///
  /// - Parameters:
  ///   - demand: The demand requested.
  ///   - time: The scheduler's time of the request; `nil` (the default) for a recorder made without a
  ///     scheduler.
  public init(_ demand: Subscribers.Demand, at time: TestScheduler.SchedulerTimeType? = nil) {
    self.demand = demand
    self.time = time
  }

  /// The demand, prefixed by its time if any: `3: max(1)`.
  public var description: String { time.map { "\($0): \(demand)" } ?? demand.description }
}
