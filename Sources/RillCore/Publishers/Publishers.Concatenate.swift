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
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Suffix.Failure == S.Failure, Suffix.Output == S.Input {
      let inner = Inner(downstream: subscriber, suffix: suffix)
      prefix.subscribe(Side<S, PrefixPhase>(inner: inner))
    }
  }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publishers.Concatenate {
  /// A `Concatenate` subscription's phases: running the prefix, running the suffix, and ended.
  @usableFromInline
  enum State {
    /// Subscribed to the prefix; `upstream` is its subscription once it has arrived. The suffix waits, and is
    /// released on cancel, as in Combine.
    case prefix(upstream: (any Subscription)?, suffix: Suffix, demand: Subscribers.Demand)
    /// Subscribed to the suffix; `upstream` is its subscription once it has arrived.
    case suffix(upstream: (any Subscription)?, demand: Subscribers.Demand)
    /// Cancelled, or completed downstream.
    case terminal

    @usableFromInline
    enum SubscribedAction {
      /// Send downstream its subscription first (the prefix's arrived), then request `demand` if it is not zero.
      case start(isFirst: Bool, demand: Subscribers.Demand)
      /// A second subscription, or one that arrived too late: cancel it.
      case cancel
    }

    @usableFromInline
    enum CompletedAction {
      case subscribe(Suffix)
      case forward(Subscribers.Completion<Failure>)
      case ignore
    }

    /// Adds downstream demand; returns the subscription to forward it to, if any.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
      switch self {
      case .prefix(let upstream, let suffix, let demand):
        self = .prefix(upstream: upstream, suffix: suffix, demand: demand + more)
        return upstream
      case .suffix(let upstream, let demand):
        self = .suffix(upstream: upstream, demand: demand + more)
        return upstream
      case .terminal:
        return nil
      }
    }

    /// Ends on downstream's cancel; returns the running subscription to cancel and the suffix to release.
    @inlinable
    mutating func cancel() -> ((any Subscription)?, Suffix?) {
      switch self {
      case .prefix(let upstream, let suffix, _):
        self = .terminal
        return (upstream, suffix)
      case .suffix(let upstream, _):
        self = .terminal
        return (upstream, nil)
      case .terminal:
        return (nil, nil)
      }
    }

    @inlinable
    mutating func subscribed(_ side: ConcatenateSide, _ subscription: any Subscription) -> SubscribedAction {
      switch (self, side) {
      case (.prefix(nil, let suffix, let demand), .prefix):
        self = .prefix(upstream: subscription, suffix: suffix, demand: demand)
        return .start(isFirst: true, demand: demand)
      case (.suffix(nil, let demand), .suffix):
        self = .suffix(upstream: subscription, demand: demand)
        return .start(isFirst: false, demand: demand)
      default:
        return .cancel
      }
    }

    /// Takes one unit of demand for a value of `side`; `false` if the value must be dropped: as in Combine, one
    /// that arrives before that side's subscription, or beyond downstream's demand.
    @inlinable
    mutating func received(_ side: ConcatenateSide) -> Bool {
      switch (self, side) {
      case (.prefix(let upstream?, let suffix, let demand), .prefix) where demand > 0:
        self = .prefix(upstream: upstream, suffix: suffix, demand: demand - 1)
        return true
      case (.suffix(let upstream?, let demand), .suffix) where demand > 0:
        self = .suffix(upstream: upstream, demand: demand - 1)
        return true
      default:
        return false
      }
    }

    /// Adds the demand downstream returned from a value of `side`, if that side still runs.
    @inlinable
    mutating func returned(_ additional: Subscribers.Demand, from side: ConcatenateSide) {
      switch (self, side) {
      case (.prefix(let upstream, let suffix, let demand), .prefix):
        self = .prefix(upstream: upstream, suffix: suffix, demand: demand + additional)
      case (.suffix(let upstream, let demand), .suffix):
        self = .suffix(upstream: upstream, demand: demand + additional)
      default:
        break
      }
    }

    /// As in Combine, a completion before the running side's subscription is ignored.
    ///
    /// Returns, besides the action, the state it leaves (the completed side's subscription, and the suffix after a
    /// failure of the prefix), to release after unlocking.
    @inlinable
    mutating func completed(
      _ side: ConcatenateSide,
      _ completion: Subscribers.Completion<Failure>
    ) -> (action: CompletedAction, released: State?) {
      switch (self, side, completion) {
      case (.prefix(_?, let suffix, let demand), .prefix, .finished):
        defer { self = .suffix(upstream: nil, demand: demand) }
        return (.subscribe(suffix), self)
      case (.prefix(_?, _, _), .prefix, _), (.suffix(_?, _), .suffix, _):
        defer { self = .terminal }
        return (.forward(completion), self)
      default:
        return (.ignore, nil)
      }
    }
  }

  /// Marks the subscriber given to the prefix; as in Combine, it is of another type than the suffix's.
  @usableFromInline
  enum PrefixPhase: ConcatenatePhase { @inlinable static var side: ConcatenateSide { .prefix } }

  /// Marks the subscriber given to the suffix.
  @usableFromInline
  enum SuffixPhase: ConcatenatePhase { @inlinable static var side: ConcatenateSide { .suffix } }

  // SAFETY: all mutable state is in `state`; downstream and upstreams are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let state: Locked<State>

    @inlinable
    init(downstream: Downstream, suffix: Suffix) {
      self.downstream = downstream
      state = Locked(.prefix(upstream: nil, suffix: suffix, demand: .none))
    }

    @inlinable
    var description: String { "Concatenate" }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      state.withLock { $0.request(demand) }?.request(demand)
    }

    @inlinable
    func cancel() {
      let (upstream, suffix) = state.withLock { $0.cancel() }
      upstream?.cancel()
      // Released here, outside the lock.
      _ = suffix
    }

    @inlinable
    func subscribed(_ side: ConcatenateSide, _ subscription: any Subscription) {
      switch state.withLock({ $0.subscribed(side, subscription) }) {
      case .start(let isFirst, let demand):
        if isFirst { downstream.receive(subscription: self) }
        if demand > 0 { subscription.request(demand) }
      case .cancel:
        subscription.cancel()
      }
    }

    @inlinable
    func received(_ side: ConcatenateSide, _ input: Output) -> Subscribers.Demand {
      guard state.withLock({ $0.received(side) }) else { return .none }
      let additional = downstream.receive(input)
      guard additional > 0 else { return .none }
      state.withLock { $0.returned(additional, from: side) }
      return additional
    }

    @inlinable
    func completed(_ side: ConcatenateSide, _ completion: Subscribers.Completion<Failure>) {
      let (action, released) = state.withLock { $0.completed(side, completion) }
      _ = released
      switch action {
      case .subscribe(let suffix): suffix.subscribe(Side<Downstream, SuffixPhase>(inner: self))
      case .forward(let completion): downstream.receive(completion: completion)
      case .ignore: break
      }
    }
  }

  /// The subscriber given to the prefix or the suffix; it shares the subscription's identifier, description and
  /// (empty) mirror, as Combine's do.
  @usableFromInline
  struct Side<Downstream: Subscriber, Phase: ConcatenatePhase>: Subscriber, CombineDescribable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    typealias Input = Output

    @usableFromInline
    let inner: Inner<Downstream>

    @inlinable
    var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

    @inlinable
    var description: String { inner.description }

    @inlinable
    var customMirror: Mirror { inner.customMirror }

    @inlinable
    func receive(subscription: any Subscription) {
      inner.subscribed(Phase.side, subscription)
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
      inner.received(Phase.side, input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      inner.completed(Phase.side, completion)
    }

    @inlinable
    init(inner: Inner<Downstream>) {
      self.inner = inner
    }
  }
}

/// The two publishers of a `Concatenate`.
@usableFromInline
enum ConcatenateSide {
  case prefix
  case suffix
}

/// Which side of a `Concatenate` a subscriber serves.
@usableFromInline
protocol ConcatenatePhase {
  static var side: ConcatenateSide { get }
}
