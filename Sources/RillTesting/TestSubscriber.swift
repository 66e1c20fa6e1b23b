public import RillExt

/// A subscriber that records everything it receives, with demand a test controls.
///
/// It requests `initialDemand` when it gets its subscription, returns `demandPerValue` (plus whatever the
/// `onValue` hook returns) from each value, and requests more when the test calls ``request(_:)``. It records
/// every event, even ones a well-behaved publisher would never send (a second subscription, values beyond
/// demand, events after completion or cancellation), so tests can check that an operator does not send them.
/// Given a scheduler, it stamps each event and each request with the scheduler's virtual time.
///
/// ```swift
/// let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
/// [1, 2, 3].publisher.subscribe(subscriber)
/// #expect(subscriber.values == [1, 2])
/// subscriber.request(.max(5))
/// #expect(subscriber.values == [1, 2, 3] && subscriber.isFinished)
/// ```
///
/// Like a sink, it lets go of its subscription when it completes or cancels, so pipelines can be freed. A
/// second subscription is recorded and cancelled.
// SAFETY: all mutable state is in `state`; the subscription and the hooks are called outside the lock.
public final class TestSubscriber<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
  @unchecked Sendable
{
  /// Something that happened to a test subscriber.
  public enum Event: CustomStringConvertible {
    /// The subscriber received a subscription.
    case subscription
    /// The subscriber received a value.
    case value(Input)
    /// The subscriber received a completion.
    case completion(Subscribers.Completion<Failure>)

    /// `subscription`, `value(1)`, `finished` or `failure(error)`.
    public var description: String {
      switch self {
      case .subscription: return "subscription"
      case .value(let value): return "value(\(value))"
      case .completion(.finished): return "finished"
      case .completion(.failure(let error)): return "failure(\(error))"
      }
    }
  }

  /// An event with the virtual time it happened at.
  ///
  /// A test can write the expected timeline by hand and compare it with ``TestSubscriber/records``:
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
  /// Just(1).delay(for: 3, scheduler: scheduler).subscribe(subscriber)
  /// scheduler.run()
  /// let expected: [TestSubscriber<Int, Never>.Record] = [
  ///   .init(.subscription, at: 0), .init(.value(1), at: 3), .init(.completion(.finished), at: 3),
  /// ]
  /// #expect(subscriber.records == expected)
  /// ```
  public struct Record: CustomStringConvertible {
    /// What happened.
    public let event: Event
    /// The scheduler's time when it happened, or `nil` without a scheduler.
    public let time: TestScheduler.SchedulerTimeType?

    /// Creates a record, typically to write an expected timeline by hand.
    ///
    /// - Parameters:
    ///   - event: What happened.
    ///   - time: The scheduler's time when it happened; `nil` (the default) for a subscriber made without a
    ///     scheduler.
    public init(_ event: Event, at time: TestScheduler.SchedulerTimeType? = nil) {
      self.event = event
      self.time = time
    }

    /// The event, prefixed by its time if any: `3: value(1)`.
    public var description: String { time.map { "\($0): \(event)" } ?? event.description }
  }

  private struct State {
    var records: [Record] = []
    var subscription: (any Subscription)?
    var subscriptionCount = 0
    var subscriptionTime: TestScheduler.SchedulerTimeType?
    var pendingDemand = Subscribers.Demand.none
    var demandRecords: [DemandRecord] = []
    var isCancelled = false
    var cancellationTime: TestScheduler.SchedulerTimeType?
    /// The number of records when ``cancel()`` was first called.
    var cancellationIndex: Int?
    var completion: Subscribers.Completion<Failure>?
    /// The values and completions being received right now.
    var deliveriesInFlight = 0
    var overlappingDeliveries = 0
    var onSubscription: ((TestSubscriber, any Subscription) -> Void)?
    var onValue: ((TestSubscriber, Input) -> Subscribers.Demand)?
    var onCompletion: ((TestSubscriber, Subscribers.Completion<Failure>) -> Void)?
    var timeline: Timeline?

    /// Counts a value or completion in, and an overlap if another is still being received.
    mutating func beginDelivery() {
      deliveriesInFlight += 1
      if deliveriesInFlight > 1 { overlappingDeliveries += 1 }
    }
  }

  private let state = Locked(State())

  /// The scheduler whose clock stamps the events, if any.
  public let scheduler: TestScheduler?

  /// What stamps the events: the scheduler's clock, or a `marbles` helper's count of diagram ticks.
  private let clock: (() -> TestScheduler.SchedulerTimeType)?

  /// The demand requested when the subscription arrives.
  public let initialDemand: Subscribers.Demand

  /// The demand returned from each value, before adding what `onValue` returns.
  public let demandPerValue: Subscribers.Demand

  /// Creates a recording subscriber.
  ///
  /// The hooks run after the event is recorded and receive the subscriber itself, so a test can request,
  /// cancel or drive a publisher from inside a delivery (re-entrancy tests) without a retain cycle. They can also
  /// be set later, through ``onSubscription``, ``onValue`` and ``onCompletion``.
  ///
  /// - Parameters:
  ///   - scheduler: A scheduler whose time stamps each event; `nil` records no times.
  ///   - initialDemand: The demand requested on subscription, after `onSubscription` runs; `.unlimited` by
  ///     default. Nothing is requested if it is `.none` or the subscriber was cancelled by then.
  ///   - demandPerValue: The demand returned from each value; `.none` by default.
  ///   - onSubscription: Runs on the first subscription, before the initial request.
  ///   - onValue: Runs on each value; what it returns is added to `demandPerValue`.
  ///   - onCompletion: Runs on each completion.
  public init(
    scheduler: TestScheduler? = nil,
    initialDemand: Subscribers.Demand = .unlimited,
    demandPerValue: Subscribers.Demand = .none,
    onSubscription: ((TestSubscriber, any Subscription) -> Void)? = nil,
    onValue: ((TestSubscriber, Input) -> Subscribers.Demand)? = nil,
    onCompletion: ((TestSubscriber, Subscribers.Completion<Failure>) -> Void)? = nil
  ) {
    self.scheduler = scheduler
    clock = scheduler.map { scheduler in { scheduler.now } }
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
    state.withLock { state in
      state.onSubscription = onSubscription
      state.onValue = onValue
      state.onCompletion = onCompletion
    }
  }

  /// Creates a recorder with unlimited demand whose events carry the times `clock` gives, for the `marbles`
  /// helpers, which count time in diagram ticks.
  init(clock: @escaping () -> TestScheduler.SchedulerTimeType) {
    scheduler = nil
    self.clock = clock
    initialDemand = .unlimited
    demandPerValue = .none
  }

  // MARK: Hooks

  /// Runs on the first subscription, before the initial request.
  ///
  /// Like ``onValue`` and ``onCompletion``, it can be set at any time, so a test can build its pipeline first and
  /// choose what the subscriber does later.
  public var onSubscription: ((TestSubscriber, any Subscription) -> Void)? {
    get { state.withLock { $0.onSubscription } }
    set { state.withLock { $0.onSubscription = newValue } }
  }

  /// Runs on each value; what it returns is added to ``demandPerValue``.
  ///
  /// It can be set at any time, for instance after a helper has built the pipeline, and takes effect from the next
  /// value:
  ///
  /// ```swift
  /// let upstream = TestPublisher<Int, Never>()
  /// let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
  /// upstream.subscribe(subscriber)
  /// subscriber.onValue = { subscriber, value in
  ///   if value == 2 { subscriber.cancel() }
  ///   return .max(1)
  /// }
  /// upstream.send(1)
  /// upstream.send(2)
  /// #expect(upstream.requestedDemands == [.max(1)])
  /// #expect(upstream.isCancelled)
  /// ```
  public var onValue: ((TestSubscriber, Input) -> Subscribers.Demand)? {
    get { state.withLock { $0.onValue } }
    set { state.withLock { $0.onValue = newValue } }
  }

  /// Runs on each completion; it can be set at any time.
  public var onCompletion: ((TestSubscriber, Subscribers.Completion<Failure>) -> Void)? {
    get { state.withLock { $0.onCompletion } }
    set { state.withLock { $0.onCompletion = newValue } }
  }

  // MARK: Subscriber

  /// Records the subscription; keeps and requests from the first, cancels any later one.
  public func receive(subscription: any Subscription) {
    let time = clock?()
    typealias Hook = (TestSubscriber, any Subscription) -> Void
    let (isFirst, onSubscription) = state.withLock { state -> (Bool, Hook?) in
      state.records.append(Record(.subscription, at: time))
      state.subscriptionCount += 1
      guard state.subscriptionCount == 1, !state.isCancelled else { return (false, nil) }
      state.subscription = subscription
      state.subscriptionTime = time
      state.pendingDemand += initialDemand
      return (true, state.onSubscription)
    }
    guard isFirst else {
      subscription.cancel()
      return
    }
    onSubscription?(self, subscription)
    let requestTime = clock?()
    let demand = state.withLock { state -> Subscribers.Demand in
      guard state.subscription != nil, state.pendingDemand > .none else { return .none }
      defer { state.pendingDemand = .none }
      state.demandRecords.append(DemandRecord(state.pendingDemand, at: requestTime))
      return state.pendingDemand
    }
    if demand > .none { subscription.request(demand) }
  }

  /// Records the value and returns `demandPerValue` plus what `onValue` returns.
  public func receive(_ input: Input) -> Subscribers.Demand {
    let time = clock?()
    let onValue = state.withLock { state in
      state.records.append(Record(.value(input), at: time))
      state.beginDelivery()
      return state.onValue
    }
    defer { state.withLock { $0.deliveriesInFlight -= 1 } }
    let demand = demandPerValue + (onValue?(self, input) ?? .none)
    if demand > .none {
      state.withLock { state in
        if state.subscription != nil { state.demandRecords.append(DemandRecord(demand, at: time)) }
      }
    }
    return demand
  }

  /// Records the completion and lets go of the subscription.
  public func receive(completion: Subscribers.Completion<Failure>) {
    let time = clock?()
    typealias Hook = (TestSubscriber, Subscribers.Completion<Failure>) -> Void
    let (subscription, onCompletion) = state.withLock { state -> ((any Subscription)?, Hook?) in
      state.records.append(Record(.completion(completion), at: time))
      if state.completion == nil { state.completion = completion }
      state.beginDelivery()
      defer { state.subscription = nil }
      return (state.subscription, state.onCompletion)
    }
    defer { state.withLock { $0.deliveriesInFlight -= 1 } }
    _ = subscription
    onCompletion?(self, completion)
  }

  // MARK: Control

  /// Requests more values; before the subscription arrives, adds to what will be requested then.
  ///
  /// Does nothing for `.none`, after completion or after cancellation.
  ///
  /// - Parameter demand: The number of additional values to request.
  public func request(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    let time = clock?()
    let subscription = state.withLock { state -> (any Subscription)? in
      guard !state.isCancelled, state.completion == nil else { return nil }
      guard let subscription = state.subscription else {
        state.pendingDemand += demand
        return nil
      }
      state.demandRecords.append(DemandRecord(demand, at: time))
      return subscription
    }
    subscription?.request(demand)
  }

  /// Cancels the subscription, records the time, and lets go of it; later calls do nothing.
  public func cancel() {
    let time = clock?()
    let subscription = state.withLock { state -> (any Subscription)? in
      guard !state.isCancelled else { return nil }
      state.isCancelled = true
      state.cancellationTime = time
      state.cancellationIndex = state.records.count
      defer { state.subscription = nil }
      return state.subscription
    }
    subscription?.cancel()
  }

  // MARK: Accessors

  /// Every event received, in order, with its time.
  public var records: [Record] { state.withLock { $0.records } }

  /// Every event received, in order.
  public var events: [Event] { records.map(\.event) }

  /// `events` as strings (`"subscription"`, `"value(1)"`, `"finished"`, `"failure(error)"`), for any `Input`.
  public var eventDescriptions: [String] { events.map(\.description) }

  /// Every value received, in order.
  public var values: [Input] {
    records.compactMap { record in
      if case .value(let value) = record.event { return value }
      return nil
    }
  }

  /// The first completion received, if any.
  public var completion: Subscribers.Completion<Failure>? { state.withLock { $0.completion } }

  /// The number of completions received; more than one means the publisher broke the contract.
  public var completionCount: Int { completions.count }

  /// The number of values and completions that arrived while an earlier one was still being received: from
  /// another thread, which breaks the contract, or nested, from inside a hook on the same thread.
  ///
  /// A publisher must never call a subscriber from two threads at once: a thread-safety test sends from several
  /// threads and checks that this stays zero. A call from inside a hook is another matter: as in Combine, a
  /// subject, `merge` or `flatMap` delivers a value sent from inside `onValue` at once, nested in that call, and
  /// this counts it:
  ///
  /// ```swift
  /// let first = TestPublisher<Int, Never>()
  /// let second = TestPublisher<Int, Never>()
  /// let subscriber = TestSubscriber<Int, Never>(onValue: { _, value in
  ///   if value == 1 { second.send(2) }    // arrives while 1 is being received
  ///   return .none
  /// })
  /// first.merge(with: second).subscribe(subscriber)
  /// first.send(1)
  /// #expect(subscriber.values == [1, 2])
  /// #expect(subscriber.overlappingDeliveries == 1)  // merge delivered 2 inside 1, as Combine does
  /// ```
  public var overlappingDeliveries: Int { state.withLock { $0.overlappingDeliveries } }

  /// Every completion received, in order; more than one means the publisher broke the contract.
  ///
  /// ``completion`` keeps the first one only. This list also shows any later one, so a test can check that an
  /// operator passes on no second completion, whatever its upstream sends:
  ///
  /// ```swift
  /// let upstream = TestPublisher<Int, Never>()
  /// let subscriber = TestSubscriber<Int, Never>()
  /// upstream.prefix(2).subscribe(subscriber)
  /// upstream.send(1)
  /// upstream.send(2)                      // prefix finishes here
  /// upstream.send(completion: .finished)  // and must not pass this one on
  /// #expect(subscriber.completions == [.finished])
  /// ```
  public var completions: [Subscribers.Completion<Failure>] {
    records.compactMap { record in
      if case .completion(let completion) = record.event { return completion }
      return nil
    }
  }

  /// Whether a completion has been received.
  public var isCompleted: Bool { completion != nil }

  /// Whether the first completion received is `.finished`.
  public var isFinished: Bool {
    if case .finished = completion { return true }
    return false
  }

  /// The error of the first completion received, if it is a failure.
  public var failure: Failure? {
    if case .failure(let error) = completion { return error }
    return nil
  }

  /// The subscription being held: set by the first subscription, cleared by completion or cancellation.
  public var subscription: (any Subscription)? { state.withLock { $0.subscription } }

  /// The number of subscriptions received; more than one means the publisher broke the contract.
  public var subscriptionCount: Int { state.withLock { $0.subscriptionCount } }

  /// The scheduler time of the first subscription, if there is a scheduler.
  public var subscriptionTime: TestScheduler.SchedulerTimeType? { state.withLock { $0.subscriptionTime } }

  /// Whether ``cancel()`` has been called.
  public var isCancelled: Bool { state.withLock { $0.isCancelled } }

  /// The scheduler time of the first ``cancel()``, if there is a scheduler.
  public var cancellationTime: TestScheduler.SchedulerTimeType? { state.withLock { $0.cancellationTime } }

  /// Every demand handed to the subscription, in order: the initial demand, each non-zero demand returned
  /// from a value, and each ``request(_:)``.
  public var requestedDemands: [Subscribers.Demand] { demandRecords.map(\.demand) }

  /// Every demand handed to the subscription, in order, with the scheduler's time (`nil` without a
  /// scheduler): the same demands as ``requestedDemands``.
  ///
  /// A demand returned from a value is stamped with the time of that value.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler, initialDemand: .max(1))
  /// TestPublisher<Int, Never>().subscribe(subscriber)
  /// scheduler.advance(by: 3)
  /// subscriber.request(.max(1))
  /// #expect(subscriber.demandRecords == [DemandRecord(.max(1), at: 0), DemandRecord(.max(1), at: 3)])
  /// ```
  public var demandRecords: [DemandRecord] { state.withLock { $0.demandRecords } }

  /// The sum of ``requestedDemands``.
  public var totalDemand: Subscribers.Demand { requestedDemands.reduce(.none, +) }

  /// A timeline that lanes of the pipeline under test record into, to show with this subscriber's records when an
  /// expectation fails; `nil` by default.
  ///
  /// Once set, ``description`` and ``marbleDifference(expected:from:)`` draw it below the records:
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let timeline = Timeline(clock: .virtual(scheduler))
  /// let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
  /// subscriber.timeline = timeline
  /// upstream.lane("upstream", timeline: timeline).filter { $0 > 1 }.subscribe(subscriber)
  /// // ...
  /// #expect(subscriber.values == [2, 3], "\(subscriber)")
  /// ```
  public var timeline: Timeline? {
    get { state.withLock { $0.timeline } }
    set { state.withLock { $0.timeline = newValue } }
  }

  /// The recorded events with their times, for test failure messages, followed by the ``timeline`` if there is one.
  public var description: String {
    let records = "TestSubscriber[" + records.map(\.description).joined(separator: ", ") + "]"
    return timeline.map { records + "\n\nWhat happened:\n" + $0.text() } ?? records
  }
}

