import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Synchronization
import Testing

@Suite struct SubjectTests {
  /// The value a `CurrentValueSubject` replaces is released after its lock: a value whose `deinit` reads the
  /// subject does not deadlock, whether it is replaced by `send(_:)` or by setting `value`.
  @Test(.timeLimit(.minutes(1))) func aReplacedCurrentValueIsReleasedOutsideTheLock() {
    final class Token {
      let onDeinit: () -> Void
      init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
      deinit { onDeinit() }
    }
    var subject: CurrentValueSubject<Token, Never>?
    var readsInDeinit = 0
    subject = CurrentValueSubject(
      Token {
        _ = subject?.value
        readsInDeinit += 1
      }
    )
    subject?.send(
      Token {
        _ = subject?.value
        readsInDeinit += 1
      }
    )
    subject?.value = Token {}
    expectEqual(readsInDeinit, 2)
  }

  @Test func passthroughDropsValuesWithoutDemand() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    subject.subscribe(recorder)
    subject.send(1)
    recorder.request(.max(1))
    subject.send(2)
    subject.send(3)
    recorder.request(.max(1))
    subject.send(4)
    expectEqual(recorder.values, [2, 4])
  }

  @Test func passthroughDemandAccumulates() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .max(1),
      onValue: { _, value in value == 1 ? .max(1) : .none }
    )
    subject.subscribe(recorder)
    for value in 1...5 { subject.send(value) }
    expectEqual(recorder.values, [1, 2])
  }

  @Test func passthroughRequestsUnlimitedFromUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>()
    subject.subscribe(recorder)
    let cancellable = (1...3).publisher.subscribe(subject)
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    cancellable.cancel()
  }

  /// A passthrough subject asks its upstream subscriptions for values only once a subscriber has asked it for
  /// some, as Combine does; later upstream subscriptions are asked at once.
  @Test func passthroughAsksUpstreamForValuesOnceASubscriberHasDemand() {
    let subject = PassthroughSubject<Int, Never>()
    let first = TestSubscription()
    subject.send(subscription: first)
    expectEqual(first.requestedDemands, [])
    let idle = TestSubscriber<Int, Never>(initialDemand: .none)
    subject.subscribe(idle)
    expectEqual(first.requestedDemands, [])
    let asking = TestSubscriber<Int, Never>(initialDemand: .max(1))
    subject.subscribe(asking)
    expectEqual(first.requestedDemands, [.unlimited])
    subject.subscribe(TestSubscriber<Int, Never>(initialDemand: .max(2)))
    expectEqual(first.requestedDemands, [.unlimited])
    subject.send(subscription: first)
    expectEqual(first.requestedDemands, [.unlimited, .unlimited])
    let second = TestSubscription()
    subject.send(subscription: second)
    expectEqual(second.requestedDemands, [.unlimited])
  }

  /// A current value subject asks each upstream subscription for unlimited values as soon as it
  /// receives it, with or without subscribers, as Combine does; subscribers' demand asks for nothing more.
  @Test func currentValueSubjectAsksUpstreamForValuesAtOnce() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let first = TestSubscription()
    subject.send(subscription: first)
    expectEqual(first.requestedDemands, [.unlimited])
    subject.subscribe(TestSubscriber<Int, Never>(initialDemand: .none))
    subject.subscribe(TestSubscriber<Int, Never>(initialDemand: .max(1)))
    expectEqual(first.requestedDemands, [.unlimited])
    subject.send(subscription: first)
    expectEqual(first.requestedDemands, [.unlimited, .unlimited])
    let second = TestSubscription()
    subject.send(subscription: second)
    expectEqual(second.requestedDemands, [.unlimited])
  }

  @Test(arguments: [false, true]) func deinitializedSubjectCancelsItsUpstreamSubscriptions(currentValue: Bool) {
    let upstream = TestSubscription()
    weak var weakSubject: AnyObject?
    do {
      let subject: any Subject<Int, Never> =
        currentValue ? CurrentValueSubject<Int, Never>(0) : PassthroughSubject<Int, Never>()
      weakSubject = subject
      subject.send(subscription: upstream)
      expectEqual(upstream.cancelCount, 0)
    }
    #expect(weakSubject == nil)
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func cancellingTheSubjectSubscriptionStopsUpstream() {
    let upstream = PassthroughSubject<Int, Never>()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>()
    subject.subscribe(recorder)
    let cancellable = upstream.subscribe(subject)
    upstream.send(1)
    cancellable.cancel()
    upstream.send(2)
    expectEqual(recorder.values, [1])
  }

  /// As in Combine, a send from inside a subscriber is delivered at once, nested, to every subscriber, before the
  /// outer value reaches the subscribers after the one that sent it.
  @Test func sendFromInsideTheSubscriberIsDeliveredNestedWithoutDeadlock() {
    let subject = PassthroughSubject<Int, Never>()
    var log: [String] = []
    let a = subject.sink { value in
      log.append("a\(value)")
      if value < 3 { subject.send(value + 1) }
      log.append("a\(value) returns")
    }
    let b = subject.sink { log.append("b\($0)") }
    subject.send(1)
    #expect(
      log == ["a1", "a2", "a3", "a3 returns", "b3", "a2 returns", "b2", "a1 returns", "b1"]
    )
    _ = (a, b)
  }

  @Test func completionFromInsideTheSubscriber() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(onValue: { _, _ in
      subject.send(completion: .finished)
      return .none
    })
    subject.subscribe(recorder)
    subject.send(1)
    subject.send(2)
    expectEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
  }

  @Test func currentValueSubjectSendWithoutSubscribersChangesTheValue() {
    let subject = CurrentValueSubject<Int, Never>(0)
    subject.send(1)
    expectEqual(subject.value, 1)
    var received: [Int] = []
    let cancellable = subject.sink { received.append($0) }
    expectEqual(received, [1])
    withExtendedLifetime(cancellable) {}
  }

  @Test func currentValueSubjectReplaysTheCurrentValueOnDemand() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    subject.subscribe(recorder)
    #expect(recorder.values.isEmpty)
    subject.value = 2
    subject.send(3)
    expectEqual(subject.value, 3)
    recorder.request(.max(1))
    expectEqual(recorder.values, [3])
    recorder.request(.max(1))
    subject.send(4)
    expectEqual(recorder.values, [3, 4])
  }

  @Test func currentValueSubjectIgnoresSendsAfterCompletion() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let recorder = TestSubscriber<Int, Never>()
    subject.subscribe(recorder)
    subject.send(completion: .finished)
    subject.send(2)
    expectEqual(subject.value, 1)
    expectEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    // As in Combine, setting `value` after completion still changes it, but publishes nothing.
    subject.value = 3
    expectEqual(subject.value, 3)
    expectEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    let late = TestSubscriber<Int, Never>()
    subject.subscribe(late)
    expectEqual(late.events, [.subscription, .completion(.finished)])
  }

  @Test func voidSubjectsSendWithoutArguments() {
    let subject = PassthroughSubject<Void, Never>()
    var count = 0
    let cancellable = subject.sink { count += 1 }
    subject.send()
    subject.send()
    expectEqual(count, 2)
    cancellable.cancel()
  }

  /// Values sent from many threads at once reach each subscriber exactly once, one call at a time.
  ///
  /// Threads, not tasks: tasks would share the cooperative pool's two threads here, and wait behind the rest of
  /// the suite.
  @Test func concurrentSendsReachEachSubscriberOnceSerially() {
    let subject = PassthroughSubject<Int, Never>()
    let threads = 8
    let perThread = 2_000
    final class Checker: @unchecked Sendable {
      let inside = Atomic<Int>(0)
      let overlaps = Atomic<Int>(0)
      let lock = NSLock()
      var values: [Int] = []
    }
    let checkers = (0..<3).map { _ in Checker() }
    let cancellables = checkers.map { checker in
      subject.sink { value in
        if checker.inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
          checker.overlaps.add(1, ordering: .relaxed)
        }
        checker.lock.withLock { checker.values.append(value) }
        checker.inside.subtract(1, ordering: .sequentiallyConsistent)
      }
    }
    let finished = StressThreads.run(threads) { thread in
      for index in 0..<perThread { subject.send(thread * perThread + index) }
    }
    #expect(finished)
    for checker in checkers {
      let values = checker.lock.withLock { checker.values }
      expectEqual(checker.overlaps.load(ordering: .relaxed), 0)
      expectEqual(values.count, threads * perThread)
      expectEqual(Set(values).count, threads * perThread)
      for thread in 0..<threads {
        let mine = values.filter { $0 / perThread == thread }
        expectEqual(mine, mine.sorted())
      }
    }
    _ = cancellables
  }

  @Test func subscribeAndCancelRacingWithSend() {
    let subject = PassthroughSubject<Int, Never>()
    let finished = StressThreads.run(5) { thread in
      if thread == 0 {
        for value in 0..<20_000 { subject.send(value) }
      } else {
        for _ in 0..<500 {
          let cancellable = subject.sink { _ in }
          cancellable.cancel()
        }
      }
    }
    #expect(finished)
    subject.send(completion: .finished)
  }

  // A subject holds a `Sink` directly and any other subscriber through a box; both are let go when the
  // subscription ends, while the subject lives on.

  @Test(arguments: [false, true])
  func aSinkIsReleasedByALiveSubjectAfterCancelOrCompletion(completes: Bool) {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakSink: Subscribers.Sink<Int, Never>?
    var received: [Int] = []
    do {
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
      weakSink = sink
      subject.subscribe(sink)
      subject.send(1)
      if !completes { sink.cancel() }
    }
    if completes {
      #expect(weakSink != nil)
      subject.send(completion: .finished)
    }
    #expect(weakSink == nil)
    expectEqual(received, [1])
  }

  @Test func aSubscriberThatKeepsItsSubscriptionIsReleasedAfterCancel() {
    final class Keeper: Subscriber {
      typealias Input = Int
      typealias Failure = Never
      var subscription: (any Subscription)?
      func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
      }
      func receive(_ input: Int) -> Subscribers.Demand { .none }
      func receive(completion: Subscribers.Completion<Never>) {}
    }
    let subject = CurrentValueSubject<Int, Never>(0)
    weak var weakKeeper: Keeper?
    do {
      let keeper = Keeper()
      weakKeeper = keeper
      subject.subscribe(keeper)
      keeper.subscription?.cancel()
    }
    #expect(weakKeeper == nil)
  }

  @Test func theSubscriptionsMirrorShowsItsBoxedSubscriber() throws {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(2))
    subject.subscribe(recorder)
    let subscription = try #require(recorder.subscription)
    let downstream = Mirror(reflecting: subscription).children.first { $0.label == "downstream" }?.value
    #expect(downstream is TestSubscriber<Int, Never>)
  }

  /// A subject's subscription reflects as Combine's: the subject as `parent` and `subject`, the
  /// subscriber, and the demand left, which it keeps once cancelled while the others become `nil`.
  @Test func subscriptionMirrorShowsTheSubjectAndKeepsTheDemand() throws {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(12))
    subject.subscribe(recorder)
    subject.send(1)
    let subscription = try #require(recorder.subscription)
    func children() -> [String] {
      Mirror(reflecting: subscription).children.map { "\($0.label ?? ""): \(String(describing: $0.value))" }
    }
    let live = children()
    #expect(live.map { $0.prefix { $0 != ":" } } == ["parent", "downstream", "demand", "subject"])
    #expect(live[0].contains("PassthroughSubject<Swift.Int, Swift.Never>"))
    expectEqual(live[2], "demand: max(11)")
    expectEqual(live[3], live[0].replacingOccurrences(of: "parent", with: "subject"))
    subscription.cancel()
    #expect(children() == ["parent: nil", "downstream: nil", "demand: max(11)", "subject: nil"])
  }
}
