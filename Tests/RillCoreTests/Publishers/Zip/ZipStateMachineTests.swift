import RillTesting
import Testing

@testable import RillCore

/// Buffers of an `Int` upstream and a `String` upstream whose pair reads as one string ("1a").
private struct ZipTestBuffers: ZipBuffers {
  var numbers = ZipBuffers2<Int, String>()

  var everyUpstreamHasAValue: Bool { numbers.everyUpstreamHasAValue }

  func isEmpty(_ index: Int) -> Bool { numbers.isEmpty(index) }

  mutating func keepLatest(_ index: Int) { numbers.keepLatest(index) }

  mutating func removeFirst() -> String {
    let (number, letter) = numbers.removeFirst()
    return "\(number)\(letter)"
  }

  func latest() -> String {
    let (number, letter) = numbers.latest()
    return "\(number)\(letter)"
  }

  mutating func removeAll() { numbers.removeAll() }
}

extension ZipStateMachine where Buffers == ZipTestBuffers {
  /// Stores `value` (an `Int` for upstream 0, a `String` for upstream 1) as the subscription's children do.
  fileprivate mutating func received(_ index: Int, _ value: Any) -> DrainStep {
    received(index) { buffers in
      if index == 0 { buffers.numbers.a.append(value as! Int) } else { buffers.numbers.b.append(value as! String) }
    }
  }
}

@Suite struct ZipStateMachineTests {
  fileprivate typealias Machine = ZipStateMachine<ZipTestBuffers, CombiningError>

  private func machine(_ mode: Machine.Mode) -> Machine {
    Machine(mode: mode, count: 2, buffers: ZipTestBuffers())
  }

  @Test func zipEmitsWhenEveryUpstreamHasAQueuedValue() {
    var zip = machine(.zip)
    guard case .idle = zip.received(0, 1), case .idle = zip.received(0, 2) else {
      Issue.record("expected queueing")
      return
    }
    guard case .deliver("1a") = zip.received(1, "a") else {
      Issue.record("expected a pair")
      return
    }
    guard case .idle = zip.received(1, "b") else {
      Issue.record("expected queueing while delivering")
      return
    }
    guard case (.deliver("2b"), _, _) = zip.delivered(.none), case (.idle, _, _) = zip.delivered(.none) else {
      Issue.record("expected the drainer to deliver the queued pair")
      return
    }
  }

  @Test func zipFinishesOnceAFinishedUpstreamIsExhausted() {
    var zip = machine(.zip)
    _ = zip.received(0, 1)
    guard case .idle = zip.completed(0, .finished) else {
      Issue.record("a value is still queued")
      return
    }
    guard case .deliver("1a") = zip.received(1, "a") else {
      Issue.record("expected a pair")
      return
    }
    guard case (.complete(.finished, _), _, _) = zip.delivered(.none) else {
      Issue.record("expected finish after the last pair")
      return
    }
  }

  @Test func combineLatestNeedsDemandAndEveryUpstream() {
    var latest = machine(.combineLatest)
    _ = latest.received(0, 1)
    guard case .idle = latest.received(1, "a") else {
      Issue.record("no demand yet")
      return
    }
    _ = latest.request(.max(1))
    guard case .deliver("2a") = latest.received(0, 2) else {
      Issue.record("expected the latest pair")
      return
    }
  }

  @Test func combineLatestFinishesWhenEveryUpstreamFinishes() {
    var latest = machine(.combineLatest)
    guard case .idle = latest.completed(0, .finished) else {
      Issue.record("one upstream is still alive")
      return
    }
    guard case .complete(.finished, _) = latest.completed(1, .finished) else {
      Issue.record("expected finish")
      return
    }
  }

  @Test func failureWhileDeliveringCancelsNowAndCompletesLater() {
    var zip = machine(.zip)
    let first = TestSubscription()
    let second = TestSubscription()
    _ = zip.subscribed(0, first)
    _ = zip.subscribed(1, second)
    _ = zip.received(0, 1)
    _ = zip.received(1, "a")
    guard case .cancel(let cancelling) = zip.completed(1, .failure(.boom)) else {
      Issue.record("expected cancellation while delivering")
      return
    }
    // As in Combine, the failed upstream is cancelled too.
    #expect(cancelling.map(\.combineIdentifier) == [first.combineIdentifier, second.combineIdentifier])
    guard case (.complete(.failure(.boom), _), _, _) = zip.delivered(.max(1)) else {
      Issue.record("expected the drainer to fail")
      return
    }
  }

  @Test func demandGoesToEveryUpstreamAndLateSubscribersGetWhatWasRequested() {
    var zip = machine(.zip)
    let early = TestSubscription()
    _ = zip.subscribed(0, early)
    #expect(zip.request(.max(2)).count == 1)
    guard case .request(_, .max(2)) = zip.subscribed(1, TestSubscription()) else {
      Issue.record("expected the late subscriber to get the demand requested so far")
      return
    }
    #expect(zip.cancel().count == 2)
    #expect(zip.cancel().isEmpty)
  }
}
