/// The state of the subscriber behind one `values` iterator: the `next()` calls waiting for an element (the
/// waiters), the demand they stand for, and the upstream subscription.
///
/// Each `next()` adds a waiter and one element of demand: requested at once when subscribed, added up and
/// requested in one go when the subscription arrives. An element goes to the oldest waiter. A completion ends
/// every waiter: the oldest receives it (a failure is thrown to it) and the others see the end of the sequence.
/// A failure that arrives while nobody waits is kept and thrown by the next `next()`, once. Cancelling ends
/// every waiter and cancels the subscription; after completion or cancellation each `next()` returns `nil`.
///
/// An element that arrives before the subscription ends every waiter, as Combine does, but keeps their demand
/// for the subscription to come. An element that arrives while subscribed with nobody waiting means the
/// upstream sent more than was requested, which traps, as in Combine.
///
/// `Waiter` is whatever the iterator resumes (a continuation); the machine only keeps them in order.
@usableFromInline
struct AsyncPublisherStateMachine<Waiter, Failure: Error> {
  @usableFromInline
  enum Phase {
    /// No subscription yet; `demand` counts the `next()` calls made so far, even those already ended.
    case awaitingSubscription(waiters: [Waiter], demand: Subscribers.Demand)
    /// Each waiter has requested one element from `subscription`.
    case subscribed(any Subscription, waiters: [Waiter])
    /// Finished, failed or cancelled; `failure` arrived while nobody waited and is still to be thrown.
    case terminal(failure: Failure?)
    /// Held only inside a mutating method, so that the waiters array is not shared while it changes.
    case modifying
  }

  @usableFromInline var phase: Phase

  @inlinable
  init() {
    phase = .awaitingSubscription(waiters: [], demand: .none)
  }

  /// How many `next()` calls are waiting.
  @inlinable
  var waiterCount: Int {
    switch phase {
    case .awaitingSubscription(let waiters, _), .subscribed(_, let waiters): waiters.count
    case .terminal, .modifying: 0
    }
  }

  @usableFromInline
  enum UpstreamSubscribedAction {
    case request(any Subscription, Subscribers.Demand)
    case cancel(any Subscription)
    case none
  }

  @inlinable
  mutating func upstreamSubscribed(_ subscription: any Subscription) -> UpstreamSubscribedAction {
    switch phase {
    case .awaitingSubscription(let waiters, let demand):
      phase = .subscribed(subscription, waiters: waiters)
      return demand > 0 ? .request(subscription, demand) : .none
    case .subscribed, .terminal:
      return .cancel(subscription)
    case .modifying:
      preconditionFailure("AsyncPublisherStateMachine re-entered")
    }
  }

  @usableFromInline
  enum UpstreamValueAction {
    /// Hand the element to this waiter.
    case resume(Waiter)
    /// Drop the element and end these waiters (possibly none).
    case end([Waiter])
  }

  @inlinable
  mutating func upstreamValue() -> UpstreamValueAction {
    switch phase {
    case .awaitingSubscription(let waiters, let demand):
      phase = .awaitingSubscription(waiters: [], demand: demand)
      return .end(waiters)
    case .subscribed(_, let waiters) where waiters.isEmpty:
      // An element beyond the demand that `next()` requested: the upstream broke the contract. Combine traps;
      // Rill drops it and keeps going (TheContract.md, "Where Combine traps and Rill does not").
      return .end([])
    case .subscribed(let subscription, var waiters):
      phase = .modifying
      let first = waiters.removeFirst()
      phase = .subscribed(subscription, waiters: waiters)
      return .resume(first)
    case .terminal:
      return .end([])
    case .modifying:
      preconditionFailure("AsyncPublisherStateMachine re-entered")
    }
  }

  @usableFromInline
  enum CompletionAction {
    /// Give `completion` to `first` and end the sequence for `others`.
    case complete(first: Waiter, Subscribers.Completion<Failure>, others: ArraySlice<Waiter>)
    case none
  }

  /// Returns, besides the action, the upstream's subscription, which has completed, to release after unlocking.
  @inlinable
  mutating func upstreamCompleted(
    _ completion: Subscribers.Completion<Failure>
  ) -> (action: CompletionAction, released: (any Subscription)?) {
    switch phase {
    case .awaitingSubscription(let waiters, _), .subscribed(_, let waiters):
      var released: (any Subscription)?
      if case .subscribed(let subscription, _) = phase { released = subscription }
      guard let first = waiters.first else {
        if case .failure(let failure) = completion {
          phase = .terminal(failure: failure)
        } else {
          phase = .terminal(failure: nil)
        }
        return (.none, released)
      }
      phase = .terminal(failure: nil)
      return (.complete(first: first, completion, others: waiters.dropFirst()), released)
    case .terminal:
      return (.none, nil)
    case .modifying:
      preconditionFailure("AsyncPublisherStateMachine re-entered")
    }
  }

  @usableFromInline
  enum NextAction {
    /// Request one element from this subscription; the waiter has been stored.
    case request(any Subscription)
    /// The waiter has been stored; its demand goes to the subscription when it arrives.
    case wait
    /// The sequence has ended: return `nil`.
    case end
    /// Throw this failure, which arrived while nobody waited.
    case fail(Failure)
  }

  @inlinable
  mutating func next(_ waiter: Waiter) -> NextAction {
    switch phase {
    case .awaitingSubscription(var waiters, let demand):
      phase = .modifying
      waiters.append(waiter)
      phase = .awaitingSubscription(waiters: waiters, demand: demand + 1)
      return .wait
    case .subscribed(let subscription, var waiters):
      phase = .modifying
      waiters.append(waiter)
      phase = .subscribed(subscription, waiters: waiters)
      return .request(subscription)
    case .terminal(let failure?):
      phase = .terminal(failure: nil)
      return .fail(failure)
    case .terminal(nil):
      return .end
    case .modifying:
      preconditionFailure("AsyncPublisherStateMachine re-entered")
    }
  }

  /// Ends the sequence; returns the subscription to cancel, if any, the waiters to end, and a failure kept for the
  /// next `next()`, to release after unlocking.
  @inlinable
  mutating func cancel() -> (subscription: (any Subscription)?, waiters: [Waiter], released: Failure?) {
    switch phase {
    case .awaitingSubscription(let waiters, _):
      phase = .terminal(failure: nil)
      return (nil, waiters, nil)
    case .subscribed(let subscription, let waiters):
      phase = .terminal(failure: nil)
      return (subscription, waiters, nil)
    case .terminal(let failure):
      phase = .terminal(failure: nil)
      return (nil, [], failure)
    case .modifying:
      preconditionFailure("AsyncPublisherStateMachine re-entered")
    }
  }
}