extension TestSubscriber {
  /// Renders the recorded events as a marble diagram, tick 0 being `start`.
  ///
  /// Values render as themselves if they are one character, quoted otherwise (`'10'`); `|` is a finish, `^` a
  /// failure, `!` the moment ``cancel()`` was called; events at one tick are grouped (`[ab]`). Ticks with
  /// nothing are `-`, up to the last event or `length` ticks, whichever is longer. Events need times, so the
  /// subscriber must have been made with a scheduler; without one every event is on tick 0.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let subscriber = TestSubscriber<Int, MarbleError>(scheduler: scheduler)
  /// try scheduler.marblePublisher("-1-'10'-|", as: Int.self).subscribe(subscriber)
  /// scheduler.run()
  /// #expect(subscriber.marbles() == "-1-'10'-|")
  /// ```
  ///
  /// A diagram tick lasts `tick`, one unit of test scheduler time by default; with a longer one, an event between
  /// two ticks is drawn at the next:
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
  /// Just(1).delay(for: .milliseconds(250), scheduler: scheduler).subscribe(subscriber)
  /// scheduler.run()
  /// #expect(subscriber.marbles(tick: .milliseconds(100)) == "---[1|]")
  /// ```
  ///
  /// - Parameters:
  ///   - start: The time of tick 0.
  ///   - length: The least number of ticks to render.
  ///   - tick: How long a tick of the diagram lasts; it must be greater than zero.
  /// - Returns: The diagram.
  public func marbles(
    from start: TestScheduler.SchedulerTimeType = 0,
    length: Int = 0,
    tick: TestScheduler.SchedulerTimeType.Stride = 1
  ) -> String {
    precondition(tick > .zero, "TestSubscriber.marbles: tick must be greater than zero")
    let (records, cancelIndex, cancelTime) = state.withLock { ($0.records, $0.cancellationIndex, $0.cancellationTime) }
    var events: [(tick: Int, symbol: String)] = []
    func column(_ time: TestScheduler.SchedulerTimeType?) -> Int {
      let elapsed = (time?.ticks ?? start.ticks) - start.ticks
      return elapsed >= 0 ? (elapsed + tick.ticks - 1) / tick.ticks : -(-elapsed / tick.ticks)
    }
    for (index, record) in records.enumerated() {
      if cancelIndex == index { events.append((column(cancelTime), "!")) }
      switch record.event {
      case .subscription: continue
      case .value(let value):
        events.append((column(record.time), MarbleRenderer.symbol(for: String(describing: value))))
      case .completion(.finished): events.append((column(record.time), "|"))
      case .completion(.failure): events.append((column(record.time), "^"))
      }
    }
    if cancelIndex == records.count { events.append((column(cancelTime), "!")) }
    return MarbleRenderer.render(events, length: length)
  }
}

extension TestSubscriber.Event: Equatable where Input: Equatable, Failure: Equatable {}

extension TestSubscriber.Record: Equatable where Input: Equatable, Failure: Equatable {}
