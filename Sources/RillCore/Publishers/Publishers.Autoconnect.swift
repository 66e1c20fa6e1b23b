extension ConnectablePublisher {
  /// Automates the process of connecting or disconnecting from this connectable publisher.
  ///
  /// ```
  /// upstream:                                         -1-2-3-|
  /// multicast { PassthroughSubject() }.autoconnect(): -1-2-3-|
  /// ```
  ///
  /// The first subscriber connects; the connection is cancelled when the last subscriber cancels, and the
  /// next subscriber connects again.
  ///
  /// - Returns: A publisher which automatically connects to its upstream connectable publisher.
  public func autoconnect() -> Publishers.Autoconnect<Self> {
    Publishers.Autoconnect(upstream: self)
  }
}

extension Publishers {
  /// A publisher that automatically connects to an upstream connectable publisher.
  ///
  /// It connects when a subscriber subscribes while it is not connected, and cancels the connection when the last
  /// subscriber cancels. As in Combine, a subscriber that subscribes from inside another's subscription, before
  /// the first connection is made, connects too; the later connection replaces the earlier one.
  public class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    @usableFromInline
    enum Connection {
      case disconnected
      case connected(subscribers: Int, connection: any Cancellable)
    }

    /// The publisher from which this publisher receives elements.
    public final let upstream: Upstream

    @usableFromInline final let connection = Locked(Connection.disconnected)

    /// Creates a publisher that automatically connects to an upstream connectable publisher.
    ///
    /// - Parameter upstream: The connectable publisher from which this publisher receives elements.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public final func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
      let isConnected = connection.withLock { connection -> Bool in
        guard case .connected(let subscribers, let cancellable) = connection else { return false }
        connection = .connected(subscribers: subscribers + 1, connection: cancellable)
        return true
      }
      upstream.subscribe(Inner(parent: self, downstream: subscriber))
      guard !isConnected else { return }
      let made = upstream.connect()
      let replaced = connection.withLock { connection -> (any Cancellable)? in
        defer { connection = .connected(subscribers: 1, connection: made) }
        guard case .connected(_, let earlier) = connection else { return nil }
        return earlier
      }
      // Released here, outside the lock: an `AnyCancellable` cancels when it goes.
      _ = replaced
    }

    /// Counts one subscriber out; cancels the connection when it was the last.
    @usableFromInline
    final func subscriberDidCancel() {
      let cancellable = connection.withLock { connection -> (any Cancellable)? in
        guard case .connected(let subscribers, let cancellable) = connection else { return nil }
        if subscribers > 1 {
          connection = .connected(subscribers: subscribers - 1, connection: cancellable)
          return nil
        }
        connection = .disconnected
        return cancellable
      }
      cancellable?.cancel()
    }
  }
}

// SAFETY: the connection state is in `Locked`; the upstream is immutable and `Sendable`.
extension Publishers.Autoconnect: @unchecked Sendable where Upstream: Sendable {}

extension Publishers.Autoconnect {
  /// Forwards every event from the connectable publisher to the downstream subscriber unchanged, as Combine does;
  /// the subscription it passes down counts the subscriber out of the connection when cancelled.
  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Output

    @usableFromInline let parent: Publishers.Autoconnect<Upstream>
    @usableFromInline let downstream: Downstream
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
      self.parent = parent
      self.downstream = downstream
    }

    @usableFromInline var description: String { "Autoconnect" }

    @usableFromInline var customMirror: Mirror {
      Mirror(self, children: ["parent": parent, "downstream": downstream])
    }

    @usableFromInline var playgroundDescription: Any { description }

    @inlinable
    func receive(subscription: any Subscription) {
      downstream.receive(subscription: Counted(upstream: subscription, parent: parent))
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
      downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      downstream.receive(completion: completion)
    }
  }

  /// The upstream subscription as an autoconnect subscriber sees it: the same identity and description, and a
  /// cancel that also counts the subscriber out of the connection, once.
  // SAFETY: all mutable state is in `isCountedOut`; the parent and upstream are called outside the lock.
  @usableFromInline
  final class Counted: Subscription, CustomStringConvertible, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
  {
    private let upstream: any Subscription
    private let parent: Publishers.Autoconnect<Upstream>
    private let isCountedOut = Locked(false)

    @usableFromInline
    init(upstream: any Subscription, parent: Publishers.Autoconnect<Upstream>) {
      self.upstream = upstream
      self.parent = parent
    }

    @usableFromInline var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

    @usableFromInline var description: String { String(describing: upstream) }

    @usableFromInline var playgroundDescription: Any { description }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
      upstream.request(demand)
    }

    @usableFromInline
    func cancel() {
      let wasCounted = isCountedOut.withLock { isCountedOut in
        defer { isCountedOut = true }
        return !isCountedOut
      }
      if wasCounted { parent.subscriberDidCancel() }
      upstream.cancel()
    }
  }
}
