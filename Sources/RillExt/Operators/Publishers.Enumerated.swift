extension Publisher {
  /// Pairs each value with its position, counting from `initial`.
  ///
  /// ```
  /// upstream:       -5-6-|
  /// enumerated():   -'(index: 0, element: 5)'-'(index: 1, element: 6)'-|
  /// ```
  ///
  /// Each subscription counts on its own. Demand, cancellation and completion pass straight through.
  ///
  /// - Parameter initial: The index of the first value; 0 by default.
  /// - Returns: A publisher of `(index, element)` pairs.
  public func enumerated(initial: Int = 0) -> Publishers.Enumerated<Self> {
    Publishers.Enumerated(upstream: self, initial: initial)
  }
}

extension Publishers {
  /// A publisher that pairs each value of its upstream with its position.
  public struct Enumerated<Upstream: Publisher>: Publisher {
    public typealias Output = (index: Int, element: Upstream.Output)

    public typealias Failure = Upstream.Failure

    /// The publisher whose values are enumerated.
    public let upstream: Upstream

    /// The index of the first value.
    public let initial: Int

    /// Creates a publisher that pairs each value of `upstream` with its position, counting from `initial`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher whose values to enumerate.
    ///   - initial: The index of the first value; 0 by default.
    public init(upstream: Upstream, initial: Int = 0) {
      self.upstream = upstream
      self.initial = initial
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(Inner(downstream: subscriber, initial: initial))
    }
  }
}

extension Publishers.Enumerated {
  /// Counts the values of one subscription and hands upstream's subscription straight to downstream.
  // SAFETY: the only mutable state is the counter, in `next`.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    typealias Input = Upstream.Output

    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    let downstream: Downstream

    @usableFromInline
    let next: Locked<Int>

    @inlinable
    init(downstream: Downstream, initial: Int) {
      self.downstream = downstream
      next = Locked(initial)
    }

    @inlinable
    var description: String { "Enumerated" }

    @inlinable
    func receive(subscription: any Subscription) {
      downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let index = next.withLock { next in
        defer { next &+= 1 }
        return next
      }
      return downstream.receive((index: index, element: input))
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      downstream.receive(completion: completion)
    }
  }
}
