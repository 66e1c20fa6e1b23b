/// The connection of one `autoconnect()` (and so of `share()`): how many subscribers it serves, and whether a
/// connection is being made, is up, or is being cancelled.
///
/// Whether a subscriber connects is decided here, under the lock, so that the connectable publisher is connected
/// exactly once for each period in which anyone is subscribed: two subscribers arriving at once make one connection
/// and count as two, and a connection is never made while the previous one is still being cancelled. Connecting and
/// cancelling happen outside the lock; subscribers that arrive or leave meanwhile are counted, and whoever finishes
/// the call acts on the count it finds then.
@usableFromInline
struct AutoconnectStateMachine {
  @usableFromInline
  enum Phase {
    case disconnected
    /// A subscriber is connecting; `subscribers` counts everyone who arrived since, less those who left.
    case connecting(subscribers: Int)
    case connected(subscribers: Int, connection: any Cancellable)
    /// The last subscriber left and the connection is being cancelled; `subscribers` counts those who arrived since.
    case disconnecting(subscribers: Int)
  }

  /// What the caller does after unlocking.
  @usableFromInline
  enum Action {
    case none
    /// Connect the connectable publisher, then report with ``connected(_:)``.
    case connect
    /// Cancel this connection, then report with ``disconnected()``.
    case disconnect(any Cancellable)
  }

  @usableFromInline
  var phase = Phase.disconnected

  @inlinable
  init() {}

  /// A subscriber arrived, and has been subscribed to the connectable publisher.
  @inlinable
  mutating func subscriberArrived() -> Action {
    switch phase {
    case .disconnected:
      phase = .connecting(subscribers: 1)
      return .connect
    case .connecting(let subscribers):
      phase = .connecting(subscribers: subscribers + 1)
    case .connected(let subscribers, let connection):
      phase = .connected(subscribers: subscribers + 1, connection: connection)
    case .disconnecting(let subscribers):
      phase = .disconnecting(subscribers: subscribers + 1)
    }
    return .none
  }

  /// A subscriber cancelled.
  @inlinable
  mutating func subscriberLeft() -> Action {
    switch phase {
    case .disconnected:
      return .none
    case .connecting(let subscribers):
      phase = .connecting(subscribers: max(subscribers - 1, 0))
    case .connected(let subscribers, let connection):
      guard subscribers <= 1 else {
        phase = .connected(subscribers: subscribers - 1, connection: connection)
        return .none
      }
      phase = .disconnecting(subscribers: 0)
      return .disconnect(connection)
    case .disconnecting(let subscribers):
      phase = .disconnecting(subscribers: max(subscribers - 1, 0))
    }
    return .none
  }

  /// The connection asked for with ``Action/connect`` is made; if everyone left meanwhile, it is cancelled at once.
  @inlinable
  mutating func connected(_ connection: any Cancellable) -> Action {
    guard case .connecting(let subscribers) = phase else {
      preconditionFailure("Autoconnect: a connection was made while none was being made")
    }
    guard subscribers > 0 else {
      phase = .disconnecting(subscribers: 0)
      return .disconnect(connection)
    }
    phase = .connected(subscribers: subscribers, connection: connection)
    return .none
  }

  /// The connection asked for with ``Action/disconnect(_:)`` is cancelled; if subscribers arrived meanwhile, they
  /// get a new one.
  @inlinable
  mutating func disconnected() -> Action {
    guard case .disconnecting(let subscribers) = phase else {
      preconditionFailure("Autoconnect: a connection was cancelled while none was being cancelled")
    }
    guard subscribers > 0 else {
      phase = .disconnected
      return .none
    }
    phase = .connecting(subscribers: subscribers)
    return .connect
  }
}
