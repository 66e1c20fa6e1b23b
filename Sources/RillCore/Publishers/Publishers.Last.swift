extension Publisher {
  /// Publishes the last element of a stream, after the stream finishes.
  ///
  /// ```
  /// upstream:  -1-2-3-|
  /// last():    -------[3|]
  /// ```
  ///
  /// As in Combine, it asks upstream for unlimited elements when subscribed.
  ///
  /// - Returns: A publisher that only publishes the last element of a stream.
  @inlinable
  public func last() -> Publishers.Last<Self> {
    Publishers.Last(upstream: self)
  }

  /// Publishes the last element of a stream that satisfies a predicate closure, after upstream finishes.
  ///
  /// ```
  /// upstream:                -1-2-3-|
  /// last { $0 % 2 == 1 }:    -------[3|]
  /// ```
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean value that
  ///   indicates whether to publish the element.
  /// - Returns: A publisher that only publishes the last element satisfying the given predicate.
  @inlinable
  public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
    Publishers.LastWhere(upstream: self, predicate: predicate)
  }

  /// Publishes the last element of a stream that satisfies an error-throwing predicate closure, after the stream
  /// finishes.
  ///
  /// ```
  /// upstream:                  -1-2-3-|
  /// tryLast { try odd($0) }:   ---^
  /// ```
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean value that
  ///   indicates whether to publish the element.
  /// - Returns: A publisher that only publishes the last element satisfying the given predicate.
  @inlinable
  public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
    Publishers.TryLastWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that waits until after the stream finishes, and then publishes the last element of the stream.
  public struct Last<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that waits until after the stream finishes and then publishes the last element of
    /// the stream.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let rule = FirstLastRule<Upstream.Output, Failure, Failure>(
        name: "Last",
        stopsAtMatch: false,
        mapFailure: { $0 },
        matches: { _ in .success(true) }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }

  /// A publisher that waits until after the stream finishes and then publishes the last element of the stream
  /// that satisfies a predicate closure.
  public struct LastWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether to publish an element.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that waits until after the stream finishes and then publishes the last element of
    /// the stream that satisfies a predicate closure.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let predicate = self.predicate
      let rule = FirstLastRule<Upstream.Output, Failure, Failure>(
        name: "LastWhere",
        stopsAtMatch: false,
        mapFailure: { $0 },
        matches: { .success(predicate($0)) }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }

  /// A publisher that waits until after the stream finishes and then publishes the last element of the stream
  /// that satisfies an error-throwing predicate closure.
  public struct TryLastWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether to publish an element.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that waits until after the stream finishes and then publishes the last element of
    /// the stream that satisfies an error-throwing predicate closure.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
      let predicate = self.predicate
      let rule = FirstLastRule<Upstream.Output, Upstream.Failure, any Error>(
        name: "TryLastWhere",
        stopsAtMatch: false,
        mapFailure: { $0 },
        matches: { input in Result { try predicate(input) } }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}

extension Publishers.Last: Sendable where Upstream: Sendable {}
