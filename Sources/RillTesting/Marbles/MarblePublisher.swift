/// A publisher that plays a marble diagram on a test scheduler, as a cold or a hot source.
///
/// Cold: each subscriber gets the whole diagram, tick 0 being the moment it subscribes. Values that fall
/// due while the subscriber has no demand wait, in order, until it requests more; a completion waits behind
/// them. Hot: the diagram plays once from the moment the publisher is made, whoever is subscribed; a value
/// reaches only subscribers with demand at that tick (others miss it, as with a `PassthroughSubject`), and a
/// subscriber that arrives after the completion gets the completion right away.
// SAFETY: all mutable state is in `state`; subscribers and the scheduler are called outside the lock.
final class MarblePublisher<Output>: Publisher, @unchecked Sendable {
  typealias Failure = MarbleError

  enum Event {
    case value(Output)
    case completion(Subscribers.Completion<MarbleError>)
  }

  private struct State {
    var subscriptions: [Conduit] = []
    var completion: Subscribers.Completion<MarbleError>?
  }

  private let scheduler: TestScheduler
  private let timeline: [(tick: Int, event: Event)]
  private let isHot: Bool
  private let state = Locked(State())

  /// Creates the publisher; a hot one plays nothing until ``startPlaying()`` or ``broadcast(_:)``.
  init(scheduler: TestScheduler, timeline: [(tick: Int, event: Event)], hot: Bool) {
    self.scheduler = scheduler
    self.timeline = timeline
    self.isHot = hot
  }

  /// Schedules a hot publisher's whole timeline, tick 0 being now.
  func startPlaying() {
    let start = scheduler.now
    for (tick, action) in timelineActions() {
      scheduler.schedule(after: start.advanced(by: .init(tick)), action)
    }
  }

  /// The hot timeline as actions that send each event to the current subscribers.
  func timelineActions() -> [(tick: Int, action: () -> Void)] {
    timeline.map { tick, event in (tick, { [weak self] in self?.broadcast(event) }) }
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == MarbleError {
    let conduit = Conduit(AnySubscriber(subscriber), buffers: !isHot)
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
    let start = scheduler.now
    for (tick, event) in timeline {
      scheduler.schedule(after: start.advanced(by: .init(tick))) { [weak conduit] in conduit?.deliver(event) }
    }
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
      var demand = Subscribers.Demand.none
      var pending: [Event] = []
      var isDelivering = false
    }

    private let buffers: Bool
    private let state: Locked<State>

    init(_ subscriber: AnySubscriber<Output, MarbleError>, buffers: Bool) {
      self.buffers = buffers
      state = Locked(State(subscriber: subscriber))
    }

    func deliver(_ event: Event) {
      let accepted = state.withLock { state -> Bool in
        guard state.subscriber != nil else { return false }
        if !buffers, case .value = event, state.demand == .none { return false }
        state.pending.append(event)
        return true
      }
      if accepted { drain() }
    }

    func request(_ demand: Subscribers.Demand) {
      state.withLock { $0.demand += demand }
      drain()
    }

    func cancel() {
      let subscriber = state.withLock { state -> AnySubscriber<Output, MarbleError>? in
        defer {
          state.subscriber = nil
          state.pending = []
        }
        return state.subscriber
      }
      _ = subscriber
    }

    /// Delivers pending events while there is demand, one at a time, never while holding the lock.
    private func drain() {
      while true {
        let next = state.withLock { state -> (AnySubscriber<Output, MarbleError>, Event)? in
          guard !state.isDelivering, let subscriber = state.subscriber, let event = state.pending.first else {
            return nil
          }
          switch event {
          case .value:
            guard state.demand > .none else { return nil }
            state.demand -= 1
            state.pending.removeFirst()
          case .completion:
            state.subscriber = nil
            state.pending = []
          }
          state.isDelivering = true
          return (subscriber, event)
        }
        guard let (subscriber, event) = next else { return }
        switch event {
        case .value(let value):
          let more = subscriber.receive(value)
          state.withLock {
            $0.demand += more
            $0.isDelivering = false
          }
        case .completion(let completion):
          state.withLock { $0.isDelivering = false }
          subscriber.receive(completion: completion)
        }
      }
    }
  }
}
