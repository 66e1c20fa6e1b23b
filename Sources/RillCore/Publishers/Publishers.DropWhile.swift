extension Publisher {
  /// Omits elements from the upstream publisher until a given closure returns false, before republishing all
  /// remaining elements.
  ///
  /// ```
  /// upstream:          -1-2-3-1-|
  /// drop { $0 < 3 }:   -----3-1-|
  /// ```
  ///
  /// Each element that is dropped asks upstream for one more.
  ///
  /// - Parameter predicate: A closure that takes an element as a parameter and returns a Boolean value
  ///   indicating whether to drop the element from the publisher's output.
  /// - Returns: A publisher that skips over elements until the provided closure returns `false`.
  public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
    Publishers.DropWhile(upstream: self, predicate: predicate)
  }

  /// Omits elements from the upstream publisher until an error-throwing closure returns false, before
  /// republishing all remaining elements.
  ///
  /// ```
  /// upstream:                  -1-2-3-|
  /// tryDrop { try small($0) }: ---^
  /// ```
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
  ///
  /// - Parameter predicate: A closure that takes an element as a parameter and returns a Boolean value
  ///   indicating whether to drop the element from the publisher's output.
  /// - Returns: A publisher that skips over elements until the provided closure returns `false`, and then
  ///   republishes all remaining elements. If the predicate closure throws, the publisher fails with an error.
  public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
    Publishers.TryDropWhile(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that omits elements from an upstream publisher until a given closure returns false.
  public struct DropWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that indicates whether to drop the element.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that omits elements from an upstream publisher until a given closure returns false.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let predicate = self.predicate
      upstream.subscribe(
        FilteringInner(
          "DropWhile",
          downstream: subscriber,
          memory: true,
          traits: FilteringTraits(earlyCancelEndsLink: false) { _, _, _ in [] },
          convertFailure: { $0 }
        ) {
          dropping,
          input in
          if dropping, predicate(input) { return .drop }
          dropping = false
          return .send(input)
        }
      )
    }
  }

  /// A publisher that omits elements from an upstream publisher until a given error-throwing closure returns
  /// false.
  public struct TryDropWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that indicates whether to drop the element.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that omits elements from an upstream publisher until a given error-throwing closure
    /// returns false.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
      let predicate = self.predicate
      upstream.subscribe(
        FilteringInner(
          "TryDropWhile",
          downstream: subscriber,
          memory: true,
          traits: FilteringTraits(earlyCancelEndsLink: false) { _, _, _ in [] },
          convertFailure: { $0 }
        ) {
          dropping,
          input in
          do {
            if dropping, try predicate(input) { return .drop }
          } catch {
            return .fail(error)
          }
          dropping = false
          return .send(input)
        }
      )
    }
  }
}
