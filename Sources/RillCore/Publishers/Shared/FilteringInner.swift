/// What a filtering operator does with one upstream element.
@usableFromInline
enum FilteringStep<Output, Failure: Error> {
  /// Republish the element and pass downstream's new demand upstream.
  case send(Output)
  /// Drop the element and ask upstream for one more in its place.
  case drop
  /// Republish the element, then cancel upstream and finish.
  case sendAndFinish(Output)
  /// Cancel upstream and finish.
  case finish
  /// Cancel upstream and fail.
  case fail(Failure)
}

/// Where Combine's filter-like operators differ: what happens before the upstream subscription arrives, and what
/// the debugger shows.
@usableFromInline
struct FilteringTraits<Memory> {
  /// Whether every element goes through the operator to downstream, with downstream's demand returned, whatever the
  /// link's phase: before the upstream subscription, and after the link ended by a completion, a failure or a cancel
  /// (`tryMap`, `tryScan`, `output(in:)`, as in Combine); otherwise only elements that arrive while subscribed do.
  @usableFromInline var forwardsEveryElement: Bool

  /// Whether a failure that `step` returns while the link is not subscribed still reaches downstream (`tryMap`, as in
  /// Combine: each throw fails downstream, also after an earlier one ended the link); otherwise it is dropped.
  @usableFromInline var forwardsEveryFailure: Bool

  /// Whether a cancel that arrives before the upstream subscription ends the link, so that the subscription is
  /// cancelled when it comes (`tryFilter`, `removeDuplicates`, `prefix(while:)`, ...), or does nothing, so that the
  /// subscription is taken as usual (`tryMap`, `tryScan`, `drop(while:)`, `output(in:)`).
  @usableFromInline var earlyCancelEndsLink: Bool

  /// The subscription's mirror children, from downstream, the operator's memory and the link to upstream.
  @usableFromInline
  var mirrorChildren: (_ downstream: Any, _ memory: Memory, _ link: SubscriptionState) -> [Mirror.Child]

  @inlinable
  init(
    forwardsEveryElement: Bool = false,
    forwardsEveryFailure: Bool = false,
    earlyCancelEndsLink: Bool = true,
    mirrorChildren: @escaping (_ downstream: Any, _ memory: Memory, _ link: SubscriptionState) -> [Mirror.Child] = {
      downstream,
      _,
      _ in [("downstream", downstream)]
    }
  ) {
    self.forwardsEveryElement = forwardsEveryElement
    self.forwardsEveryFailure = forwardsEveryFailure
    self.earlyCancelEndsLink = earlyCancelEndsLink
    self.mirrorChildren = mirrorChildren
  }

  /// The traits of the operators that Combine builds as plain pass-throughs: every element and every failure of the
  /// step goes through, an early cancel does nothing, and the mirror has no children.
  @inlinable
  static var passThrough: FilteringTraits {
    FilteringTraits(forwardsEveryElement: true, forwardsEveryFailure: true, earlyCancelEndsLink: false) { _, _, _ in
      []
    }
  }
}

/// The shared subscriber and subscription of the filter-like operators (`tryMap`, `tryFilter`, `tryScan`,
/// `removeDuplicates`, `prefix(while:)`, `drop(while:)`, `output(in:)` and their `try` variants).
///
/// Downstream's demand goes straight upstream; each element is handed to `step` together with the operator's
/// per-subscription `Memory`, and the returned `FilteringStep` says what to do. Steps that end the stream
/// cancel upstream before completing downstream. A completion that arrives while not subscribed (before the upstream
/// subscription, or after the link ended) is ignored; the operator's `FilteringTraits` say what happens to elements
/// and failures outside the link and to early cancels.
// SAFETY: all mutable state (the link to upstream and the memory) is in `state`; `step`, upstream and
// downstream are called outside the lock.
@usableFromInline
final class FilteringInner<Input, UpstreamFailure: Error, Memory, Downstream: Subscriber>: Subscriber, Subscription,
  CombineDescribable, @unchecked Sendable
{
  @usableFromInline typealias Failure = UpstreamFailure

  @usableFromInline typealias Step = (inout Memory, Input) -> FilteringStep<Downstream.Input, Downstream.Failure>

  @usableFromInline
  struct State {
    @usableFromInline var link: SubscriptionState
    @usableFromInline var memory: Memory

    @inlinable
    init(memory: Memory) {
      link = .awaitingSubscription
      self.memory = memory
    }
  }

  @usableFromInline let downstream: Downstream

  @usableFromInline let state: Locked<State>

  @usableFromInline let step: Step

  @usableFromInline let convertFailure: (UpstreamFailure) -> Downstream.Failure

  @usableFromInline let traits: FilteringTraits<Memory>

  @usableFromInline let description: String

  @inlinable
  init(
    _ name: String,
    downstream: Downstream,
    memory: Memory,
    traits: FilteringTraits<Memory> = FilteringTraits(),
    convertFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    step: @escaping Step
  ) {
    description = name
    self.downstream = downstream
    state = Locked(State(memory: memory))
    self.traits = traits
    self.convertFailure = convertFailure
    self.step = step
  }

  @usableFromInline
  var customMirror: Mirror {
    let (memory, link) = state.withLock { ($0.memory, $0.link) }
    return Mirror(self, children: traits.mirrorChildren(downstream, memory, link))
  }

  @inlinable
  func receive(subscription: any Subscription) {
    guard state.withLock({ $0.link.subscribe(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    let forwardsEvery = traits.forwardsEveryElement
    let current = state.withLock { state -> Memory? in
      state.link.isSubscribed || forwardsEvery ? .some(state.memory) : nil
    }
    guard var memory = current else { return .none }
    let next = step(&memory, input)
    if MemoryLayout<Memory>.size != 0 {
      // Swapped, not assigned: the memory it replaces (`removeDuplicates`' previous element) is released after
      // unlocking.
      state.withLock { swap(&$0.memory, &memory) }
    }
    switch next {
    case .send(let output):
      return downstream.receive(output)
    case .drop:
      return .max(1)
    case .sendAndFinish(let output):
      let demand = downstream.receive(output)
      end(with: .finished)
      return demand
    case .finish:
      end(with: .finished)
    case .fail(let error):
      end(with: .failure(error))
    }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    guard state.withLock({ $0.link.isSubscribed ? $0.link.terminate() : nil }) != nil else { return }
    switch completion {
    case .finished: downstream.receive(completion: .finished)
    case .failure(let error): downstream.receive(completion: .failure(convertFailure(error)))
    }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(description): a subscriber requested \(demand); demand must be greater than zero")
    state.withLock { $0.link.upstream }?.request(demand)
  }

  @inlinable
  func cancel() {
    let endsEarly = traits.earlyCancelEndsLink
    state.withLock { state in
      state.link.isAwaitingSubscription && !endsEarly ? nil : state.link.terminate()
    }?.cancel()
  }

  /// Cancels upstream and completes downstream, unless the link already ended (say, downstream cancelled) or has not
  /// begun (an early element ends nothing); a failure then still reaches downstream when the traits say so.
  @inlinable
  func end(with completion: Subscribers.Completion<Downstream.Failure>) {
    guard let upstream = state.withLock({ $0.link.isSubscribed ? $0.link.terminate() : nil }) else {
      if case .failure = completion, traits.forwardsEveryFailure {
        downstream.receive(completion: completion)
      }
      return
    }
    upstream.cancel()
    downstream.receive(completion: completion)
  }
}
