import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

/// Buffers of an `Int` upstream and a `String` upstream whose pair reads as one string ("1a").
private struct ZipTestBuffers: ZipBuffers {
  var numbers = ZipBuffers2<Int, String>()

  var everyUpstreamHasAValue: Bool { numbers.everyUpstreamHasAValue }

  func isEmpty(_ index: Int) -> Bool { numbers.isEmpty(index) }

  mutating func removeFirst() -> String {
    let (number, letter) = numbers.removeFirst()
    return "\(number)\(letter)"
  }

  func latest() -> String {
    let (number, letter) = numbers.latest()
    return "\(number)\(letter)"
  }

  mutating func takeAll() -> Self { ZipTestBuffers(numbers: numbers.takeAll()) }
}

extension ZipStateMachine where Buffers == ZipTestBuffers {
  /// Stores `value` (an `Int` for upstream 0, a `String` for upstream 1) as the subscription's children do.
  fileprivate mutating func upstreamValue(_ index: Int, _ value: Any) -> UpstreamValueAction {
    let keepsLatest = mode == .combineLatest
    return upstreamValue(index) { buffers in
      switch (index, keepsLatest) {
      case (0, false): _ = buffers.numbers.a.queue(value as! Int)
      case (0, true): _ = buffers.numbers.a.replace(with: value as! Int)
      case (_, false): _ = buffers.numbers.b.queue(value as! String)
      case (_, true): _ = buffers.numbers.b.replace(with: value as! String)
      }
    }
  }
}

@Suite struct ZipStateMachineTests {
  fileprivate typealias Machine = ZipStateMachine<ZipTestBuffers, CombiningError>

  private func machine(_ mode: Machine.Mode) -> Machine {
    Machine(mode: mode, count: 2, buffers: ZipTestBuffers())
  }

  @Test func zipEmitsWhenEveryUpstreamHasAQueuedValueWhateverTheDemand() {
    var zip = machine(.zip)
    guard case .none = zip.upstreamValue(0, 1), case .none = zip.upstreamValue(0, 2) else {
      Issue.record("expected queueing")
      return
    }
    guard case .deliver("1a") = zip.upstreamValue(1, "a") else {
      Issue.record("expected a pair")
      return
    }
    // A value from inside downstream that completes a pair is delivered at once, nested.
    guard case .deliver("2b") = zip.upstreamValue(1, "b") else {
      Issue.record("expected the nested pair")
      return
    }
    guard !zip.delivered(.none).finishes, !zip.delivered(.none).finishes else {
      Issue.record("nothing follows")
      return
    }
    expectEqual(zip.deliveries, 0)
  }

  @Test func zipFinishesOnceAFinishedUpstreamIsExhausted() {
    var zip = machine(.zip)
    _ = zip.upstreamValue(0, 1)
    guard case .none = zip.upstreamCompleted(0, .finished).action else {
      Issue.record("a value is still queued")
      return
    }
    guard case .deliver("1a") = zip.upstreamValue(1, "a") else {
      Issue.record("expected a pair")
      return
    }
    #expect(zip.delivered(.none).finishes)
    guard case .complete(.finished, _) = zip.finishAfterDelivery().action else {
      Issue.record("expected finish after the last pair")
      return
    }
  }

  @Test func zipFinishDuringADeliveryFollowsIt() {
    var zip = machine(.zip)
    _ = zip.upstreamValue(0, 1)
    _ = zip.upstreamValue(1, "a")
    guard case .none = zip.upstreamCompleted(0, .finished).action else {
      Issue.record("the finish waits for the delivery in progress")
      return
    }
    guard case .none = zip.upstreamValue(1, "b") else {
      Issue.record("nothing more after the finish")
      return
    }
    #expect(zip.delivered(.max(1)).finishes)
    guard case .complete(.finished, _) = zip.finishAfterDelivery().action else {
      Issue.record("expected finish once the delivery returned")
      return
    }
  }

  @Test func combineLatestNeedsDemandAndEveryUpstream() {
    var latest = machine(.combineLatest)
    _ = latest.upstreamValue(0, 1)
    guard case .none = latest.upstreamValue(1, "a") else {
      Issue.record("no demand yet")
      return
    }
    _ = latest.request(.max(2))
    guard case .claimed = latest.upstreamValue(0, 2) else {
      Issue.record("expected a claim")
      return
    }
    expectEqual(latest.combination(), "2a")
  }

