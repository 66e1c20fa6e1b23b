extension Publisher where Output: EventConvertible, Failure == Never {
  /// Turns a publisher of ``Event``s back into the publisher they describe: values become values, and a `.failure` or
  /// `.finished` event ends the stream.
  ///
  /// ```
  /// upstream:                       -1-2-^
  /// materialize().dematerialize():  -1-2-^
  /// ```
  ///
  /// The event that ends the stream also cancels upstream; anything upstream sends after it is ignored. If upstream
  /// finishes without such an event, the returned publisher finishes too. Demand goes straight upstream.
  ///
  /// - Returns: A publisher that republishes the events of a materialized publisher as real events.
  @inlinable
  public func dematerialize() -> Publishers.Dematerialize<Self> {
    Publishers.Dematerialize(upstream: self)
  }
}

extension Publishers {
  /// A publisher that turns the ``Event``s of its upstream back into values and a completion.
  ///
  /// Build it with `dematerialize()`, which requires an upstream that cannot fail: the events are the only way the
  /// returned publisher fails. An upstream built directly with a failure type other than `Never` that does fail stops
  /// the program, since its error cannot be passed on.
  public struct Dematerialize<Upstream: Publisher>: Publisher where Upstream.Output: EventConvertible {
    public typealias Output = Upstream.Output.Output

    public typealias Failure = Upstream.Output.Failure

    /// The publisher whose events this publisher turns back into values and a completion.
    public let upstream: Upstream

    /// Creates a publisher that turns the events of `upstream` into values and a completion.
    ///
    /// - Parameter upstream: A publisher of events.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(Inner(downstream: subscriber))
    }
  }
}

extension Publishers.Dematerialize {
  // SAFETY: all mutable state is in `state`; upstream and downstream are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
  where Downstream.Input == Upstream.Output.Output, Downstream.Failure == Upstream.Output.Failure {
    @usableFromInline typealias Input = Upstream.Output

    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline
    enum Phase {
      case awaitingSubscription
      case subscribed(any Subscription)
      case terminal
    }

    @usableFromInline let downstream: Downstream

    @usableFromInline let state = Locked(Phase.awaitingSubscription)

    @inlinable
    init(downstream: Downstream) {
      self.downstream = downstream
    }

    @usableFromInline var description: String {
      "Dematerialize.Subscription<\(Downstream.Input.self), \(Downstream.Failure.self)>"
    }

    @inlinable
    func receive(subscription: any Subscription) {
      let accepted = state.withLock { phase -> Bool in
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
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let event = input.event
      let upstream = state.withLock { phase -> (any Subscription)? in
        guard case .subscribed(let upstream) = phase else { return nil }
        if case .value = event { return upstream }
        phase = .terminal
        return upstream
      }
      guard let upstream else { return .none }
      switch event {
      case .value(let value):
        return downstream.receive(value)
      case .failure(let error):
        upstream.cancel()
        downstream.receive(completion: .failure(error))
      case .finished:
        upstream.cancel()
        downstream.receive(completion: .finished)
      }
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      // The upstream's subscription, which has completed, is released after unlocking.
      let upstream = state.withLock { phase -> (any Subscription)? in
        guard case .subscribed(let upstream) = phase else { return nil }
        phase = .terminal
        return upstream
      }
      guard upstream != nil else { return }
      if case .failure(let error) = completion {
        fatalError(
          "Dematerialize: the upstream failed with \(error); dematerialize() needs an upstream that cannot fail"
        )
      }
      downstream.receive(completion: .finished)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      // As in CombineExt, a request of `.none` does nothing.
      guard demand > 0 else { return }
      let upstream = state.withLock { phase -> (any Subscription)? in
        guard case .subscribed(let upstream) = phase else { return nil }
        return upstream
      }
      upstream?.request(demand)
    }

    @inlinable
    func cancel() {
      let upstream = state.withLock { phase -> (any Subscription)? in
        defer { phase = .terminal }
        guard case .subscribed(let upstream) = phase else { return nil }
        return upstream
      }
      upstream?.cancel()
    }
  }
}
