/// The state of one subscription to an `@Observable` property: when to read the property, when to deliver, and when
/// the stream ends.
///
/// Reads happen at three moments: at the first request (the initial value), on the scheduler after a change, and
/// on the scheduler after demand returns to a subscription that saw a change while it had none. One delivery runs at
/// a time; what happens meanwhile (a change, demand, the model's end) is remembered and acted on when it returns.
/// Changes that come while a read is pending, or while there is no demand, are one change: the next read gets the
/// latest value.
struct ObservationStateMachine {
  enum Phase {
    /// Subscribed, with no demand requested yet: nothing is tracked.
    case awaitingDemand
    /// Tracking the property.
    case observing
    /// Finished or cancelled.
    case ended
  }

  private(set) var phase = Phase.awaitingDemand

  /// What downstream asked for and has not received, less the delivery under way.
  private(set) var demand = Subscribers.Demand.none

  /// Whether the property changed since it was last read.
  private(set) var changed = false

  /// Whether a run on the scheduler is pending.
  private(set) var scheduled = false

  /// Whether a read and its delivery are under way.
  private(set) var delivering = false

  /// Whether the model was freed; the stream finishes once nothing is being delivered.
  private(set) var modelFreed = false

  /// The number of the latest tracking; the end of an older one is ignored.
  private(set) var generation = 0

  enum RequestAction: Equatable {
    case none
    /// Read the property and track it, under `generation`; deliver the value if `delivers`, else end the
    /// delivery at once.
    case start(generation: Int, delivers: Bool)
    /// Schedule a run.
    case schedule
  }

  /// Downstream requested `demand`; `deliversInitial` says whether the first request delivers the current value.
  mutating func request(_ demand: Subscribers.Demand, deliversInitial: Bool) -> RequestAction {
    switch phase {
    case .ended:
      return .none
    case .awaitingDemand:
      guard demand > .none else { return .none }
      self.demand += demand
      phase = .observing
      delivering = true
      generation += 1
      if deliversInitial { self.demand -= 1 }
      return .start(generation: generation, delivers: deliversInitial)
    case .observing:
      self.demand += demand
      return nextStep()
    }
  }

  /// The tracking numbered `generation` saw a change begin (Observation calls on `willSet`); returns whether to
  /// schedule a run.
  mutating func changeObserved(generation: Int) -> Bool {
    guard phase == .observing, generation == self.generation else { return false }
    changed = true
    return nextStep() == .schedule
  }

  /// The model of the tracking numbered `generation` was freed; returns whether to schedule a run, which finishes.
  mutating func modelWasFreed(generation: Int) -> Bool {
    guard phase == .observing, generation == self.generation else { return false }
    modelFreed = true
    return nextStep() == .schedule
  }

  enum RunAction: Equatable {
    case none
    /// Read the property, track it under `generation` and deliver the value.
    case read(generation: Int)
    /// Send the finish.
    case finish
  }

  /// A scheduled run starts on the scheduler.
  mutating func run() -> RunAction {
    scheduled = false
    guard phase == .observing, !delivering else { return .none }
    if modelFreed {
      phase = .ended
      return .finish
    }
    guard changed, demand > 0 else { return .none }
    changed = false
    demand -= 1
    delivering = true
    generation += 1
    return .read(generation: generation)
  }

  /// The read found the model freed: the stream ends; returns whether to send the finish.
  mutating func modelMissing() -> Bool {
    delivering = false
    guard phase == .observing else { return false }
    phase = .ended
    return true
  }

  /// A delivery returned `more` demand; returns whether to schedule a run.
  mutating func deliveryEnded(adding more: Subscribers.Demand) -> Bool {
    delivering = false
    guard phase == .observing else { return false }
    demand += more
    return nextStep() == .schedule
  }

  /// Downstream cancelled.
  mutating func cancel() {
    phase = .ended
  }

  /// Schedules a run if one has something to do and none is pending or under way.
  private mutating func nextStep() -> RequestAction {
    guard !delivering, !scheduled, modelFreed || (changed && demand > 0) else { return .none }
    scheduled = true
    return .schedule
  }
}
