/// The subscription of ``CheckSinglePublisher`` and ``CheckMaybePublisher``: it holds upstream's value until upstream
/// finishes, so that a second value or a late failure turns into a contract error instead of reaching downstream.
///
/// As in CombineTraits, it subscribes upstream on downstream's first request, forwards downstream's demand, and asks
/// upstream for unlimited values once it holds one (to see a second one). The state lives in `state`; downstream
/// and upstream are called after unlocking.
// SAFETY: all mutable state is in `state`; downstream and upstream are called outside the lock.
@usableFromInline
final class TraitCheckInner<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
  @unchecked Sendable
where Downstream.Input == Upstream.Output {
  @usableFromInline typealias Input = Upstream.Output
  @usableFromInline typealias Failure = Upstream.Failure

  // The rule, state and action are types of their own, generic over the types they hold: their value witnesses (the
  // lock's storage destroys its state in its unspecialised `deinit`, and specialised code copies the enums through
  // them) then find those types in their metadata instead of looking associated types up at run time. The rule is
  // kept in the lock's state rather than in a property, which this class's unspecialised `deinit` would destroy.
  // (A state generic over what it holds: WritingAnOperator.md, "Hot-path idioms".)
  @usableFromInline typealias Rule = TraitCheckRule<Downstream.Failure, Upstream.Failure>
  @usableFromInline typealias Action = TraitCheckAction<Upstream, Upstream.Output, Downstream.Failure>

  @usableFromInline let downstream: Downstream
  @usableFromInline let state:
    Locked<TraitCheckLockedState<Upstream, Upstream.Output, Downstream.Failure, Upstream.Failure>>

  @inlinable
  init(upstream: Upstream, downstream: Downstream, rule: Rule) {
    self.downstream = downstream
    state = Locked(TraitCheckLockedState(phase: .awaitingRequest(upstream), rule: rule))
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    let action: Action = state.withLock { state in
      switch state.phase {
      case .awaitingRequest(let upstream):
        state.phase = .awaitingSubscription(demand)
        return .subscribe(upstream)
      case .awaitingSubscription(let pending):
        state.phase = .awaitingSubscription(pending + demand)
        return .none
      case .awaitingElement(let subscription):
        return .request(subscription, demand)
      case .awaitingCompletion, .terminal:
        return .none
      }
    }
    perform(action)
  }

  @inlinable
  func cancel() {
    let (action, upstream) = state.withLock { state -> (Action, Upstream?) in
      defer { state.phase = .terminal }
      switch state.phase {
      case .awaitingElement(let subscription), .awaitingCompletion(_, let subscription):
        return (.cancel(subscription), nil)
      case .awaitingRequest(let upstream):
        // Released after the lock: a publisher that ends its subscribers as it goes (a relay) may call back.
        return (.none, upstream)
      case .awaitingSubscription, .terminal:
        return (.none, nil)
      }
    }
    perform(action)
    withExtendedLifetime(upstream) {}
  }

  @inlinable
  func receive(subscription: any Subscription) {
    let action: Action = state.withLock { state in
      switch state.phase {
      case .awaitingSubscription(let demand):
        state.phase = .awaitingElement(subscription)
        return demand > .none ? .request(subscription, demand) : .none
      case .awaitingRequest, .awaitingElement, .awaitingCompletion, .terminal:
        return .cancel(subscription)
      }
    }
    perform(action)
  }

  @inlinable
  func receive(_ input: Upstream.Output) -> Subscribers.Demand {
    let action: Action = state.withLock { state in
      switch state.phase {
      case .awaitingElement(let subscription):
        state.phase = .awaitingCompletion(input, subscription)
        return .request(subscription, .unlimited)
      case .awaitingCompletion(_, let subscription):
        state.phase = .terminal
        return .fail(state.rule.tooManyElements, cancelling: subscription)
      case .awaitingRequest, .awaitingSubscription, .terminal:
        return .none
      }
    }
    if case .request = action { return .unlimited }
    perform(action)
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Upstream.Failure>) {
    // The rule's mapping of an upstream failure is a closure: it is taken under the lock and called after it.
    var mapUpstreamFailure: ((Upstream.Failure) -> Downstream.Failure)?
    let action: Action = state.withLock { state in
      let held: Upstream.Output?
      switch state.phase {
      case .awaitingSubscription, .awaitingElement: held = nil
      case .awaitingCompletion(let value, _): held = value
      case .awaitingRequest, .terminal: return .none
      }
      state.phase = .terminal
      switch (completion, held) {
      case (.finished, .some(let value)): return .finish(value)
      case (.finished, .none): return state.rule.missingElement.map { .fail($0, cancelling: nil) } ?? .finish(nil)
      case (.failure, .some): return .fail(state.rule.bothElementAndError, cancelling: nil)
      case (.failure, .none):
        mapUpstreamFailure = state.rule.upstream
        return .none
      }
    }
    if let mapUpstreamFailure, case .failure(let error) = completion {
      perform(.fail(mapUpstreamFailure(error), cancelling: nil))
    } else {
      perform(action)
    }
  }

  @inlinable
  func perform(_ action: Action) {
    switch action {
    case .none:
      break
    case .subscribe(let upstream):
      upstream.subscribe(self)
    case .request(let subscription, let demand):
      subscription.request(demand)
    case .cancel(let subscription):
      subscription.cancel()
    case .fail(let error, let subscription):
      subscription?.cancel()
      downstream.receive(completion: .failure(error))
    case .finish(let value):
      if let value { _ = downstream.receive(value) }
      downstream.receive(completion: .finished)
    }
  }
}

