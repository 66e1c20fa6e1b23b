import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

/// A subject keeps its subscribers in a table in subscription order: cancelling empties an entry in constant time,
/// the table is compacted once half of it is empty, and values go out in subscription order throughout.
@Suite struct SubjectTableTests {
  /// A log the sinks of one test append to.
  final class Log: @unchecked Sendable {
    var entries: [String] = []
  }

  @Test func deliveryFollowsSubscriptionOrderAcrossEmptySlotsAndCompaction() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    var cancellables = (1...5).map { name in subject.sink { log.entries.append("\(name):\($0)") } }
    cancellables[3].cancel()
    cancellables[1].cancel()
    cancellables += (6...8).map { name in subject.sink { log.entries.append("\(name):\($0)") } }
    subject.send(0)
    expectEqual(log.entries, ["1:0", "3:0", "5:0", "6:0", "7:0", "8:0"])
    // Two empty entries of eight: not compacted yet.
    #expect(subject.core.state.withLock { ($0.entries.count, $0.emptySlots) } == (8, 2))
    cancellables[0].cancel()
    cancellables[5].cancel()
    // Four of eight: compacted, in order.
    #expect(subject.core.state.withLock { ($0.entries.count, $0.emptySlots) } == (4, 0))
    log.entries = []
    subject.send(1)
    expectEqual(log.entries, ["3:1", "5:1", "7:1", "8:1"])
    withExtendedLifetime(cancellables) {}
  }

  @Test func aLateCallOnAnEndedSubscriptionLeavesTheSubscriberNowInItsSlotAlone() throws {
    let subject = PassthroughSubject<Int, Never>()
    let keeper = subject.sink { _ in }
    let first = TestSubscriber<Int, Never>(initialDemand: .unlimited)
    subject.subscribe(first)
    let ended = try #require(first.subscription)
    ended.cancel()
    let second = TestSubscriber<Int, Never>(initialDemand: .max(1))
    subject.subscribe(second)
    // The first subscriber's entry, the last one, went at once.
    #expect(subject.core.state.withLock { $0.entries.count } == 2)
    ended.request(.max(5))
    ended.cancel()
    subject.send(1)
    subject.send(2)
    expectEqual(first.values, [])
    expectEqual(second.values, [1])
    second.request(.max(1))
    subject.send(3)
    expectEqual(second.values, [1, 3])
    withExtendedLifetime(keeper) {}
  }

  @Test func aLateRequestOnAnEndedCurrentValueSubscriptionDoesNotFlushTheNextSubscribersKeptValue() throws {
    let subject = CurrentValueSubject<Int, Never>(0)
    let keeper = subject.sink { _ in }
    let first = TestSubscriber<Int, Never>(initialDemand: .none)
    subject.subscribe(first)
    let ended = try #require(first.subscription)
    ended.cancel()
    let second = TestSubscriber<Int, Never>(initialDemand: .none)
    subject.subscribe(second)
    subject.send(1)
    ended.request(.max(1))
    expectEqual(first.values, [])
    expectEqual(second.values, [])
    second.request(.max(1))
    expectEqual(second.values, [1])
    withExtendedLifetime(keeper) {}
  }

  /// A table of more than 64 entries gives its memory back when the last subscriber leaves; subscribing and
  /// cancelling one at a time leaves no empty slot behind.
  @Test func theTableEmptiesOnceEverySubscriberHasLeftWhateverTheOrder() {
    let subject = PassthroughSubject<Int, Never>()
    var cancellables = (0..<1_000).map { _ in subject.sink { _ in } }
    for index in stride(from: 0, to: 1_000, by: 2) { cancellables[index].cancel() }
    cancellables.reverse()
    for cancellable in cancellables { cancellable.cancel() }
    #expect(subject.core.state.withLock { ($0.entries.count, $0.entries.capacity, $0.emptySlots) } == (0, 0, 0))
    for _ in 0..<1_000 { subject.sink { _ in }.cancel() }
    #expect(subject.core.state.withLock { ($0.entries.count, $0.emptySlots) } == (0, 0))
  }

  @Test func aSmallTableKeepsItsMemoryWhenItEmptiesAndIsReused() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    let cancellables = (0..<3).map { name in subject.sink { log.entries.append("\(name):\($0)") } }
    let capacity = subject.core.state.withLock { $0.entries.capacity }
    for cancellable in cancellables { cancellable.cancel() }
    #expect(subject.core.state.withLock { ($0.entries.count, $0.demands.count, $0.emptySlots) } == (0, 0, 0))
    #expect(subject.core.state.withLock { $0.entries.capacity } == capacity)
    let again = subject.sink { log.entries.append("again:\($0)") }
    subject.send(1)
    expectEqual(log.entries, ["again:1"])
    withExtendedLifetime(again) {}
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
    expectEqual(log.entries, ["1:0", "2:0", "4:0", "1:1", "2:1", "4:1"])
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
      // Joins the end of the order, and does not get the value being delivered.
      added.append(subject.sink { log.entries.append("new:\($0)") })
    }
    let second = subject.sink { log.entries.append("2:\($0)") }
    subject.send(0)
    subject.send(1)
    expectEqual(log.entries, ["1:0", "2:0", "2:1", "new:1"])
    withExtendedLifetime((second, added)) {}
  }

  @Test func theOnlySubscriberCancellingItselfDuringDeliveryEmptiesTheTableAndLaterSendsReachNewSubscribers() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    var own: AnyCancellable?
    own = subject.sink { value in
      log.entries.append("1:\(value)")
      own?.cancel()
      subject.send(value + 10)
    }
    subject.send(0)
    #expect(subject.core.state.withLock { $0.entries.count } == 0)
    let later = subject.sink { log.entries.append("2:\($0)") }
    subject.send(1)
    expectEqual(log.entries, ["1:0", "2:1"])
    withExtendedLifetime(later) {}
  }

  @Test func aCurrentValueSubscriberCancelledWhileBusyIsReleasedWhenItReturns() {
    let subject = CurrentValueSubject<Int, Never>(0)
    weak var weakSink: Subscribers.Sink<Int, Never>?
    let log = Log()
    do {
      var cancellable: AnyCancellable?
      let sink = Subscribers.Sink<Int, Never>(
        receiveCompletion: { _ in },
        receiveValue: { value in
          log.entries.append("\(value)")
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
    expectEqual(log.entries, ["0", "1"])
    #expect(subject.core.state.withLock { $0.entries.count } == 0)
  }

  @Test func anEndedSubscriptionsMirrorShowsTheDemandItLeft() throws {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(3))
    subject.subscribe(recorder)
    let subscription = try #require(recorder.subscription)
    subject.send(1)
    subscription.cancel()
    let children = Dictionary(
      uniqueKeysWithValues: Mirror(reflecting: subscription).children.map { ($0.label!, $0.value) }
    )
    expectEqual(children["demand"] as? Subscribers.Demand, .max(2))
    #expect(String(describing: children["subject"]!) == "nil")
    #expect(String(describing: children["downstream"]!) == "nil")
  }

  /// The demand left at the end is kept in the subscription's entry word: every demand reads back, unlimited too.
  @Test(arguments: [Subscribers.Demand.unlimited, .max(1), .max(Int.max - 1)])
  func anEndedSubscriptionsMirrorKeepsAnyDemand(_ demand: Subscribers.Demand) throws {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: demand)
    subject.subscribe(recorder)
    let subscription = try #require(recorder.subscription)
    subscription.cancel()
    let left = Mirror(reflecting: subscription).children.first { $0.label == "demand" }?.value
    expectEqual(left as? Subscribers.Demand, demand)
  }
}
