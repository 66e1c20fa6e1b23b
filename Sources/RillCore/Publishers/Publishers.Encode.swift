extension Publisher where Output: Encodable {
  /// Encodes the output from upstream using a specified encoder.
  ///
  /// ```
  /// upstream:                  -a-b-|
  /// encode(encoder: encoder):  -A-B-|
  /// ```
  ///
  /// If encoding an element throws, the publisher cancels upstream and fails with the thrown error.
  ///
  /// - Parameter encoder: An encoder that implements the ``TopLevelEncoder`` protocol.
  /// - Returns: A publisher that encodes received elements using a specified encoder, and publishes the
  ///   resulting data.
  @inlinable
  public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
    Publishers.Encode(upstream: self, encoder: encoder)
  }
}

extension Publisher {
  /// Decodes the output from the upstream using a specified decoder.
  ///
  /// ```
  /// upstream:                             -A-B-|
  /// decode(type: T.self, decoder: coder): -a-b-|
  /// ```
  ///
  /// If decoding an element throws, the publisher cancels upstream and fails with the thrown error.
  ///
  /// - Parameters:
  ///   - type: The encoded data to decode into a struct that conforms to the `Decodable` protocol.
  ///   - decoder: A decoder that implements the ``TopLevelDecoder`` protocol.
  /// - Returns: A publisher that decodes a given type using a specified decoder and publishes the result.
  @inlinable
  public func decode<Item: Decodable, Coder: TopLevelDecoder>(
    type: Item.Type,
    decoder: Coder
  ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
    Publishers.Decode(upstream: self, decoder: decoder)
  }
}

extension Publishers {
  /// A publisher that encodes elements received from an upstream publisher, using an encoder.
  public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
    public typealias Failure = any Error
    public typealias Output = Coder.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    @usableFromInline let encoder: Coder

    /// Creates a publisher that encodes elements received from an upstream publisher, using the given encoder.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - encoder: The encoder that encodes elements received from the upstream publisher.
    public init(upstream: Upstream, encoder: Coder) {
      self.upstream = upstream
      self.encoder = encoder
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
      let encoder = self.encoder
      upstream.subscribe(
        CodingInner<Upstream, S>(downstream: subscriber, name: "Encode") { try encoder.encode($0) }
      )
    }
  }

  /// A publisher that decodes elements received from an upstream publisher, using a decoder.
  public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
  where Upstream.Output == Coder.Input {
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    @usableFromInline let decoder: Coder

    /// Creates a publisher that decodes elements received from an upstream publisher, using the given decoder.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - decoder: The decoder that decodes elements received from the upstream publisher.
    public init(upstream: Upstream, decoder: Coder) {
      self.upstream = upstream
      self.decoder = decoder
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
      let decoder = self.decoder
      upstream.subscribe(
        CodingInner<Upstream, S>(downstream: subscriber, name: "Decode") {
          try decoder.decode(Output.self, from: $0)
        }
      )
    }
  }
}

/// The engine of `encode` and `decode`: transforms each element with a throwing closure, and on a throw cancels
/// upstream and fails downstream with the error.
///
/// As in Combine, elements and completions that arrive before the upstream subscription are passed on, and a cancel
/// before it does nothing.
// SAFETY: all mutable state is in `state`; the transform, downstream and upstream are called outside the lock.
@usableFromInline
final class CodingInner<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
  CombineDescribable, @unchecked Sendable
where Downstream.Failure == any Error {
  @usableFromInline typealias Input = Upstream.Output
  @usableFromInline typealias Failure = Upstream.Failure

  @usableFromInline
  struct State {
    @usableFromInline var link = SubscriptionState.awaitingSubscription
    /// `nil` once the subscription has completed or been cancelled.
    @usableFromInline var downstream: Downstream?

    @inlinable
    init(link: SubscriptionState = SubscriptionState.awaitingSubscription, downstream: Downstream? = nil) {
      self.link = link
      self.downstream = downstream
    }

    /// Ends the link; returns the upstream to cancel and the downstream to complete or release.
    @inlinable
    mutating func terminate() -> ((any Subscription)?, Downstream?) {
      defer { downstream = nil }
      return (link.terminate(), downstream)
    }
  }

  @usableFromInline let state: Locked<State>
  @usableFromInline let transform: (Upstream.Output) throws -> Downstream.Input
  @usableFromInline let name: String

  @inlinable
  init(downstream: Downstream, name: String, transform: @escaping (Upstream.Output) throws -> Downstream.Input) {
    state = Locked(State(downstream: downstream))
    self.transform = transform
    self.name = name
  }

  @usableFromInline var description: String { name }

  @usableFromInline
  var customMirror: Mirror {
    let (downstream, link) = state.withLock { ($0.downstream, $0.link) }
    let children: KeyValuePairs<String, Any> = [
      "downstream": downstream as Any, "finished": link.isTerminal, "upstreamSubscription": link.upstream as Any,
    ]
    return Mirror(self, children: children)
  }

  @inlinable
  func receive(subscription: any Subscription) {
    let downstream = state.withLock { state -> Downstream? in
      guard state.downstream != nil, state.link.subscribe(subscription) else { return nil }
      return state.downstream
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Upstream.Output) -> Subscribers.Demand {
    guard let downstream = state.withLock({ $0.downstream }) else { return .none }
    let output: Downstream.Input
    do {
      output = try transform(input)
    } catch {
      let (upstream, current) = state.withLock { $0.terminate() }
      guard let current else { return .none }
      upstream?.cancel()
      current.receive(completion: .failure(error))
      return .none
    }
    return downstream.receive(output)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Upstream.Failure>) {
    guard case (_, let downstream?) = state.withLock({ $0.terminate() }) else { return }
    downstream.receive(completion: completion.mapError { $0 as any Error })
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    state.withLock { $0.link.upstream }?.request(demand)
  }

  @inlinable
  func cancel() {
    let (upstream, downstream) = state.withLock { state in
      state.link.isAwaitingSubscription ? (nil, nil) : state.terminate()
    }
    upstream?.cancel()
    _ = downstream
  }
}