  @Test func combineLatestKeepsAValueThatArrivesDuringADeliveryWithoutEmittingIt() {
    var latest = machine(.combineLatest)
    _ = latest.request(.max(5))
    _ = latest.upstreamValue(0, 1)
    guard case .claimed = latest.upstreamValue(1, "a") else {
      Issue.record("expected a claim")
      return
    }
    guard case .none = latest.upstreamValue(0, 2) else {
      Issue.record("a delivery is in progress")
      return
    }
    expectEqual(latest.combination(), "2a")
    _ = latest.delivered(.none)
    guard case .claimed = latest.upstreamValue(1, "b") else {
      Issue.record("expected a claim")
      return
    }
    expectEqual(latest.combination(), "2b")
    expectEqual(latest.demand, .max(3))
  }

  @Test func combineLatestFinishesWhenEveryUpstreamFinishes() {
    var latest = machine(.combineLatest)
    guard case .none = latest.upstreamCompleted(0, .finished).action else {
      Issue.record("one upstream is still alive")
      return
    }
    guard case .complete(.finished, _) = latest.upstreamCompleted(1, .finished).action else {
      Issue.record("expected finish")
      return
    }
    #expect(latest.combination() == nil)
  }

  @Test func failureDuringADeliveryCompletesAtOnce() {
    var zip = machine(.zip)
    let first = TestSubscription()
    let second = TestSubscription()
    _ = zip.upstreamSubscribed(0, first)
    _ = zip.upstreamSubscribed(1, second)
    _ = zip.upstreamValue(0, 1)
    _ = zip.upstreamValue(1, "a")
    guard case .complete(.failure(.boom), let cancelling) = zip.upstreamCompleted(1, .failure(.boom)).action else {
      Issue.record("expected the failure, nested")
      return
    }
    // As in Combine, the failed upstream is cancelled too.
    expectEqual(cancelling.map(\.combineIdentifier), [first.combineIdentifier, second.combineIdentifier])
    let after = zip.delivered(.max(1))
    guard !after.finishes, after.forward.isEmpty else {
      Issue.record("nothing after the failure")
      return
    }
  }

  @Test func demandRequestedDuringADeliveryGoesWithIt() {
    var zip = machine(.zip)
    _ = zip.upstreamSubscribed(0, TestSubscription())
    _ = zip.upstreamSubscribed(1, TestSubscription())
    _ = zip.upstreamValue(0, 1)
    _ = zip.upstreamValue(1, "a")
    #expect(zip.request(.max(3)).isEmpty)
    let after = zip.delivered(.max(1))
    expectEqual(after.more, .max(4))
    expectEqual(after.forward.map(\.0), [0, 1])
  }

  @Test func demandGoesToEveryUpstreamAndLateSubscribersGetWhatWasRequested() {
    var zip = machine(.zip)
    let early = TestSubscription()
    _ = zip.upstreamSubscribed(0, early)
    expectEqual(zip.request(.max(2)).count, 1)
    guard case .request(_, .max(2)) = zip.upstreamSubscribed(1, TestSubscription()) else {
      Issue.record("expected the late subscriber to get the demand requested so far")
      return
    }
    expectEqual(zip.cancel().cancelling.count, 2)
    #expect(zip.cancel().cancelling.isEmpty)
  }

  /// What the machine lets go of, it hands back for the subscription to release after unlocking: a value's or a
  /// subscription's deinit may call back into the subscription.
  @Test func cancelHandsBackTheBuffers() {
    var zip = machine(.zip)
    _ = zip.upstreamSubscribed(0, TestSubscription())
    _ = zip.upstreamValue(0, 1)
    _ = zip.upstreamValue(0, 2)
    let (_, released) = zip.cancel()
    expectEqual(released?.numbers.a.elements, [1, 2])
  }

  @Test func combineLatestHandsBackTheValueItReplaces() {
    var latest = machine(.combineLatest)
    var replaced: [Int?] = []
    for value in [1, 2] {
      _ = latest.upstreamValue(0) { buffers in replaced.append(buffers.numbers.a.replace(with: value)) }
    }
    #expect(replaced == [nil, 1])
  }

  @Test func theSubscriptionOfAFinishedUpstreamIsHandedBack() {
    var zip = machine(.zip)
    let first = TestSubscription()
    _ = zip.upstreamSubscribed(0, first)
    _ = zip.upstreamSubscribed(1, TestSubscription())
    _ = zip.upstreamValue(0, 1)
    let (_, released) = zip.upstreamCompleted(0, .finished)
    expectEqual(released.subscription?.combineIdentifier, first.combineIdentifier)
  }
}
