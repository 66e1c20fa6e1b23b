extension Publisher {
  /// Appends a publisher’s output with the specified elements.
  ///
  /// ```
  /// upstream:     -1-2-|
  /// append(8, 9): -1-2-[89]|
  /// ```
  ///
  /// - Parameter elements: Elements to publish after this publisher’s elements.
  /// - Returns: A publisher that appends the specified elements after this publisher’s elements.
  public func append(
    _ elements: Output...
  ) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
    append(Publishers.Sequence(sequence: elements))
  }

  /// Appends a publisher’s output with the elements of a sequence.
  ///
  /// ```
  /// upstream:       -1-2-|
  /// append([8, 9]): -1-2-[89]|
  /// ```
  ///
  /// - Parameter elements: A sequence of elements to publish after this publisher’s elements.
  /// - Returns: A publisher that appends the sequence of elements after this publisher’s elements.
  public func append<S: Swift.Sequence>(
    _ elements: S
  ) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>> where Output == S.Element {
    append(Publishers.Sequence(sequence: elements))
  }

  /// Appends the output of a publisher to this publisher’s output.
  ///
  /// ```
  /// upstream:      -1-2-|
  /// other:              -8-9|
  /// append(other): -1-2--8-9|
  /// ```
  ///
  /// The other publisher is subscribed only after this one finishes; if this one fails, it is never subscribed.
  ///
  /// - Parameter publisher: The publisher to republish after this publisher finishes.
  /// - Returns: A publisher that republishes this publisher’s elements, then the other publisher’s elements.
  public func append<P: Publisher>(
    _ publisher: P
  ) -> Publishers.Concatenate<Self, P> where Failure == P.Failure, Output == P.Output {
    Publishers.Concatenate(prefix: self, suffix: publisher)
  }

  /// Prefixes a publisher’s output with the specified elements.
  ///
  /// ```
  /// upstream:      ---1-2-|
  /// prepend(8, 9): [89]-1-2-|
  /// ```
  ///
  /// - Parameter elements: The elements to publish before this publisher’s elements.
  /// - Returns: A publisher that prefixes the specified elements prior to this publisher’s elements.
  public func prepend(
    _ elements: Output...
  ) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
    prepend(Publishers.Sequence(sequence: elements))
  }

  /// Prefixes a publisher’s output with the elements of a sequence.
  ///
  /// ```
  /// upstream:        ---1-2-|
  /// prepend([8, 9]): [89]-1-2-|
  /// ```
  ///
  /// - Parameter elements: A sequence of elements to publish before this publisher’s elements.
  /// - Returns: A publisher that prefixes the sequence of elements prior to this publisher’s elements.
  public func prepend<S: Swift.Sequence>(
    _ elements: S
  ) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self> where Output == S.Element {
    prepend(Publishers.Sequence(sequence: elements))
  }

  /// Prefixes the output of this publisher with the elements emitted by the given publisher.
  ///
  /// ```
  /// other:          -8-9|
  /// upstream:           -1-2-|
  /// prepend(other): -8-9-1-2-|
  /// ```
  ///
  /// This publisher is subscribed only after the other one finishes.
  ///
  /// - Parameter publisher: The prefixing publisher.
  /// - Returns: A publisher that prefixes the prefixing publisher’s elements prior to this publisher’s elements.
  public func prepend<P: Publisher>(
    _ publisher: P
  ) -> Publishers.Concatenate<P, Self> where Failure == P.Failure, Output == P.Output {
    Publishers.Concatenate(prefix: publisher, suffix: self)
  }
}

extension Publishers {
  /// A publisher that emits all of one publisher’s elements before those from another publisher.
  ///
  /// Outstanding downstream demand carries over from the prefix to the suffix.
  public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
  where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
    public typealias Output = Suffix.Output

    public typealias Failure = Suffix.Failure

    /// The publisher to republish, in its entirety, before republishing elements from `suffix`.
    public let prefix: Prefix

    /// The publisher to republish only after `prefix` finishes.
    public let suffix: Suffix

    /// Creates a publisher that emits all of one publisher’s elements before those from another publisher.
    ///
    /// - Parameters:
    ///   - prefix: The publisher to republish, in its entirety, before republishing elements from `suffix`.
    ///   - suffix: The publisher to republish only after `prefix` finishes.
    public init(prefix: Prefix, suffix: Suffix) {
      self.prefix = prefix
      self.suffix = suffix
    }

