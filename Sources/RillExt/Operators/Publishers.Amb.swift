extension Publisher {
  /// Mirrors whichever of this publisher and `other` sends an event first, and cancels the other.
  ///
  /// ```
  /// upstream:    ---1---2-|
  /// other:       --a-b-----|
  /// amb(other):  --a-b-----|
  /// ```
  ///
  /// Both publishers are subscribed (this one first) and asked for one value each, to run the race, before downstream
  /// receives its subscription. The first one to send a value or a completion wins: the other is cancelled (or, if it
  /// has not been subscribed yet, never is), and from then on the winner's events are republished and downstream's
  /// demand goes to it. An event sent while the publishers are being subscribed waits for downstream, as does a value
  /// that finds no demand. The values the winner is asked for in all are exactly those downstream asks for, or one if
  /// downstream asks for none.
  ///
  /// - Parameter other: The publisher to race against this one.
  /// - Returns: A publisher that mirrors the first of the two to send an event.
  public func amb<Other: Publisher>(
    _ other: Other
  ) -> Publishers.Amb<Self, Other> where Other.Output == Output, Other.Failure == Failure {
    Publishers.Amb(first: self, second: other)
  }

  /// Mirrors whichever of this publisher and `others` sends an event first, and cancels the rest.
  ///
  /// ```
  /// upstream:           ----1-|
  /// a:                  --a-b--|
  /// b:                  ---x----|
  /// amb(with: a, b):    --a-b--|
  /// ```
  ///
  /// A chain of ``RillCore/Publishers/Amb``, one link per other publisher; see ``RillCore/Publisher/amb(_:)``.
  ///
  /// - Parameter others: The publishers to race against this one.
  /// - Returns: A publisher that mirrors the first of them to send an event.
  public func amb<Other: Publisher>(
    with others: Other...
  ) -> AnyPublisher<Output, Failure> where Other.Output == Output, Other.Failure == Failure {
    amb(with: others)
  }

  /// Mirrors whichever of this publisher and `others` sends an event first, and cancels the rest.
  ///
  /// ```
  /// upstream:           ----1-|
  /// a:                  --a-b--|
  /// b:                  ---x----|
  /// amb(with: [a, b]):  --a-b--|
  /// ```
  ///
  /// A chain of ``RillCore/Publishers/Amb``, one link per other publisher; see ``RillCore/Publisher/amb(_:)``.
  ///
  /// - Parameter others: The publishers to race against this one.
  /// - Returns: A publisher that mirrors the first of them to send an event.
  @inlinable
  public func amb<Others: Collection>(
    with others: Others
  ) -> AnyPublisher<Output, Failure>
  where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
    others.reduce(eraseToAnyPublisher()) { raced, other in raced.amb(other).eraseToAnyPublisher() }
  }
}

extension Collection where Element: Publisher {
  /// Mirrors whichever of this collection's publishers sends an event first, and cancels the rest.
  ///
  /// ```
  /// [a, b] with  a: ---1-2-|  b: --x-----|
  /// amb():  --x-----|
  /// ```
  ///
  /// See ``RillCore/Publisher/amb(_:)``. An empty collection finishes at once.
  ///
  /// - Returns: A publisher that mirrors the first of them to send an event.
  @inlinable
  public func amb() -> AnyPublisher<Element.Output, Element.Failure> {
    guard let first = first else { return Empty().eraseToAnyPublisher() }
    return first.amb(with: dropFirst())
  }
}

extension Publishers {
  /// A publisher that mirrors whichever of two publishers sends an event first.
  ///
  /// Create one with ``RillCore/Publisher/amb(_:)``.
  public struct Amb<First: Publisher, Second: Publisher>: Publisher
  where First.Output == Second.Output, First.Failure == Second.Failure {
    public typealias Output = First.Output

    public typealias Failure = First.Failure

    /// The publisher subscribed first.
    public let first: First

    /// The publisher subscribed second, unless the first one already sent an event.
    public let second: Second

    /// Creates a publisher that mirrors whichever of `first` and `second` sends an event first.
    ///
    /// - Parameters:
    ///   - first: The publisher subscribed first.
    ///   - second: The publisher subscribed second.
    public init(first: First, second: Second) {
      self.first = first
      self.second = second
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let inner = Inner(downstream: subscriber)
      inner.start(first: first, second: second)
      inner.handOut()
    }
  }
}

