/// What a reducing operator does with each element: the rule behind `collect`, `reduce`, `count`, `min`/`max`,
/// `contains` and `allSatisfy`, and their `try` variants.
///
/// A rule folds elements into a running `Partial` and turns the final partial into the one published value. Only
/// `fold` may call user code; `result` and `failure` must be plain data transformations.
@usableFromInline
protocol ReducingRule<Input, Output, Failure> {
  associatedtype Input
  associatedtype Output
  associatedtype UpstreamFailure: Error
  associatedtype Failure: Error
  associatedtype Partial

  /// The operator's name, used as the subscription's description.
  var name: String { get }

  /// The running value before the first element.
  var initial: Partial { get }

  /// Folds one element into `partial`; called outside the lock.
  func fold(_ partial: inout Partial, _ input: Input) -> ReducingStep<Failure>

  /// The value to publish once the reduction ends, or `nil` to finish without one.
  func result(_ partial: consuming Partial) -> Output?

  /// The failure to publish when upstream fails.
  func failure(_ error: UpstreamFailure) -> Failure

  /// The children of the subscription's mirror, labelled as Combine labels them; `partial` is `nil` once the
  /// reduction has ended or while a fold runs.
  func mirrorChildren(downstream: Any, partial: Partial?, link: SubscriptionState) -> [Mirror.Child]
}

extension ReducingRule where UpstreamFailure == Failure {
  @inlinable
  func failure(_ error: UpstreamFailure) -> Failure { error }
}

extension ReducingRule {
  /// Combine's reduce-like subscriptions show their downstream, the running result, the initial value and the
  /// state of the link to upstream.
  @usableFromInline
  func mirrorChildren(downstream: Any, partial: Partial?, link: SubscriptionState) -> [Mirror.Child] {
    [("downstream", downstream), ("result", partial as Any), ("initial", initial), ("status", link)]
  }
}

/// What a reducing rule decided about one element.
@usableFromInline
enum ReducingStep<Failure: Error> {
  /// Keep reducing.
  case proceed
  /// The answer is known: cancel upstream and publish the result.
  case stop
  /// Cancel upstream and fail.
  case fail(Failure)
}

/// The subscription shared by the reducing operators.
///
/// It requests `.unlimited` from upstream as soon as it is subscribed (as Combine does), folds every element with
/// its rule, and publishes the single result when both the reduction has ended and downstream has requested
/// something. A rule that knows the answer early (`contains`, `allSatisfy`) or throws (`try` variants) cancels
/// upstream at once. Upstream failures are forwarded immediately, without waiting for demand.
// SAFETY: all mutable state is in `state`; the rule's closures, upstream and downstream are called outside the lock.
@usableFromInline
final class ReducingSubscription<Rule: ReducingRule, Downstream: Subscriber>: Subscriber, Subscription,
  CombineDescribable, @unchecked Sendable
