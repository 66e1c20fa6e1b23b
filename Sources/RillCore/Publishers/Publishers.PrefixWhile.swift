extension Publisher {
  /// Republishes elements while a predicate closure indicates publishing should continue.
  ///
  /// ```
  /// upstream:          -1-2-3-1-|
  /// prefix { $0 < 3 }: -1-2-|
  /// ```
  ///
  /// The first element that fails the predicate cancels upstream and finishes the stream.
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean value that
  ///   indicates whether publishing should continue.
  /// - Returns: A publisher that passes through elements until the predicate indicates publishing should finish.
  public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
    Publishers.PrefixWhile(upstream: self, predicate: predicate)
  }

  /// Republishes elements while an error-throwing predicate closure indicates publishing should continue.
  ///
  /// ```
  /// upstream:                     -1-2-3-|
  /// tryPrefix { try small($0) }:  -1-^
  /// ```
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean value
  ///   indicating whether publishing should continue.
  /// - Returns: A publisher that passes through elements until the predicate throws or indicates publishing
  ///   should finish.
  public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
    Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that republishes elements while a predicate closure indicates publishing should continue.
  public struct PrefixWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether publishing should continue.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that republishes elements while a predicate closure indicates publishing should
    /// continue.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let predicate = self.predicate
      upstream.subscribe(
        FilteringInner("PrefixWhile", downstream: subscriber, memory: (), convertFailure: { $0 }) {
          _,
          input in
          predicate(input) ? .send(input) : .finish
        }
      )
    }
  }

  /// A publisher that republishes elements while an error-throwing predicate closure indicates publishing should
  /// continue.
  public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether publishing should continue.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that republishes elements while an error-throwing predicate closure indicates
    /// publishing should continue.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
      let predicate = self.predicate
      upstream.subscribe(
        FilteringInner("TryPrefixWhile", downstream: subscriber, memory: (), convertFailure: { $0 }) {
          _,
          input in
          do { return try predicate(input) ? .send(input) : .finish } catch { return .fail(error) }
        }
      )
    }
  }
}
