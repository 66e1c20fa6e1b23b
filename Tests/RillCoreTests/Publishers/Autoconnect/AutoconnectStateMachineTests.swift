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
    #expect(describe(machine.subscriberArrived()) == "connect")
    let connection = Connection()
    #expect(describe(machine.connected(connection)) == "none")
    #expect(describe(machine.subscriberArrived()) == "none")
    #expect(describe(machine.subscriberLeft()) == "none")
    guard case .disconnect(let cancelled) = machine.subscriberLeft() else {
      Issue.record("the last subscriber does not disconnect")
      return
    }
    #expect(cancelled as? Connection === connection)
    #expect(describe(machine.disconnected()) == "none")
    #expect(describe(machine.subscriberArrived()) == "connect")
  }

  /// Subscribers that arrive while the connection is being made join it: nobody else connects, and each is counted.
  @Test func subscribersArrivingWhileConnectingJoinTheConnection() {
    var machine = AutoconnectStateMachine()
    #expect(describe(machine.subscriberArrived()) == "connect")
    #expect(describe(machine.subscriberArrived()) == "none")
    #expect(describe(machine.subscriberArrived()) == "none")
    #expect(describe(machine.connected(Connection())) == "none")
    #expect(describe(machine.subscriberLeft()) == "none")
    #expect(describe(machine.subscriberLeft()) == "none")
    #expect(describe(machine.subscriberLeft()) == "disconnect")
  }

  /// When everyone leaves while the connection is being made, it is cancelled as soon as it is made.
  @Test func aConnectionNobodyWaitsForAnyMoreIsCancelledOnceMade() {
    var machine = AutoconnectStateMachine()
    #expect(describe(machine.subscriberArrived()) == "connect")
    #expect(describe(machine.subscriberLeft()) == "none")
    #expect(describe(machine.connected(Connection())) == "disconnect")
    #expect(describe(machine.disconnected()) == "none")
  }

  /// A subscriber that arrives while the connection is being made, after everyone else left, keeps it.
  @Test func aSubscriberArrivingAfterEveryoneLeftWhileConnectingKeepsTheConnection() {
    var machine = AutoconnectStateMachine()
    #expect(describe(machine.subscriberArrived()) == "connect")
    #expect(describe(machine.subscriberLeft()) == "none")
    #expect(describe(machine.subscriberArrived()) == "none")
    #expect(describe(machine.connected(Connection())) == "none")
    #expect(describe(machine.subscriberLeft()) == "disconnect")
  }

  /// Subscribers that arrive while the connection is being cancelled get a new one once the cancel has returned, and
  /// one that leaves again before then is counted out.
  @Test func subscribersArrivingWhileDisconnectingReconnectAfterTheCancel() {
    var machine = AutoconnectStateMachine()
    _ = machine.subscriberArrived()
    _ = machine.connected(Connection())
    #expect(describe(machine.subscriberLeft()) == "disconnect")
    #expect(describe(machine.subscriberArrived()) == "none")
    #expect(describe(machine.subscriberArrived()) == "none")
    #expect(describe(machine.subscriberLeft()) == "none")
    #expect(describe(machine.disconnected()) == "connect")
    #expect(describe(machine.connected(Connection())) == "none")
    #expect(describe(machine.subscriberLeft()) == "disconnect")
    #expect(describe(machine.disconnected()) == "none")
  }

  @Test func everyoneLeavingWhileDisconnectingEndsDisconnected() {
    var machine = AutoconnectStateMachine()
    _ = machine.subscriberArrived()
    _ = machine.connected(Connection())
    _ = machine.subscriberLeft()
    #expect(describe(machine.subscriberArrived()) == "none")
    #expect(describe(machine.subscriberLeft()) == "none")
    #expect(describe(machine.disconnected()) == "none")
    #expect(describe(machine.subscriberArrived()) == "connect")
  }
}