where Downstream.Input == Rule.Output, Downstream.Failure == Rule.Failure {
  @usableFromInline typealias Input = Rule.Input
  @usableFromInline typealias Failure = Rule.UpstreamFailure

  @usableFromInline
  enum Phase {
    /// Folding elements; `partial` is `nil` while a fold runs outside the lock.
    case reducing(Rule.Partial?)
    /// The reduction ended before downstream asked for anything.
    case awaitingDemand(Rule.Output?)
    /// The result or a failure was delivered, or downstream cancelled.
    case ended
  }

  @usableFromInline
  struct State {
    @usableFromInline var upstream: SubscriptionState
    @usableFromInline var phase: Phase
    @usableFromInline var isDemanded: Bool

    @inlinable
    init(phase: Phase) {
      upstream = .awaitingSubscription
      self.phase = phase
      isDemanded = false
    }
  }

  /// What to do after the reduction ends.
  @usableFromInline
  enum EndAction {
    case deliver(Rule.Output?)
    case fail(Rule.Failure)
    case wait
  }

  @usableFromInline let rule: Rule
  @usableFromInline let downstream: Downstream
  @usableFromInline let state: Locked<State>

  @inlinable
  init(rule: Rule, downstream: Downstream) {
    self.rule = rule
    self.downstream = downstream
    state = Locked(State(phase: .reducing(rule.initial)))
  }

  @usableFromInline var description: String { rule.name }

  @usableFromInline var customMirror: Mirror {
    let (partial, link) = state.withLock { state -> (Rule.Partial?, SubscriptionState) in
      guard case .reducing(let partial) = state.phase else { return (nil, state.upstream) }
      return (partial, state.upstream)
    }
    return Mirror(self, children: rule.mirrorChildren(downstream: downstream, partial: partial, link: link))
  }

  @inlinable
  func receive(subscription: any Subscription) {
    guard state.withLock({ $0.upstream.subscribe(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
    guard state.withLock({ $0.upstream.upstream }) != nil else { return }
    subscription.request(.unlimited)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    let taken = state.withLock { state -> Rule.Partial? in
      guard state.upstream.isSubscribed, case .reducing(let partial) = state.phase else { return nil }
      state.phase = .reducing(nil)
      return partial
    }
    guard var partial = taken else { return .none }
    switch rule.fold(&partial, input) {
    case .proceed:
      state.withLock { state in
        guard case .reducing = state.phase else { return }
        state.phase = .reducing(partial)
      }
    case .stop:
      let result = rule.result(partial)
      let ended = state.withLock { state -> ((any Subscription), EndAction)? in
        guard let upstream = state.upstream.terminate(), case .reducing = state.phase else { return nil }
        return (upstream, end(&state, with: result))
      }
      guard let (upstream, action) = ended else { return .none }
      upstream.cancel()
      perform(action)
    case .fail(let error):
      let upstream = state.withLock { state -> (any Subscription)? in
        guard let upstream = state.upstream.terminate(), case .reducing = state.phase else { return nil }
        state.phase = .ended
        return upstream
      }
      guard let upstream else { return .none }
      upstream.cancel()
      perform(.fail(error))
    }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Rule.UpstreamFailure>) {
    // The phase it leaves, with the partial result, and the upstream's subscription are released after unlocking.
    let (action, released) = state.withLock { state -> (EndAction?, (Phase, (any Subscription)?)) in
      let upstream = state.upstream.endForCompletion()
      let released = (state.phase, upstream)
      guard upstream != nil, case .reducing(let partial) = state.phase else { return (nil, released) }
      switch completion {
      case .finished:
        return (end(&state, with: partial.flatMap { rule.result($0) }), released)
      case .failure(let error):
        state.phase = .ended
        return (.fail(rule.failure(error)), released)
      }
    }
    _ = released
    if let action {
      perform(action)
    }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(rule.name): a subscriber requested \(demand); demand must be greater than zero")
    let result = state.withLock { state -> Rule.Output?? in
      guard !state.isDemanded else { return nil }
      state.isDemanded = true
      guard case .awaitingDemand(let result) = state.phase else { return nil }
      state.phase = .ended
      return .some(result)
    }
    if let result {
      perform(.deliver(result))
    }
  }

  /// Cancels upstream and drops the reduction.
  ///
  /// Before the subscription arrives there is nothing to cancel, and,
  /// as in Combine, a subscription that arrives later is still taken and asked for `.unlimited`.
  @inlinable
  func cancel() {
    // The phase it leaves, with the partial result, is released after unlocking.
    let (upstream, released) = state.withLock { state -> ((any Subscription)?, Phase?) in
      guard !state.upstream.isAwaitingSubscription else { return (nil, nil) }
      let released = state.phase
      state.phase = .ended
      return (state.upstream.terminate(), released)
    }
    upstream?.cancel()
    _ = released
  }

  /// Moves to the end of the reduction: delivers now if downstream has asked, otherwise keeps the result.
  @inlinable
  func end(_ state: inout State, with result: Rule.Output?) -> EndAction {
    if state.isDemanded {
      state.phase = .ended
      return .deliver(result)
    }
    state.phase = .awaitingDemand(result)
    return .wait
  }

  @inlinable
  func perform(_ action: EndAction) {
    switch action {
    case .deliver(let result):
      if let result {
        _ = downstream.receive(result)
      }
      downstream.receive(completion: .finished)
    case .fail(let error):
      downstream.receive(completion: .failure(error))
    case .wait:
      break
    }
  }
}