/// What the upstream events mean to a ``TraitCheckInner``: `missingElement` is `nil` for a maybe, whose upstream may
/// finish empty.
@usableFromInline
struct TraitCheckRule<Failure: Error, UpstreamFailure: Error> {
  @usableFromInline let missingElement: Failure?
  @usableFromInline let tooManyElements: Failure
  @usableFromInline let bothElementAndError: Failure
  @usableFromInline let upstream: (UpstreamFailure) -> Failure

  @inlinable
  init(
    missingElement: Failure? = nil,
    tooManyElements: Failure,
    bothElementAndError: Failure,
    upstream: @escaping (UpstreamFailure) -> Failure
  ) {
    self.missingElement = missingElement
    self.tooManyElements = tooManyElements
    self.bothElementAndError = bothElementAndError
    self.upstream = upstream
  }
}

/// What a ``TraitCheckInner``'s lock protects: where it stands, and the rule it checks upstream against.
@usableFromInline
struct TraitCheckLockedState<Upstream, Output, Failure: Error, UpstreamFailure: Error> {
  @usableFromInline var phase: TraitCheckState<Upstream, Output>
  @usableFromInline let rule: TraitCheckRule<Failure, UpstreamFailure>

  @inlinable
  init(phase: TraitCheckState<Upstream, Output>, rule: TraitCheckRule<Failure, UpstreamFailure>) {
    self.phase = phase
    self.rule = rule
  }
}

/// Where a ``TraitCheckInner`` stands.
@usableFromInline
enum TraitCheckState<Upstream, Output> {
  case awaitingRequest(Upstream)
  case awaitingSubscription(Subscribers.Demand)
  case awaitingElement(any Subscription)
  case awaitingCompletion(Output, any Subscription)
  case terminal
}

/// What a ``TraitCheckInner`` does after unlocking.
@usableFromInline
enum TraitCheckAction<Upstream, Output, Failure> {
  case none
  case subscribe(Upstream)
  case request(any Subscription, Subscribers.Demand)
  case cancel(any Subscription)
  case fail(Failure, cancelling: (any Subscription)?)
  case finish(Output?)
}
