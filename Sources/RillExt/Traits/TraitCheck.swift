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

  /// What the upstream events mean: `missingElement` is `nil` for a maybe, whose upstream may finish empty.
  @usableFromInline
  struct Rule {
    @usableFromInline let missingElement: Downstream.Failure?
    @usableFromInline let tooManyElements: Downstream.Failure
    @usableFromInline let bothElementAndError: Downstream.Failure
    @usableFromInline let upstream: (Upstream.Failure) -> Downstream.Failure

    @inlinable
    init(
      missingElement: Downstream.Failure? = nil,
      tooManyElements: Downstream.Failure,
      bothElementAndError: Downstream.Failure,
      upstream: @escaping (Upstream.Failure) -> Downstream.Failure
    ) {
      self.missingElement = missingElement
      self.tooManyElements = tooManyElements
      self.bothElementAndError = bothElementAndError
      self.upstream = upstream
    }
  }

  @usableFromInline
  enum State {
    case awaitingRequest(Upstream)
    case awaitingSubscription(Subscribers.Demand)
    case awaitingElement(any Subscription)
    case awaitingCompletion(Upstream.Output, any Subscription)
    case terminal
  }

  @usableFromInline
  enum Action {
    case none
    case subscribe(Upstream)
    case request(any Subscription, Subscribers.Demand)
    case cancel(any Subscription)
    case fail(Downstream.Failure, cancelling: (any Subscription)?)
    case finish(Upstream.Output?)
  }

  @usableFromInline let downstream: Downstream
  @usableFromInline let rule: Rule
  @usableFromInline let state: Locked<State>

  @inlinable
  init(upstream: Upstream, downstream: Downstream, rule: Rule) {
    self.downstream = downstream
    self.rule = rule
    state = Locked(.awaitingRequest(upstream))
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    let action: Action = state.withLock { state in
      switch state {
      case .awaitingRequest(let upstream):
        state = .awaitingSubscription(demand)
        return .subscribe(upstream)
      case .awaitingSubscription(let pending):
        state = .awaitingSubscription(pending + demand)
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
      defer { state = .terminal }
      switch state {
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
      switch state {
      case .awaitingSubscription(let demand):
        state = .awaitingElement(subscription)
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
      switch state {
      case .awaitingElement(let subscription):
        state = .awaitingCompletion(input, subscription)
        return .request(subscription, .unlimited)
      case .awaitingCompletion(_, let subscription):
        state = .terminal
        return .fail(rule.tooManyElements, cancelling: subscription)
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
    let action: Action = state.withLock { state in
      let held: Upstream.Output?
      switch state {
      case .awaitingSubscription, .awaitingElement: held = nil
      case .awaitingCompletion(let value, _): held = value
      case .awaitingRequest, .terminal: return .none
      }
      state = .terminal
      switch (completion, held) {
      case (.finished, .some(let value)): return .finish(value)
      case (.finished, .none): return rule.missingElement.map { .fail($0, cancelling: nil) } ?? .finish(nil)
      case (.failure, .some): return .fail(rule.bothElementAndError, cancelling: nil)
      case (.failure(let error), .none): return .fail(rule.upstream(error), cancelling: nil)
      }
    }
    perform(action)
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
