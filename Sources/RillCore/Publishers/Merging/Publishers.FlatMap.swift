extension Publisher {
  /// Transforms all elements from an upstream publisher into a new publisher up to a maximum number of
  /// publishers you specify.
  ///
  /// ```
  /// upstream:                 -a---b------|
  /// transform(a):              -1--2|
  /// transform(b):                  -3--4|
  /// flatMap(transform):       --1--23--4--|
  /// ```
  ///
  /// Values from the new publishers interleave; their completions are swallowed; the result finishes once
  /// upstream and every new publisher have finished, and fails as soon as any of them fails. When a new publisher
  /// fails, the others and the upstream are cancelled; Combine only lets go of the upstream, which can keep a
  /// pipeline alive after its failure.
  ///
  /// As in Combine, a value that finds demand reaches the subscriber on the thread of the new publisher that sent
  /// it, before that publisher's call returns, once the subscriber has returned from any other value; a value sent
  /// from inside the subscriber arrives at once, nested. A value without demand waits, and is delivered when the
  /// subscriber asks for more, also by returning demand from `receive(_:)` (where Combine waits for the next
  /// request).
  ///
  /// - Parameters:
  ///   - maxPublishers: The maximum number of concurrent publisher subscriptions, or `.unlimited`. It is what
  ///     upstream is asked for first, so `.max(0)` subscribes no new publisher; see ``Publishers/FlatMap``.
  ///   - transform: A closure that takes an element as a parameter and returns a publisher that produces
  ///     elements of that type.
  /// - Returns: A publisher that transforms elements from an upstream publisher into a publisher of that
  ///   element's type.
  @inlinable
  public func flatMap<T, P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}

extension Publisher where Failure == Never {
  /// Transforms all elements from an upstream publisher that never fails into new publishers that never fail,
  /// up to a maximum number of publishers you specify.
  ///
  /// ```
  /// upstream:                 -a---b------|
  /// transform(a):              -1--2|
  /// transform(b):                  -3--4|
  /// flatMap(transform):       --1--23--4--|
  /// ```
  ///
  /// - Parameters:
  ///   - maxPublishers: The maximum number of concurrent publisher subscriptions, or `.unlimited`. It is what
  ///     upstream is asked for first, so `.max(0)` subscribes no new publisher; see ``Publishers/FlatMap``.
  ///   - transform: A closure that takes an element as a parameter and returns a publisher that produces
  ///     elements of that type.
  /// - Returns: A publisher that transforms elements from an upstream publisher into a publisher of that
  ///   element's type.
  @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
  @inlinable
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}

extension Publisher where Failure == Never {
  /// Transforms all elements from an upstream publisher that never fails into new publishers that can fail,
  /// up to a maximum number of publishers you specify.
  ///
  /// ```
  /// upstream:             -a-b---|
  /// transform(a):           -1-2|
  /// transform(b):             -^
  /// flatMap(transform):   ---1-^
  /// ```
  ///
  /// The upstream takes on the new publishers' failure type, so a failing new publisher fails the result.
  ///
  /// - Parameters:
  ///   - maxPublishers: The maximum number of concurrent publisher subscriptions, or `.unlimited`. It is what
  ///     upstream is asked for first, so `.max(0)` subscribes no new publisher; see ``Publishers/FlatMap``.
  ///   - transform: A closure that takes an element as a parameter and returns a publisher that produces
  ///     elements of that type.
  /// - Returns: A publisher that transforms elements from an upstream publisher into a publisher of that
  ///   element's type.
  @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
  @inlinable
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
    setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
  }
}

extension Publisher {
  /// Transforms all elements from an upstream publisher into new publishers that never fail, up to a maximum
  /// number of publishers you specify.
  ///
  /// ```
  /// upstream:             -a---b-|
  /// transform(a):           -1|
  /// transform(b):               -2|
  /// flatMap(transform):   ---1---2|
  /// ```
  ///
  /// The new publishers take on the upstream's failure type.
  ///
  /// - Parameters:
  ///   - maxPublishers: The maximum number of concurrent publisher subscriptions, or `.unlimited`. It is what
  ///     upstream is asked for first, so `.max(0)` subscribes no new publisher; see ``Publishers/FlatMap``.
  ///   - transform: A closure that takes an element as a parameter and returns a publisher that produces
  ///     elements of that type.
  /// - Returns: A publisher that transforms elements from an upstream publisher into a publisher of that
  ///   element's type.
  @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
  @inlinable
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
    flatMap(maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
  }
}

extension Publishers {
  /// A publisher that transforms elements from an upstream publisher into new publishers, and republishes the
  /// elements those publishers produce.
  ///
  /// With a finite `maxPublishers` it exerts backpressure: it asks upstream for `maxPublishers` elements, and
  /// for one more only when one of the new publishers finishes.
  ///
  /// A `maxPublishers` of `.max(0)` (`.none`) does not trap, as in Combine: it is requested from upstream as it
  /// is. An upstream that accepts a request of `.none`, such as a sequence, then sends nothing, so no new
  /// publisher is ever created or subscribed and the result neither publishes nor finishes; one that traps on it,
  /// such as a subject, traps.
  public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
  where NewPublisher.Failure == Upstream.Failure {
    public typealias Output = NewPublisher.Output

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of concurrent publisher subscriptions; `.max(0)` subscribes none (see above).
    public let maxPublishers: Subscribers.Demand

    /// A closure that takes an element as a parameter and returns a publisher that produces elements of that
    /// type.
    public let transform: (Upstream.Output) -> NewPublisher

    /// Creates a publisher that transforms elements from an upstream publisher into a new publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - maxPublishers: The maximum number of concurrent publisher subscriptions.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher that produces
    ///     elements of that type.
    @inlinable
    public init(
      upstream: Upstream,
      maxPublishers: Subscribers.Demand,
      transform: @escaping (Upstream.Output) -> NewPublisher
    ) {
      self.upstream = upstream
      self.maxPublishers = maxPublishers
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where NewPublisher.Output == S.Input, Upstream.Failure == S.Failure {
      let subscription = MergingSubscription(
        downstream: subscriber,
        machine: MergingSubscription<S>.Machine(maxPublishers: maxPublishers),
        name: "FlatMap"
      )
      subscription.start()
      upstream.subscribe(Inner(parent: subscription, transform: transform))
    }
  }
}

extension Publishers.FlatMap {
  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CombineDescribable
  where Downstream.Input == NewPublisher.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline let parent: MergingSubscription<Downstream>
    @usableFromInline let transform: (Upstream.Output) -> NewPublisher

    @inlinable
    init(parent: MergingSubscription<Downstream>, transform: @escaping (Upstream.Output) -> NewPublisher) {
      self.parent = parent
      self.transform = transform
    }

    /// As in Combine, the subscriber given to the upstream is the subscription: same identifier, description and
    /// (empty) mirror, which the children's mirrors name as their parent.
    @usableFromInline var combineIdentifier: CombineIdentifier { parent.combineIdentifier }

    @usableFromInline var description: String { "FlatMap" }

    @usableFromInline var customMirror: Mirror { parent.customMirror }

    @inlinable
    func receive(subscription: any Subscription) {
      parent.upstreamSubscribed(subscription)
    }

    /// Registers a child for `input`, then subscribes to it.
    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      guard let key = parent.upstreamValue() else { return .none }
      transform(input).subscribe(MergingChildSubscriber(key: key, parent: parent))
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      parent.upstreamCompleted(completion)
    }
  }
}
