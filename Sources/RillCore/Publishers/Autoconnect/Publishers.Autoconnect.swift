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
  /// subscriber cancels. It connects exactly once while anyone is subscribed: subscribers that arrive while the
  /// connection is being made, from other threads or from inside another subscriber's `receive(subscription:)`,
  /// share that connection and are each counted, so only the last one's cancel ends it; and a subscriber that
  /// arrives while the last connection is being cancelled gets a new one once the cancel has returned, never two
  /// at once. Combine's `autoconnect` decides outside its lock, so two subscribers arriving at once may both
  /// connect, and the first cancel then ends the stream of the other.
  public class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public final let upstream: Upstream

    @usableFromInline
    final let state = Locked(AutoconnectStateMachine())

    /// Creates a publisher that automatically connects to an upstream connectable publisher.
    ///
    /// - Parameter upstream: The connectable publisher from which this publisher receives elements.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public final func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
      // Counted before it subscribes, so that a cancel from inside its `receive(subscription:)` counts it out.
      let action = subscriberArrives()
      upstream.subscribe(Inner(parent: self, downstream: subscriber))
      perform(action)
    }

    /// Counts one subscriber in; returns whether it connects.
    @usableFromInline
    final func subscriberArrives() -> AutoconnectStateMachine.Action {
      state.withLock { $0.subscriberArrived() }
    }

    /// Counts one subscriber out; cancels the connection when it was the last.
    @usableFromInline
    final func subscriberDidCancel() {
      perform(state.withLock { $0.subscriberLeft() })
    }

    /// Connects and disconnects, outside the lock, until the machine asks for nothing more.
    ///
    /// Inlinable, so that a connection made for a subscriber runs the connectable publisher's specialised
    /// `connect()`, and what it subscribes runs specialised code for every value.
    @inlinable
    final func perform(_ first: AutoconnectStateMachine.Action) {
      var action = first
      while true {
        switch action {
        case .none:
          return
        case .connect:
          action = didConnect(upstream.connect())
        case .disconnect(let connection):
          connection.cancel()
          action = didDisconnect()
        }
      }
    }

    /// Records the connection just made; returns what to do next.
    @usableFromInline
    final func didConnect(_ connection: any Cancellable) -> AutoconnectStateMachine.Action {
      state.withLock { $0.connected(connection) }
    }

    /// Records that the connection was cancelled; returns what to do next.
    @usableFromInline
    final func didDisconnect() -> AutoconnectStateMachine.Action {
      state.withLock { $0.disconnected() }
    }
  }
}

// SAFETY: the connection state is in `Locked`; the upstream is immutable and `Sendable`.
extension Publishers.Autoconnect: @unchecked Sendable where Upstream: Sendable {}

extension Publishers.Autoconnect {
  /// Forwards every event from the connectable publisher to the downstream subscriber unchanged, as Combine does;
  /// the subscription it passes down counts the subscriber out of the connection when cancelled.
  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CombineDescribable
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
    @usableFromInline
    let upstream: any Subscription
    @usableFromInline
    let parent: Publishers.Autoconnect<Upstream>
    @usableFromInline
    let isCountedOut = Locked(false)

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
