/// A publisher that plays a marble diagram on a test scheduler, as a cold or a hot source, and records who
/// subscribed, when, and what they asked for.
///
/// Cold: each subscriber gets the whole diagram, tick 0 being the moment it subscribes. Values that fall
/// due while the subscriber has no demand wait, in order, until it requests more; a completion waits behind
/// them. Hot: the diagram plays once from the moment the publisher is made, whoever is subscribed; a value
/// reaches only subscribers with demand at that tick (others miss it, as with a `PassthroughSubject`), and a
/// subscriber that arrives after the completion gets the completion right away.
///
/// Make one with ``TestScheduler/marbleSource(_:hot:as:tick:)``, then check when the operator under test
/// subscribed and cancelled, and what it requested, on the scheduler's clock:
///
/// ```swift
/// let scheduler = TestScheduler()
/// let source = try scheduler.marbleSource("-a-b-c-|")
/// let subscriber = TestSubscriber<String, MarbleError>(scheduler: scheduler)
/// source.prefix(2).subscribe(subscriber)
/// scheduler.run()
/// #expect(subscriber.marbles() == "-a-[b|]")
/// #expect(source.subscriptionRecords == [SubscriptionRecord(0...3)])
/// #expect(source.demandRecords == [DemandRecord(.unlimited, at: 0)])
/// ```
///
/// The records are values: they keep no subscriber alive.
// SAFETY: all mutable state is in `state`; subscribers and the scheduler are called outside the lock.
public final class MarblePublisher<Output>: Publisher, CustomStringConvertible, @unchecked Sendable {
  /// A marble source fails with ``MarbleError`` at a `^`.
  public typealias Failure = MarbleError

  enum Event {
    case value(Output)
    case completion(Subscribers.Completion<MarbleError>)
  }

  private struct State {
    var subscriptions: [Conduit] = []
    var completion: Subscribers.Completion<MarbleError>?
    var subscriptionRecords: [SubscriptionRecord] = []
    var demandRecords: [DemandRecord] = []
  }

  private let clock: MarbleClock
  private let timeline: [(tick: Int, event: Event)]
  private let isHot: Bool
  private let state = Locked(State())

  /// Creates the publisher; a hot one plays nothing until ``startPlaying()`` or ``broadcast(_:)``.
  init(clock: MarbleClock, timeline: [(tick: Int, event: Event)], hot: Bool) {
    self.clock = clock
    self.timeline = timeline
    self.isHot = hot
  }

  /// Schedules a hot publisher's whole timeline, tick 0 being now.
  func startPlaying() {
    for (tick, action) in timelineActions() {
      clock.scheduleAfterTicks(tick, action)
    }
  }

  /// The hot timeline as actions that send each event to the current subscribers.
  func timelineActions() -> [(tick: Int, action: () -> Void)] {
    timeline.map { tick, event in (tick, { [weak self] in self?.broadcast(event) }) }
  }

