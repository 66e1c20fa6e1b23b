extension Publisher where Failure == Never {
  /// Creates a connectable wrapper around the publisher.
  ///
  /// ```
  /// upstream:                     -1-2-3-|
  /// makeConnectable(), connected: -1-2-3-|
  /// ```
  ///
  /// - Returns: A ``ConnectablePublisher`` wrapping this publisher.
  @inlinable
  public func makeConnectable() -> Publishers.MakeConnectable<Self> {
    Publishers.MakeConnectable(upstream: self)
  }
}

extension Publishers {
  /// A publisher that provides explicit connectability to another publisher.
  ///
  /// It multicasts upstream through a ``PassthroughSubject``: subscribers see nothing until ``connect()``.
  public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    @usableFromInline let multicast: Publishers.Multicast<Upstream, PassthroughSubject<Output, Failure>>

    /// Creates a connectable publisher, attached to the provided upstream publisher.
    ///
    /// - Parameter upstream: The publisher from which to receive elements.
    public init(upstream: Upstream) {
      multicast = Publishers.Multicast(upstream: upstream) { PassthroughSubject() }
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
      multicast.subscribe(subscriber)
    }

    /// Connects to the upstream publisher, allowing it to produce elements.
    @inlinable
    public func connect() -> any Cancellable {
      multicast.connect()
    }
  }
}