    /// As in Combine, the subscriber receives its subscription once the prefix has sent one.
    public func receive<S: Subscriber>(subscriber: S) where Suffix.Failure == S.Failure, Suffix.Output == S.Input {
      let inner = Inner(downstream: subscriber, suffix: suffix)
      prefix.subscribe(Side<S, PrefixPhase>(inner: inner))
    }
  }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publishers.Concatenate {
  private struct State {
    /// 0 while the prefix runs, 1 while the suffix runs.
    var phase = 0
    var upstream: (any Subscription)?
    /// The publisher to subscribe to after the prefix, until then; released on cancel, as in Combine.
    var suffix: Suffix?
    var hasSentSubscription = false
    var demand = Subscribers.Demand.none
    var isTerminated = false
  }

  /// Marks the subscriber given to the prefix; as in Combine, it is of another type than the suffix's.
  private enum PrefixPhase: ConcatenatePhase { static var index: Int { 0 } }

  /// Marks the subscriber given to the suffix.
  private enum SuffixPhase: ConcatenatePhase { static var index: Int { 1 } }

  private enum CompletionStep {
    case subscribe(Suffix)
    case forward(Subscribers.Completion<Failure>)
    case ignore
  }

  // SAFETY: all mutable state is in `state`; downstream and upstreams are called outside the lock.
  private final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    private let downstream: Downstream
    private let state: Locked<State>

    init(downstream: Downstream, suffix: Suffix) {
      self.downstream = downstream
      state = Locked(State(suffix: suffix))
    }

    var description: String { "Concatenate" }

    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }

    func request(_ demand: Subscribers.Demand) {
      let upstream = state.withLock { state -> (any Subscription)? in
        guard !state.isTerminated else { return nil }
        state.demand += demand
        return state.upstream
      }
      upstream?.request(demand)
    }

    func cancel() {
      let (upstream, suffix) = state.withLock { state -> ((any Subscription)?, Suffix?) in
        guard !state.isTerminated else { return (nil, nil) }
        state.isTerminated = true
        defer { state.upstream = nil }
        return (state.upstream, state.suffix.take())
      }
      upstream?.cancel()
      _ = suffix
    }

    func subscribed(_ phase: Int, _ subscription: any Subscription) {
      let action = state.withLock { state -> (isFirst: Bool, demand: Subscribers.Demand)? in
        guard !state.isTerminated, state.phase == phase, state.upstream == nil else { return nil }
        state.upstream = subscription
        defer { state.hasSentSubscription = true }
        return (!state.hasSentSubscription, state.demand)
      }
      guard let action else { return subscription.cancel() }
      if action.isFirst { downstream.receive(subscription: self) }
      if action.demand > 0 { subscription.request(action.demand) }
    }

    /// Forwards a value of the running side; as in Combine, one that arrives before that side's subscription or
    /// beyond downstream's demand is dropped.
    func received(_ phase: Int, _ input: Output) -> Subscribers.Demand {
      let isLive = state.withLock { state -> Bool in
        guard !state.isTerminated, state.phase == phase, state.upstream != nil, state.demand > 0 else { return false }
        state.demand -= 1
        return true
      }
      guard isLive else { return .none }
      let additional = downstream.receive(input)
      guard additional > 0 else { return .none }
      state.withLock { state in
        if !state.isTerminated, state.phase == phase { state.demand += additional }
      }
      return additional
    }

    func completed(_ phase: Int, _ completion: Subscribers.Completion<Failure>) {
      let step = state.withLock { state -> CompletionStep in
        // As in Combine, a completion before the running side's subscription is ignored.
        guard !state.isTerminated, state.phase == phase, state.upstream != nil else { return .ignore }
        state.upstream = nil
        if phase == 0, case .finished = completion, let suffix = state.suffix.take() {
          state.phase = 1
          return .subscribe(suffix)
        }
        state.isTerminated = true
        return .forward(completion)
      }
      switch step {
      case .subscribe(let suffix): suffix.subscribe(Side<Downstream, SuffixPhase>(inner: self))
      case .forward(let completion): downstream.receive(completion: completion)
      case .ignore: break
      }
    }
  }

  /// The subscriber given to the prefix or the suffix; it shares the subscription's identifier, description and
  /// (empty) mirror, as Combine's do.
  private struct Side<Downstream: Subscriber, Phase: ConcatenatePhase>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
  where Downstream.Input == Output, Downstream.Failure == Failure {
    typealias Input = Output

    let inner: Inner<Downstream>

    var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

    var description: String { inner.description }

    var customMirror: Mirror { inner.customMirror }

    var playgroundDescription: Any { inner.playgroundDescription }

    func receive(subscription: any Subscription) {
      inner.subscribed(Phase.index, subscription)
    }

    func receive(_ input: Output) -> Subscribers.Demand {
      inner.received(Phase.index, input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      inner.completed(Phase.index, completion)
    }
  }
}

/// Which side of a `Concatenate` a subscriber serves.
private protocol ConcatenatePhase {
  static var index: Int { get }
}
