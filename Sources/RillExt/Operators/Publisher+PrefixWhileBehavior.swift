/// Whether `prefix(while:behavior:)` also republishes the first value that fails its predicate.
public enum PrefixWhileBehavior {
  /// Republish the first value that fails the predicate, then finish.
  case inclusive

  /// Finish on the first value that fails the predicate, without it (Combine's `prefix(while:)`).
  case exclusive
}

extension Publisher {
  /// Republishes values while `predicate` holds, then finishes, with or without the value that ended it.
  ///
  /// ```
  /// upstream:                                          -1-2-3-1-|
  /// prefix(while: { $0 < 3 }, behavior: .inclusive):  -1-2-3|
  /// prefix(while: { $0 < 3 }, behavior: .exclusive):  -1-2-|
  /// ```
  ///
  /// The first value for which `predicate` returns `false` cancels this publisher's subscription and finishes the
  /// stream; with `.inclusive` that value is republished just before the finish. `.exclusive` is Combine's
  /// `prefix(while:)`. Demand goes straight upstream, and a completion before the end is republished.
  ///
  /// - Parameters:
  ///   - predicate: A closure that says whether to go on after a value.
  ///   - behavior: Whether to republish the value that ends the stream; `.exclusive` by default.
  /// - Returns: A publisher of the values up to the first that fails `predicate`.
  @inlinable
  public func prefix(
    while predicate: @escaping (Output) -> Bool,
    behavior: PrefixWhileBehavior = .exclusive
  ) -> AnyPublisher<Output, Failure> {
    switch behavior {
    case .exclusive:
      return prefix(while: predicate).eraseToAnyPublisher()
    case .inclusive:
      return PrefixThroughPublisher(upstream: self, predicate: predicate).eraseToAnyPublisher()
    }
  }
}

/// `prefix(while:behavior: .inclusive)`: republishes values up to and including the first that fails `predicate`.
@usableFromInline
struct PrefixThroughPublisher<Upstream: Publisher>: Publisher {
  @usableFromInline typealias Output = Upstream.Output

  @usableFromInline typealias Failure = Upstream.Failure

  @usableFromInline let upstream: Upstream

  @usableFromInline let predicate: (Output) -> Bool

  @inlinable
  init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
    self.upstream = upstream
    self.predicate = predicate
  }

  @inlinable
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
  }
}

extension PrefixThroughPublisher {
  // SAFETY: all mutable state is in `phase`; upstream, downstream and the predicate are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Output

    @usableFromInline
    enum Phase {
      case awaitingSubscription
      case subscribed(any Subscription)
      case terminal
    }

    @usableFromInline let downstream: Downstream

    @usableFromInline let predicate: (Output) -> Bool

    @usableFromInline let phase = Locked(Phase.awaitingSubscription)

    @inlinable
    init(downstream: Downstream, predicate: @escaping (Output) -> Bool) {
      self.downstream = downstream
      self.predicate = predicate
    }

    @usableFromInline var description: String { "PrefixWhile" }

    @inlinable
    func receive(subscription: any Subscription) {
      let accepted = phase.withLock { phase -> Bool in
        guard case .awaitingSubscription = phase else { return false }
        phase = .subscribed(subscription)
        return true
      }
      guard accepted else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
      guard case .subscribed = phase.withLock({ $0 }) else { return .none }
      if predicate(input) { return downstream.receive(input) }
      // The value that ends the stream: it goes, then the finish, unless a cancel came meanwhile.
      guard let upstream = terminate() else { return .none }
      upstream.cancel()
      _ = downstream.receive(input)
      downstream.receive(completion: .finished)
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      guard terminate() != nil else { return }
      downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "PrefixWhile: a subscriber requested \(demand); demand must be greater than zero")
      guard case .subscribed(let upstream) = phase.withLock({ $0 }) else { return }
      upstream.request(demand)
    }

    @inlinable
    func cancel() {
      terminate()?.cancel()
    }

    /// Ends the subscription; returns upstream's subscription if this call ended it.
    @discardableResult
    @inlinable
    func terminate() -> (any Subscription)? {
      phase.withLock { phase -> (any Subscription)? in
        guard case .subscribed(let upstream) = phase else { return nil }
        phase = .terminal
        return upstream
      }
    }
  }
}
