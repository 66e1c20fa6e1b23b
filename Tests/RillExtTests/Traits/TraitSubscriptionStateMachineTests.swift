import RillTestSupport
import Testing

@testable import RillExt

@Suite struct TraitSubscriptionStateMachineTests {
  private typealias Machine = TraitSubscriptionStateMachine<String, String, Int>

  @Test func startsOnceAtTheFirstNonZeroDemand() {
    var machine = Machine(downstream: "down", context: "ctx")
    guard case .none = machine.request(.none) else {
      Issue.record("zero demand started the work")
      return
    }
    guard case .start(let context) = machine.request(.max(1)) else {
      Issue.record("did not start")
      return
    }
    expectEqual(context, "ctx")
    guard case .none = machine.request(.unlimited) else {
      Issue.record("started twice")
      return
    }
  }

  @Test func deliversOneOutcomeAndFinishesAfterTheValue() {
    var machine = Machine(downstream: "down", context: "ctx")
    _ = machine.request(.max(1))
    guard case .deliver(let downstream, _, let outcome) = machine.outcome(1, needsDemand: true) else {
      Issue.record("did not deliver")
      return
    }
    #expect(downstream == "down" && outcome == 1)
    guard case .none = machine.outcome(2, needsDemand: true) else {
      Issue.record("delivered twice")
      return
    }
    let finishes = machine.delivered()
    let finishesAgain = machine.delivered()
    #expect(finishes && !finishesAgain)
    guard case .none = machine.cancel() else {
      Issue.record("cancelled finished work")
      return
    }
  }

  @Test func aCancelDuringTheValueSilencesTheFinish() {
    var machine = Machine(downstream: "down", context: "ctx")
    _ = machine.request(.max(1))
    _ = machine.outcome(1, needsDemand: true)
    guard case .none = machine.cancel() else {
      Issue.record("cancelled delivered work")
      return
    }
    let finishes = machine.delivered()
    #expect(!finishes)
  }

  @Test func anEarlyValueWaitsForDemandAndAnEarlyCompletionDoesNot() {
    var machine = Machine(downstream: "down", context: "ctx")
    guard case .none = machine.outcome(1, needsDemand: true) else {
      Issue.record("value sent without demand")
      return
    }
    guard case .deliver(_, _, let outcome) = machine.request(.max(1)) else {
      Issue.record("value lost")
      return
    }
    let finishes = machine.delivered()
    #expect(outcome == 1 && finishes)

    var other = Machine(downstream: "down", context: "ctx")
    guard case .deliver = other.outcome(0, needsDemand: false) else {
      Issue.record("completion held")
      return
    }
    guard case .none = other.request(.max(1)) else {
      Issue.record("started after completion")
      return
    }
  }

  @Test func cancelReportsOnlyStartedWork() {
    var idle = Machine(downstream: "down", context: "ctx")
    guard case .none = idle.cancel() else {
      Issue.record("cancelled idle work")
      return
    }
    guard case .none = idle.request(.max(1)) else {
      Issue.record("started after cancel")
      return
    }

    var running = Machine(downstream: "down", context: "ctx")
    _ = running.request(.max(1))
    guard case .didCancel(let context) = running.cancel() else {
      Issue.record("did not cancel")
      return
    }
    expectEqual(context, "ctx")
    guard case .none = running.outcome(1, needsDemand: true) else {
      Issue.record("delivered after cancel")
      return
    }
  }
}
