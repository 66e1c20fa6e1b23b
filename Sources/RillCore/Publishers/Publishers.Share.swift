extension Publisher {
  /// Shares the output of an upstream publisher with multiple subscribers.
  ///
  /// ```
  /// upstream: -1-2-3-|
  /// share():  -1-2-3-|
  /// ```
  ///
  /// The first subscriber connects to upstream, which is subscribed to once and asked for unlimited demand;
  /// later subscribers receive only what is published after they subscribe. The upstream subscription is
  /// cancelled when the last subscriber cancels.
  ///
  /// - Returns: A class instance that shares elements received from its upstream to multiple subscribers.
  public func share() -> Publishers.Share<Self> {
    Publishers.Share(upstream: self)
  }
}

extension Publishers {
  /// A publisher that shares the output of an upstream publisher with multiple subscribers.
  ///
  /// It is `multicast` through a ``PassthroughSubject``, then ``Publishers/Autoconnect``.
  public final class Share<Upstream: Publisher>: Publisher, Equatable {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    @usableFromInline
    let shared: Publishers.Autoconnect<Publishers.Multicast<Upstream, PassthroughSubject<Output, Failure>>>

    /// Creates a publisher that shares the output of an upstream publisher with multiple subscribers.
    ///
    /// - Parameter upstream: The publisher from which this publisher receives elements.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
      shared = Publishers.Autoconnect(upstream: Publishers.Multicast(upstream: upstream) { PassthroughSubject() })
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
      shared.subscribe(subscriber)
    }

    /// Returns whether the two publishers are the same instance.
    public static func == (lhs: Publishers.Share<Upstream>, rhs: Publishers.Share<Upstream>) -> Bool {
      lhs === rhs
    }
  }
}

// SAFETY: immutable; the autoconnect and multicast publishers it wraps keep their mutable state in `Locked`. Every
// subscriber receives the same values, on whichever thread upstream sends them, so they must be `Sendable` too.
extension Publishers.Share: @unchecked Sendable where Upstream: Sendable, Upstream.Output: Sendable {}
