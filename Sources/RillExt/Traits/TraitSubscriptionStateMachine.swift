/// The phases of a ``TraitSubscriptions/Single`` or ``TraitSubscriptions/Maybe`` subscription.
///
/// The job starts at the first demand and ends with one outcome, or with a cancel. An outcome that the subclass
/// reports before the job was asked for is kept, not dropped: one that needs demand (a value) waits for it, one that
/// needs none (a completion without value, a failure) goes downstream at once. A subscriber that cancels while it
/// receives the value gets no `.finished` after it.
@usableFromInline
struct TraitSubscriptionStateMachine<Downstream, Context, Outcome> {
  @usableFromInline
  enum Phase {
    case awaitingDemand(Downstream, Context)
    case fulfilledAwaitingDemand(Downstream, Context, Outcome)
    case running(Downstream, Context)
    case deliveringValue
    case terminal
  }

  @usableFromInline var phase: Phase

  @inlinable
  init(downstream: Downstream, context: Context) {
    phase = .awaitingDemand(downstream, context)
  }

  @usableFromInline
  enum RequestAction {
    case none
    case start(Context)
    case deliver(Downstream, Context, Outcome)
  }

  @inlinable
  mutating func request(_ demand: Subscribers.Demand) -> RequestAction {
    guard demand > .none else { return .none }
    switch phase {
    case .awaitingDemand(let downstream, let context):
      phase = .running(downstream, context)
      return .start(context)
    case .fulfilledAwaitingDemand(let downstream, let context, let outcome):
      // Only a value waits for demand.
      phase = .deliveringValue
      return .deliver(downstream, context, outcome)
    case .running, .deliveringValue, .terminal:
      return .none
    }
  }

  @usableFromInline
  enum OutcomeAction {
    case none
    case deliver(Downstream, Context, Outcome)
  }

  // `needsDemand`: whether the outcome carries a value, which only goes downstream once asked for.
  @inlinable
  mutating func outcome(_ outcome: Outcome, needsDemand: Bool) -> OutcomeAction {
    switch phase {
    case .awaitingDemand(let downstream, let context):
      if needsDemand {
        phase = .fulfilledAwaitingDemand(downstream, context, outcome)
        return .none
      }
      phase = .terminal
      return .deliver(downstream, context, outcome)
    case .running(let downstream, let context):
      phase = needsDemand ? .deliveringValue : .terminal
      return .deliver(downstream, context, outcome)
    case .fulfilledAwaitingDemand, .deliveringValue, .terminal:
      return .none
    }
  }

  /// Whether `.finished` should follow the value just delivered: not when the subscriber cancelled meanwhile.
  @inlinable
  mutating func delivered() -> Bool {
    switch phase {
    case .deliveringValue:
      phase = .terminal
      return true
    case .awaitingDemand, .fulfilledAwaitingDemand, .running, .terminal:
      return false
    }
  }

  @usableFromInline
  enum CancelAction {
    case none
    case didCancel(Context)
  }

  @inlinable
  mutating func cancel() -> CancelAction {
    switch phase {
    case .running(_, let context):
      phase = .terminal
      return .didCancel(context)
    case .awaitingDemand, .fulfilledAwaitingDemand, .deliveringValue:
      phase = .terminal
      return .none
    case .terminal:
      return .none
    }
  }
}

/// Holds the cancellable a ``TraitPublishers/Single`` or ``TraitPublishers/Maybe`` closure returns, and cancels it
/// once the job ends, also when the job ended before the closure returned.
// SAFETY: all mutable state is in `state`; the cancellable is cancelled outside the lock.
@usableFromInline
final class TraitJobCleanup: @unchecked Sendable {
  @usableFromInline
  enum State {
    case starting
    case running(AnyCancellable)
    case ended
  }

  @usableFromInline let state = Locked(State.starting)

  @inlinable
  func started(_ cancellable: AnyCancellable) {
    let endedAlready = state.withLock { state in
      if case .ended = state { return true }
      state = .running(cancellable)
      return false
    }
    if endedAlready { cancellable.cancel() }
  }

  @inlinable
  func end() {
    let cancellable = state.withLock { state -> AnyCancellable? in
      defer { state = .ended }
      if case .running(let cancellable) = state { return cancellable }
      return nil
    }
    cancellable?.cancel()
  }
}