extension Publishers.Amb {
  @usableFromInline
  enum Side {
    case first
    case second
  }

  // SAFETY: all mutable state is in `state`; downstream and both subscriptions are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    enum Link {
      case awaitingSubscription
      case subscribed(any Subscription)
      /// Completed, cancelled, or lost the race.
      case ended
    }

    @usableFromInline
    struct State {
      @usableFromInline
      var buffer = DemandBuffer<Output, Failure>()
      @usableFromInline
      var winner: Side?
      @usableFromInline
      var first = Link.awaitingSubscription
      @usableFromInline
      var second = Link.awaitingSubscription
      /// All that downstream asked for, in requests and in what its deliveries returned.
      @usableFromInline
      var requested = Subscribers.Demand.none
      /// All that the winner was asked for: one to run the race, then what `requested` adds.
      @usableFromInline
      var granted = Subscribers.Demand.max(1)
      /// Whether downstream has been given its subscription; nothing reaches it before.
      @usableFromInline
      var isHandedOut = false
      /// Whether a completion that came before the hand-out waits for it, the buffer's delivery claimed.
      @usableFromInline
      var completionWaitsForHandOut = false

      @inlinable
      subscript(side: Side) -> Link {
        get { side == .first ? first : second }
        set {
          if side == .first { first = newValue } else { second = newValue }
        }
      }

      /// The winner's subscription, if it is still live.
      @inlinable
      var winnerSubscription: (any Subscription)? {
        guard let winner, case .subscribed(let subscription) = self[winner] else { return nil }
        return subscription
      }

      /// Adds downstream demand; returns what to request from the winner (nothing before the race is decided).
      @inlinable
      mutating func add(_ demand: Subscribers.Demand) -> Subscribers.Demand {
        requested += demand
        guard winner != nil, !buffer.hasEnded, requested > granted else { return .none }
        defer { granted = requested }
        return requested - granted
      }

      /// An event from `side`: returns whether it counts (it won now or before), and the loser to cancel if it won now.
      @inlinable
      mutating func race(_ side: Side) -> (counts: Bool, loser: (any Subscription)?) {
        guard !buffer.hasEnded else { return (false, nil) }
        if let winner { return (winner == side, nil) }
        winner = side
        let loserSide: Side = side == .first ? .second : .first
        defer { self[loserSide] = .ended }
        guard case .subscribed(let loser) = self[loserSide] else { return (true, nil) }
        return (true, loser)
      }

      /// Ends the subscription: returns the live subscriptions, to cancel, and the values that waited, to release
      /// after unlocking.
      @inlinable
      mutating func end() -> (live: [any Subscription], released: FIFO<Output>) {
        var live: [any Subscription] = []
        if case .subscribed(let subscription) = first { live.append(subscription) }
        if case .subscribed(let subscription) = second { live.append(subscription) }
        first = .ended
        second = .ended
        return (live, buffer.end())
      }
    }

    @usableFromInline
    let downstream: Downstream

    @usableFromInline
    let state = Locked(State())

    /// Held around the hand-out of the subscription and around a completion's delivery: a completion from another
    /// thread waits until downstream has its subscription, and one sent from inside `receive(subscription:)` is
    /// delivered at once.
    @usableFromInline
    let handOutLock = DeliveryLock()

    @inlinable
    init(downstream: Downstream) {
      self.downstream = downstream
    }

    @inlinable
    var description: String { "Amb.Subscription<\(Output.self), \(Failure.self)>" }

    /// Subscribes to the first publisher, then to the second unless the race is over.
    @inlinable
    func start(first: First, second: Second) {
      first.subscribe(Racer(inner: self, side: .first))
      guard state.withLock({ $0.winner == nil && !$0.buffer.hasEnded }) else { return }
      second.subscribe(Racer(inner: self, side: .second))
    }

    /// Gives downstream its subscription, then the completion the winner sent before, if nothing came ahead of it.
    @inlinable
    func handOut() {
      handOutLock.withLock {
        state.withLock { $0.isHandedOut = true }
        downstream.receive(subscription: self)
      }
      let drains = state.withLock { state in
        defer { state.completionWaitsForHandOut = false }
        return state.completionWaitsForHandOut
      }
      if drains { requestFromWinner(drain(adding: .none)) }
    }

    // MARK: The racers

    @inlinable
    func receive(subscription: any Subscription, from side: Side) {
      let accepted = state.withLock { state -> Bool in
        guard case .awaitingSubscription = state[side], state.winner == nil, !state.buffer.hasEnded else {
          return false
        }
        state[side] = .subscribed(subscription)
        return true
      }
      if accepted { subscription.request(.max(1)) } else { subscription.cancel() }
    }

    @inlinable
    func receive(_ input: Output, from side: Side) -> Subscribers.Demand {
      let (deliver, loser, forward) = state.withLock { state -> (Bool, (any Subscription)?, Subscribers.Demand) in
        let (counts, loser) = state.race(side)
        guard counts else { return (false, nil, .none) }
        return (state.buffer.send(input), loser, state.add(.none))
      }
      loser?.cancel()
      guard deliver else { return forward }
      return forward + drain(adding: downstream.receive(input))
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>, from side: Side) {
      // The winner's subscription, which has completed, is released after unlocking.
      let (drains, loser, winner) = state.withLock { state -> (Bool, (any Subscription)?, Link?) in
        let (counts, loser) = state.race(side)
        guard counts else { return (false, nil, nil) }
        // The winner is done: nothing to cancel when the completion reaches downstream.
        let winner = state[side]
        state[side] = .ended
        let drains = state.buffer.send(completion: completion)
        if drains && !state.isHandedOut {
          state.completionWaitsForHandOut = true
          return (false, loser, winner)
        }
        return (drains, loser, winner)
      }
      _ = winner
      loser?.cancel()
      guard drains else { return }
      requestFromWinner(handOutLock.withLock { drain(adding: .none) })
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      // As in CombineExt, a request of `.none` does nothing.
      guard demand > 0 else { return }
      let (drains, forward) = state.withLock { state in (state.buffer.request(demand), state.add(demand)) }
      let more = drains ? drain(adding: .none) : .none
      requestFromWinner(forward + more)
    }

    @inlinable
    func cancel() {
      let (live, released) = state.withLock { $0.end() }
      _ = released
      for subscription in live { subscription.cancel() }
    }

    /// Delivers what waits, as far as demand goes; returns the demand to pass on to the winner.
    ///
    /// Only the thread the buffer chose runs this.
    @inlinable
    func drain(adding demand: Subscribers.Demand) -> Subscribers.Demand {
      var forward = Subscribers.Demand.none
      // What the end lets go of leaves the lock here, and is released after unlocking.
      var ended: (live: [any Subscription], released: FIFO<Output>)?
      state.drain(to: downstream, adding: demand) { state, demand in
        forward += state.add(demand)
        let step = state.buffer.next(adding: demand)
        if case .complete = step { ended = state.end() }
        return step
      }
      return ended == nil ? forward : .none
    }

    @inlinable
    func requestFromWinner(_ demand: Subscribers.Demand) {
      guard demand > 0, let winner = state.withLock({ $0.winnerSubscription }) else { return }
      winner.request(demand)
    }
  }

  /// The subscriber to one of the two publishers, which hands its events to `Inner`.
  // SAFETY: immutable; `Inner` keeps the state.
  @usableFromInline
  final class Racer<Downstream: Subscriber>: Subscriber, CustomStringConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    typealias Input = Output

    @usableFromInline
    let inner: Inner<Downstream>

    @usableFromInline
    let side: Side

    @inlinable
    init(inner: Inner<Downstream>, side: Side) {
      self.inner = inner
      self.side = side
    }

    @inlinable
    var description: String { "Amb" }

    @inlinable
    func receive(subscription: any Subscription) {
      inner.receive(subscription: subscription, from: side)
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
      inner.receive(input, from: side)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      inner.receive(completion: completion, from: side)
    }
  }
}
