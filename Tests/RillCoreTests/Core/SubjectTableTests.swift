import Testing

@testable import RillCore

/// A subject keeps its subscribers in a table of slots linked in subscription order (issue 16): cancelling unlinks
/// a slot in constant time, a later subscriber reuses it, and values still go out in subscription order.
@Suite struct SubjectTableTests {
  /// A sink that records into a shared log under its name.
  final class Log: @unchecked Sendable {
    var entries: [String] = []
  }

  @Test func deliveryFollowsSubscriptionOrderWhenLaterSubscribersReuseFreedSlots() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    var cancellables = (1...5).map { name in subject.sink { log.entries.append("\(name):\($0)") } }
    cancellables[1].cancel()
    cancellables[3].cancel()
    cancellables += (6...7).map { name in subject.sink { log.entries.append("\(name):\($0)") } }
    subject.send(0)
    #expect(log.entries == ["1:0", "3:0", "5:0", "6:0", "7:0"])
    #expect(subject.core.state.withLock { $0.slots.count } == 5)
  }

  @Test func aLateCallOnAnEndedSubscriptionLeavesTheSubscriberNowInItsSlotAlone() throws {
    let subject = PassthroughSubject<Int, Never>()
    let first = CoreRecorder<Int, Never>(initialDemand: .unlimited)
    subject.subscribe(first)
    let ended = try #require(first.subscription)
    ended.cancel()
    let second = CoreRecorder<Int, Never>(initialDemand: .max(1))
    subject.subscribe(second)
    #expect(subject.core.state.withLock { $0.slots.count } == 1)
    ended.cancel()
    ended.request(.max(5))
    subject.send(1)
    subject.send(2)
    #expect(first.values == [])
    #expect(second.values == [1])
  }

  @Test func theTableIsEmptyOnceEverySubscriberHasLeftWhateverTheOrder() {
    let subject = PassthroughSubject<Int, Never>()
    var cancellables = (0..<1_000).map { _ in subject.sink { _ in } }
    for index in stride(from: 0, to: 1_000, by: 2) { cancellables[index].cancel() }
    cancellables.reverse()
    for cancellable in cancellables { cancellable.cancel() }
    #expect(subject.core.state.withLock { ($0.slots.count, $0.head, $0.tail) } == (0, -1, -1))
    for _ in 0..<1_000 { subject.sink { _ in }.cancel() }
    #expect(subject.core.state.withLock { $0.slots.count } == 0)
  }

  @Test func aSubscriberCancelledByAnotherDuringDeliveryGetsNothingMoreAndOrderHolds() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    var third: AnyCancellable?
    let first = subject.sink { value in
      log.entries.append("1:\(value)")
      third?.cancel()
    }
    let second = subject.sink { log.entries.append("2:\($0)") }
    third = subject.sink { log.entries.append("3:\($0)") }
    let fourth = subject.sink { log.entries.append("4:\($0)") }
    subject.send(0)
    subject.send(1)
    #expect(log.entries == ["1:0", "2:0", "4:0", "1:1", "2:1", "4:1"])
    withExtendedLifetime((first, second, fourth)) {}
  }

  @Test func aSubscriberThatCancelsItselfAndSubscribesAnotherDuringDeliveryKeepsTheRestInOrder() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    var own: AnyCancellable?
    var added: [AnyCancellable] = []
    own = subject.sink { value in
      log.entries.append("1:\(value)")
      own?.cancel()
      added.append(subject.sink { log.entries.append("new:\($0)") })
    }
    let second = subject.sink { log.entries.append("2:\($0)") }
    subject.send(0)
    subject.send(1)
    #expect(log.entries == ["1:0", "2:0", "2:1", "new:1"])
    withExtendedLifetime((second, added)) {}
  }

  @Test func aCurrentValueSubscriberCancelledWhileBusyReleasesItsSubscriberWhenItReturns() {
    let subject = CurrentValueSubject<Int, Never>(0)
    weak var weakSink: Subscribers.Sink<Int, Never>?
    var received: [Int] = []
    do {
      var cancellable: AnyCancellable?
      let sink = Subscribers.Sink<Int, Never>(
        receiveCompletion: { _ in },
        receiveValue: { value in
          received.append(value)
          if value == 1 { cancellable?.cancel() }
        }
      )
      weakSink = sink
      subject.subscribe(sink)
      cancellable = AnyCancellable(sink)
      subject.send(1)
      subject.send(2)
      cancellable = nil
    }
    #expect(weakSink == nil)
    #expect(received == [0, 1])
    #expect(subject.core.state.withLock { $0.slots.count } == 0)
  }
}
