import RillTestSupport
import Testing

@testable import RillCore

/// `autoconnect()`'s state machine, event by event, without threads.
@Suite struct AutoconnectStateMachineTests {
  private final class Connection: Cancellable {
    func cancel() {}
  }

  private func describe(_ action: AutoconnectStateMachine.Action) -> String {
    switch action {
    case .none: "none"
    case .connect: "connect"
    case .disconnect: "disconnect"
    }
  }

  @Test func theFirstSubscriberConnectsAndTheLastDisconnects() {
    var machine = AutoconnectStateMachine()
    expectEqual(describe(machine.subscriberArrived()), "connect")
    let connection = Connection()
    expectEqual(describe(machine.connected(connection)), "none")
    expectEqual(describe(machine.subscriberArrived()), "none")
    expectEqual(describe(machine.subscriberLeft()), "none")
    guard case .disconnect(let cancelled) = machine.subscriberLeft() else {
      Issue.record("the last subscriber does not disconnect")
      return
    }
    #expect(cancelled as? Connection === connection)
    expectEqual(describe(machine.disconnected()), "none")
    expectEqual(describe(machine.subscriberArrived()), "connect")
  }

  /// Subscribers that arrive while the connection is being made join it: nobody else connects, and each is counted.
  @Test func subscribersArrivingWhileConnectingJoinTheConnection() {
    var machine = AutoconnectStateMachine()
    expectEqual(describe(machine.subscriberArrived()), "connect")
    expectEqual(describe(machine.subscriberArrived()), "none")
    expectEqual(describe(machine.subscriberArrived()), "none")
    expectEqual(describe(machine.connected(Connection())), "none")
    expectEqual(describe(machine.subscriberLeft()), "none")
    expectEqual(describe(machine.subscriberLeft()), "none")
    expectEqual(describe(machine.subscriberLeft()), "disconnect")
  }

  /// When everyone leaves while the connection is being made, it is cancelled as soon as it is made.
  @Test func aConnectionNobodyWaitsForAnyMoreIsCancelledOnceMade() {
    var machine = AutoconnectStateMachine()
    expectEqual(describe(machine.subscriberArrived()), "connect")
    expectEqual(describe(machine.subscriberLeft()), "none")
    expectEqual(describe(machine.connected(Connection())), "disconnect")
    expectEqual(describe(machine.disconnected()), "none")
  }

  /// A subscriber that arrives while the connection is being made, after everyone else left, keeps it.
  @Test func aSubscriberArrivingAfterEveryoneLeftWhileConnectingKeepsTheConnection() {
    var machine = AutoconnectStateMachine()
    expectEqual(describe(machine.subscriberArrived()), "connect")
    expectEqual(describe(machine.subscriberLeft()), "none")
    expectEqual(describe(machine.subscriberArrived()), "none")
    expectEqual(describe(machine.connected(Connection())), "none")
    expectEqual(describe(machine.subscriberLeft()), "disconnect")
  }

  /// Subscribers that arrive while the connection is being cancelled get a new one once the cancel has returned, and
  /// one that leaves again before then is counted out.
  @Test func subscribersArrivingWhileDisconnectingReconnectAfterTheCancel() {
    var machine = AutoconnectStateMachine()
    _ = machine.subscriberArrived()
    _ = machine.connected(Connection())
    expectEqual(describe(machine.subscriberLeft()), "disconnect")
    expectEqual(describe(machine.subscriberArrived()), "none")
    expectEqual(describe(machine.subscriberArrived()), "none")
    expectEqual(describe(machine.subscriberLeft()), "none")
    expectEqual(describe(machine.disconnected()), "connect")
    expectEqual(describe(machine.connected(Connection())), "none")
    expectEqual(describe(machine.subscriberLeft()), "disconnect")
    expectEqual(describe(machine.disconnected()), "none")
  }

  @Test func everyoneLeavingWhileDisconnectingEndsDisconnected() {
    var machine = AutoconnectStateMachine()
    _ = machine.subscriberArrived()
    _ = machine.connected(Connection())
    _ = machine.subscriberLeft()
    expectEqual(describe(machine.subscriberArrived()), "none")
    expectEqual(describe(machine.subscriberLeft()), "none")
    expectEqual(describe(machine.disconnected()), "none")
    expectEqual(describe(machine.subscriberArrived()), "connect")
  }
}
