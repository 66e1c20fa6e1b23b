/// What a run's freed values and subscriptions call: the subscription the pipeline gave the probe's subscriber, and
/// the source's subject.
// SAFETY: all mutable state is in `state`; the subscription and the subject are called outside the lock.
final class ReleaseProbeTarget: @unchecked Sendable {
  private typealias Subject = PassthroughSubject<ReleaseProbe.Value, ReleaseProbe.Failure>

  private struct State {
    var subscription: (any Subscription)?
    var subject: Subject?
    var isArmed = false
    var reentries = 0
    /// Whether a call back is in progress: what it frees calls nothing, so that a pipeline that answers each send
    /// by freeing something (a `switchToLatest` whose children are the source) does not call back forever.
    var isReentering = false
  }

  /// The most calls back one run makes.
  private static let maxReentries = 1_000

  let reentry: ReleaseProbe.Reentry
  private let state = Locked(State())

  init(reentry: ReleaseProbe.Reentry) {
    self.reentry = reentry
  }

  /// How many calls freed values and subscriptions have made.
  var reentries: Int { state.withLock { $0.reentries } }

  /// Starts calling back, into `subject`.
  func arm(subject: PassthroughSubject<ReleaseProbe.Value, ReleaseProbe.Failure>) {
    state.withLock {
      $0.subject = subject
      $0.isArmed = true
    }
  }

  /// Records the subscription the pipeline gave the probe's subscriber.
  func subscribed(_ subscription: any Subscription) {
    state.withLock { $0.subscription = subscription }
  }

  /// Stops calling back, and lets go of the subscription and the subject.
  func disarm() {
    let released = state.withLock { state in
      state.isArmed = false
      return (state.subscription.take(), state.subject.take())
    }
    _ = released
  }

  /// Calls back into the run, from a `deinit`.
  func reenter() {
    let target = state.withLock { state -> ((any Subscription)?, Subject?)? in
      guard state.isArmed, !state.isReentering, state.reentries < Self.maxReentries else { return nil }
      state.reentries += 1
      state.isReentering = true
      return (state.subscription, state.subject)
    }
    guard let (subscription, subject) = target else { return }
    switch reentry {
    case .cancel: subscription?.cancel()
    case .request: subscription?.request(.max(1))
    case .send: subject?.send(ReleaseProbe.Value(0))
    }
    state.withLock { $0.isReentering = false }
  }
}

/// The probe's subscriber: requests and cancels as a ``ContractDemand`` plans, and keeps no value.
// SAFETY: all mutable state is in `state`; the subscription is called outside the lock.
final class ReleaseProbeSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  private struct State {
    var subscription: (any Subscription)?
    var valueCount = 0
  }

  private let demand: ContractDemand
  private let target: ReleaseProbeTarget
  private let state = Locked(State())

  init(demand: ContractDemand, target: ReleaseProbeTarget) {
    self.demand = demand
    self.target = target
  }

  func receive(subscription: any Subscription) {
    let isFirst = state.withLock { state in
      guard state.subscription == nil else { return false }
      state.subscription = subscription
      return true
    }
    guard isFirst else {
      subscription.cancel()
      return
    }
    target.subscribed(subscription)
    if demand.initial > 0 { subscription.request(demand.initial) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let cancelling = state.withLock { state -> (any Subscription)? in
      state.valueCount += 1
      return state.valueCount == demand.cancelAfterValues ? state.subscription : nil
    }
    guard let cancelling else { return demand.perValue }
    cancelling.cancel()
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {}

  /// Cancels the subscription, and lets go of it.
  func cancel() {
    let subscription = state.withLock { $0.subscription.take() }
    subscription?.cancel()
  }
}
