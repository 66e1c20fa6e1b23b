import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

/// The buffer on its own, one event at a time, without threads.
@Suite struct DemandBufferTests {
  private typealias Buffer = DemandBuffer<Int, CoreTestError>

  /// Runs the drain loop the way an owner does, with `perValue` returned from each delivery.
  private func drain(_ buffer: inout Buffer, perValue: Subscribers.Demand = .none) -> [String] {
    var events: [String] = []
    var demand = Subscribers.Demand.none
    while true {
      switch buffer.next(adding: demand) {
      case .deliver(let value):
        events.append("\(value)")
        demand = perValue
      case .complete(let completion, _):
        events.append("\(completion)")
        return events
      case .idle:
        return events
      }
    }
  }

  @Test func aValueGoesAtOnceOnlyWithDemandAndNobodyDelivering() {
    var buffer = Buffer()
    let step1 = buffer.send(1)
    #expect(!step1)
    expectEqual(buffer.count, 1)
    let step2 = buffer.request(.max(2))
    #expect(step2)
    expectEqual(drain(&buffer), ["1"])
    expectEqual(buffer.demand, .max(1))
    let step3 = buffer.send(2)
    #expect(step3)
    // While the caller delivers 2, a third value queues.
    let step4 = buffer.send(3)
    #expect(!step4)
    expectEqual(drain(&buffer), [])
    expectEqual(buffer.count, 1)
    let step5 = buffer.request(.max(1))
    #expect(step5)
    expectEqual(drain(&buffer), ["3"])
  }

  @Test func theCompletionWaitsBehindValuesAndNeedsNoDemand() {
    var buffer = Buffer()
    let step6 = buffer.send(1)
    #expect(!step6)
    let step7 = buffer.send(completion: .failure(.boom))
    #expect(!step7)
    let step8 = buffer.send(2)
    #expect(!step8)
    #expect(buffer.isCompleted && !buffer.hasEnded)
    let step9 = buffer.request(.max(1))
    #expect(step9)
    expectEqual(drain(&buffer), ["1", "failure(RillCoreTests.CoreTestError.boom)"])
    #expect(buffer.hasEnded)
    let step10 = buffer.request(.max(1))
    #expect(!step10)

    var empty = Buffer()
    let step14 = empty.send(completion: .finished)
    #expect(step14)
    expectEqual(drain(&empty), ["finished"])
  }

  @Test func demandReturnedFromDeliveriesCounts() {
    var buffer = Buffer()
    for value in 1...3 { _ = buffer.send(value) }
    let step11 = buffer.request(.max(1))
    #expect(step11)
    expectEqual(drain(&buffer, perValue: .max(1)), ["1", "2", "3"])
    expectEqual(buffer.demand, .max(1))
  }

  @Test func endingDropsEverything() {
    var buffer = Buffer()
    _ = buffer.send(1)
    _ = buffer.send(completion: .finished)
    // What waited is handed back, to be released after unlocking.
    expectEqual(buffer.end().elements, [1])
    #expect(buffer.count == 0 && buffer.hasEnded)
    let step12 = buffer.request(.max(1))
    #expect(!step12)
    let step13 = buffer.send(2)
    #expect(!step13)
    expectEqual(drain(&buffer), [])
  }

  @Test func anOfferedValueGoesOnlyToDemandLeftForIt() {
    var buffer = Buffer()
    let noDemand = buffer.offer(1)
    #expect(!noDemand)
    expectEqual(buffer.count, 0)
    _ = buffer.request(.max(2))
    let first = buffer.offer(2)
    #expect(first)
    // While the caller delivers 2, one more demand is left: 3 waits for it, and 4 finds none.
    let second = buffer.offer(3)
    let third = buffer.offer(4)
    #expect(!second && !third)
    expectEqual(buffer.count, 1)
    expectEqual(drain(&buffer), ["3"])
    expectEqual(buffer.demand, .none)
  }

  @Test func lockedDrainDeliversInOrderWhatArrivesDuringADelivery() {
    let state = Locked(Buffer())
    let subscriber = TestSubscriber<Int, CoreTestError>(initialDemand: .none, demandPerValue: .max(1))
    subscriber.onValue = { _, value in
      // Re-entrant: the delivering thread picks these up after the value in hand.
      if value == 1 {
        _ = state.withLock { $0.send(2) }
        _ = state.withLock { $0.send(completion: .finished) }
      }
      return .none
    }
    _ = state.withLock { $0.request(.max(1)) }
    if state.withLock({ $0.send(1) }) {
      state.drain(to: subscriber, adding: subscriber.receive(1)) { $0.next(adding: $1) }
    }
    expectEqual(subscriber.values, [1, 2])
    expectEqual(subscriber.completions, [.finished])
    #expect(state.withLock { $0.hasEnded })
  }
}
