extension Publisher {
  /// Collects all received elements, and emits a single array of the collection when the upstream publisher
  /// finishes.
  ///
  /// ```
  /// upstream:  -1-2-3-|
  /// collect(): -------['[1, 2, 3]'|]
  /// ```
  ///
  /// It requests `.unlimited` from upstream and keeps every element until upstream finishes; an upstream failure is
  /// forwarded at once and the collected elements are dropped.
  ///
  /// - Returns: A publisher that collects all received items and emits a single array of the collection when the
  ///   upstream publisher finishes.
  @inlinable
  public func collect() -> Publishers.Collect<Self> {
    Publishers.Collect(upstream: self)
  }

  /// Collects up to the specified number of elements, and then emits a single array of the collection.
  ///
  /// ```
  /// upstream:   -1-2-3-4-5-|
  /// collect(2): ---'[1, 2]'---'[3, 4]'---['[5]'|]
  /// ```
  ///
  /// Each array requested downstream asks upstream for `count` elements. When upstream finishes, a partial array is
  /// published before `.finished`; when it fails, the partial array is dropped.
  ///
  /// A `count` of zero or less never fills an array, as in Combine: with unlimited demand, such as a `sink`'s, every
  /// element waits for upstream to finish and is published in one array, as with ``collect()``. A limited request
  /// cannot be turned into a request upstream, and traps with a message naming `count`.
  ///
  /// - Parameter count: The maximum number of received elements to buffer before publishing.
  /// - Returns: A publisher that collects up to the specified number of elements, and then publishes them as an
  ///   array.
  @inlinable
  public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
    Publishers.CollectByCount(upstream: self, count: count)
  }
}

extension Publishers {
  /// A publisher that buffers items.
  public struct Collect<Upstream: Publisher>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that buffers all elements from the upstream publisher.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == [Upstream.Output] {
      upstream.subscribe(
        ReducingSubscription(rule: CollectRule<Upstream.Output, Failure>(), downstream: subscriber)
      )
    }
  }

  /// A publisher that buffers a maximum number of items.
  public struct CollectByCount<Upstream: Publisher>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of received elements to buffer before publishing.
    public let count: Int

    /// Creates a publisher that buffers up to `count` elements from the upstream publisher.
    @inlinable
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == [Upstream.Output] {
      upstream.subscribe(Inner(downstream: subscriber, count: count))
    }
  }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension Publishers.Collect: Sendable where Upstream: Sendable {}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publishers.CollectByCount: Sendable where Upstream: Sendable {}

@usableFromInline
struct CollectRule<Input, Failure: Error>: ReducingRule {
  @inlinable
  init() {}

  @usableFromInline typealias UpstreamFailure = Failure

  @usableFromInline var name: String { "Collect" }

  @usableFromInline var initial: [Input] { [] }

  @inlinable
  func fold(_ partial: inout [Input], _ input: Input) -> ReducingStep<Failure> {
    partial.append(input)
    return .proceed
  }

  @inlinable
  func result(_ partial: consuming [Input]) -> [Input]? { partial }

  /// Combine's `collect()` subscription shows only how many elements it holds.
  @usableFromInline
  func mirrorChildren(downstream: Any, partial: [Input]?, link: SubscriptionState) -> [Mirror.Child] {
    [("count", partial?.count ?? 0)]
  }
}

extension Publishers.CollectByCount {
  // SAFETY: all mutable state is in `state`; upstream and downstream are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    struct State {
      @usableFromInline
      var upstream = SubscriptionState.awaitingSubscription
      @usableFromInline
      var buffer: [Input] = []
    }

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let count: Int
    @usableFromInline
    let state = Locked(State())

    @inlinable
    init(downstream: Downstream, count: Int) {
      self.downstream = downstream
      self.count = count
    }

    @inlinable
    var description: String { "CollectByCount" }

    @inlinable
    var customMirror: Mirror {
      let (upstream, buffer) = state.withLock { ($0.upstream.upstream, $0.buffer) }
      return Mirror(
        self,
        children: ["downstream": downstream, "upstreamSubscription": upstream as Any, "buffer": buffer, "count": count]
      )
    }

    @inlinable
    func receive(subscription: any Subscription) {
      guard state.withLock({ $0.upstream.subscribe(subscription) }) else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      let full = state.withLock { state -> [Input]? in
        guard state.upstream.isSubscribed else { return nil }
        state.buffer.append(input)
        guard state.buffer.count == count else { return nil }
        defer { state.buffer = [] }
        return state.buffer
      }
      guard let full else { return .none }
      return downstream.receive(full) * count
    }

    /// As in Combine, every completion is passed on, also one that arrives before the subscription, after a cancel
    /// or after an earlier completion; a finish first publishes what the buffer holds.
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      let (rest, upstream) = state.withLock { state in
        defer { state.buffer = [] }
        return (state.buffer, state.upstream.terminate())
      }
      _ = upstream
      if case .finished = completion, !rest.isEmpty {
        _ = downstream.receive(rest)
      }
      downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "CollectByCount: a subscriber requested \(demand); demand must be greater than zero")
      // Combine asks upstream for `demand * count`, which for a count below one is no demand, or a negative one.
      precondition(
        count > 0 || demand == .unlimited,
        "collect(_:): count is \(count); it must be greater than zero for a limited demand (\(demand))"
      )
      state.withLock { $0.upstream.upstream }?.request(demand == .unlimited ? .unlimited : demand * count)
    }

    /// As in Combine, a cancel before the upstream subscription arrives changes nothing.
    @inlinable
    func cancel() {
      // What the buffer held is released after unlocking.
      let (upstream, released) = state.withLock { state -> ((any Subscription)?, [Input]) in
        guard !state.upstream.isAwaitingSubscription else { return (nil, []) }
        defer { state.buffer = [] }
        return (state.upstream.terminate(), state.buffer)
      }
      upstream?.cancel()
      _ = released
    }
  }
}