  /// Records the subscription, then plays the diagram to the subscriber: from now on if cold, from where the
  /// hot timeline is if hot.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == MarbleError {
    let time = clock.now()
    let index = state.withLock { state -> Int in
      state.subscriptionRecords.append(SubscriptionRecord(subscribedAt: time, cancelledAt: nil, isCancelled: false))
      return state.subscriptionRecords.count - 1
    }
    let conduit = Conduit(
      AnySubscriber(subscriber),
      buffers: !isHot,
      onRequest: { [weak self] demand in self?.requested(demand) },
      onCancel: { [weak self] in self?.cancelled(index) }
    )
    if isHot {
      let completion = state.withLock { state -> Subscribers.Completion<MarbleError>? in
        if state.completion == nil { state.subscriptions.append(conduit) }
        return state.completion
      }
      subscriber.receive(subscription: conduit)
      if let completion { conduit.deliver(.completion(completion)) }
      return
    }
    subscriber.receive(subscription: conduit)
    for (tick, event) in timeline {
      clock.scheduleAfterTicks(tick) { [weak conduit] in conduit?.deliver(event) }
    }
  }

  private func requested(_ demand: Subscribers.Demand) {
    let time = clock.now()
    state.withLock { $0.demandRecords.append(DemandRecord(demand, at: time)) }
  }

  private func cancelled(_ index: Int) {
    let time = clock.now()
    state.withLock { $0.subscriptionRecords[index] = $0.subscriptionRecords[index].cancelled(at: time) }
  }

  /// When each subscriber subscribed and when it cancelled, in subscription order, on the scheduler's clock.
  ///
  /// Only a cancellation ends a record; a subscriber that received the completion and did not cancel stays
  /// subscribed (`0...`).
  public var subscriptionRecords: [SubscriptionRecord] { state.withLock { $0.subscriptionRecords } }

  /// Every demand requested through any subscription, in order, with the scheduler's time of the request.
  ///
  /// Like ``TestPublisher/demandRecords``, it logs calls to `request(_:)`, not the demand a subscriber returns
  /// from a value.
  public var demandRecords: [DemandRecord] { state.withLock { $0.demandRecords } }

  /// The subscription and demand records, for test failure messages: `MarblePublisher(subscriptions: [0...3],
  /// requested: [0: unlimited])`.
  public var description: String {
    state.withLock { "MarblePublisher(subscriptions: \($0.subscriptionRecords), requested: \($0.demandRecords))" }
  }

  /// Sends an event of a hot timeline to the current subscribers.
  func broadcast(_ event: Event) {
    let subscriptions = state.withLock { state -> [Conduit] in
      if case .completion(let completion) = event {
        state.completion = completion
        defer { state.subscriptions = [] }
        return state.subscriptions
      }
      return state.subscriptions
    }
    for subscription in subscriptions { subscription.deliver(event) }
  }

  // SAFETY: all mutable state is in `state`; the subscriber is called outside the lock.
  private final class Conduit: Subscription, @unchecked Sendable {
    private struct State {
      var subscriber: AnySubscriber<Output, MarbleError>?
      var buffer = DemandBuffer<Output, MarbleError>()
      var isCancelled = false
    }

    private let buffers: Bool
    private let state: Locked<State>
    private let onRequest: (Subscribers.Demand) -> Void
    private let onCancel: () -> Void

    init(
      _ subscriber: AnySubscriber<Output, MarbleError>,
      buffers: Bool,
      onRequest: @escaping (Subscribers.Demand) -> Void,
      onCancel: @escaping () -> Void
    ) {
      self.buffers = buffers
      self.onRequest = onRequest
      self.onCancel = onCancel
      state = Locked(State(subscriber: subscriber))
    }

    func deliver(_ event: Event) {
      let subscriber = state.withLock { state -> AnySubscriber<Output, MarbleError>? in
        let delivers =
          switch event {
          case .value(let value): buffers ? state.buffer.send(value) : state.buffer.offer(value)
          case .completion(let completion): state.buffer.send(completion: completion)
          }
        return delivers ? state.subscriber : nil
      }
      guard let subscriber else { return }
      let demand = if case .value(let value) = event { subscriber.receive(value) } else { Subscribers.Demand.none }
      drain(to: subscriber, adding: demand)
    }

    func request(_ demand: Subscribers.Demand) {
      onRequest(demand)
      guard let subscriber = state.withLock({ $0.buffer.request(demand) ? $0.subscriber : nil }) else { return }
      drain(to: subscriber, adding: .none)
    }

    func cancel() {
      // The subscriber and the events that waited are released after unlocking.
      let (released, isFirst) = state.withLock { state in
        defer { state.isCancelled = true }
        return ((state.subscriber.take(), state.buffer.end()), !state.isCancelled)
      }
      _ = released
      if isFirst { onCancel() }
    }

    /// Delivers the waiting events while there is demand, one at a time, never while holding the lock; the
    /// subscriber is let go of before it receives the completion.
    private func drain(to subscriber: AnySubscriber<Output, MarbleError>, adding demand: Subscribers.Demand) {
      // Taken out under the lock, released after unlocking.
      var released: AnySubscriber<Output, MarbleError>?
      state.drain(to: subscriber, adding: demand) { state, demand in
        let step = state.buffer.next(adding: demand)
        if case .complete = step { released = state.subscriber.take() }
        return step
      }
      _ = released
    }
  }
}
