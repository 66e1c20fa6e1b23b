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
  /// It connects when the first subscriber subscribes, and cancels the connection when the last subscriber
  /// cancels.
  public class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    enum Connection {
      case disconnected
      /// `connect()` is running on some thread; `subscribers` counts the live subscribers.
      case connecting(subscribers: Int)
      case connected(subscribers: Int, connection: any Cancellable)
    }

    /// The publisher from which this publisher receives elements.
    public final let upstream: Upstream

    final let connection = Locked(Connection.disconnected)

    /// Creates a publisher that automatically connects to an upstream connectable publisher.
    ///
    /// - Parameter upstream: The connectable publisher from which this publisher receives elements.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
      let mustConnect = connection.withLock { connection -> Bool in
        switch connection {
        case .disconnected:
          connection = .connecting(subscribers: 1)
          return true
        case .connecting(let subscribers):
          connection = .connecting(subscribers: subscribers + 1)
        case .connected(let subscribers, let cancellable):
          connection = .connected(subscribers: subscribers + 1, connection: cancellable)
        }
        return false
      }
      upstream.receive(subscriber: Inner(parent: self, downstream: subscriber))
      guard mustConnect else { return }
      let cancellable = upstream.connect()
      let isAbandoned = connection.withLock { connection -> Bool in
        guard case .connecting(let subscribers) = connection, subscribers > 0 else {
          connection = .disconnected
          return true
        }
        connection = .connected(subscribers: subscribers, connection: cancellable)
        return false
      }
      if isAbandoned { cancellable.cancel() }
    }

    /// Counts one subscriber out; cancels the connection when it was the last.
    final func subscriberDidCancel() {
      let cancellable = connection.withLock { connection -> (any Cancellable)? in
        switch connection {
        case .disconnected:
          return nil
        case .connecting(let subscribers):
          connection = .connecting(subscribers: subscribers - 1)
          return nil
        case .connected(let subscribers, let cancellable):
          if subscribers > 1 {
            connection = .connected(subscribers: subscribers - 1, connection: cancellable)
            return nil
          }
          connection = .disconnected
          return cancellable
        }
      }
      cancellable?.cancel()
    }
  }
}

// SAFETY: the connection state is in `Locked`; the upstream is immutable and `Sendable`.
extension Publishers.Autoconnect: @unchecked Sendable where Upstream: Sendable {}

extension Publishers.Autoconnect {
  // SAFETY: all mutable state is in `state`; downstream, upstream and the parent are called outside the lock.
  private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    typealias Input = Output

    struct State {
      var link = SubscriptionState.awaitingSubscription
      var downstream: Downstream?
      var parent: Publishers.Autoconnect<Upstream>?
    }

    private let state: Locked<State>

    init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
      state = Locked(State(downstream: downstream, parent: parent))
    }

    var description: String { "Autoconnect" }

    var customMirror: Mirror { Mirror(self, children: ["downstream": state.withLock { $0.downstream } as Any]) }

    var playgroundDescription: Any { description }

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

    func receive(_ input: Output) -> Subscribers.Demand {
      guard let downstream = state.withLock({ $0.link.isSubscribed ? $0.downstream : nil }) else { return .none }
      return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      let downstream = state.withLock { state -> Downstream? in
        guard state.link.terminate() != nil else { return nil }
        defer {
          state.downstream = nil
          state.parent = nil
        }
        return state.downstream
      }
      downstream?.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "Autoconnect: a subscriber requested \(demand); demand must be greater than zero")
      state.withLock { $0.link.upstream }?.request(demand)
    }

    func cancel() {
      let (upstream, parent, downstream) = state.withLock { state in
        defer {
          state.downstream = nil
          state.parent = nil
        }
        let wasLive = !state.link.isTerminal
        return (state.link.terminate(), wasLive ? state.parent : nil, state.downstream)
      }
      parent?.subscriberDidCancel()
      upstream?.cancel()
      _ = downstream
    }
  }
}
