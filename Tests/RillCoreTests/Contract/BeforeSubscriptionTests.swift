import RillCore
import RillTestSupport
import RillTesting
import Testing

/// What the simple operators do with events that reach them before their upstream subscription, where Combine's
/// operators differ from one another: some pass elements on, some ignore a cancel, some end the link.
@Suite struct BeforeSubscriptionTests {
  /// Encodes by describing the value, enough to see that elements go through `encode`.
  private struct DescribingEncoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> String { "\(value)" }
  }

  /// Subscribes `recorder` through `makeOperator` to an upstream that holds back its subscription.
  private func held<P: Publisher>(
    _ makeOperator: (SubscriberHolder<Int, Never>) -> P,
    recorder: TestSubscriber<P.Output, P.Failure>
  ) -> SubscriberHolder<Int, Never> {
    let upstream = SubscriberHolder<Int, Never>()
    makeOperator(upstream).subscribe(recorder)
    return upstream
  }

  /// Cancels the operator before its subscription arrives, sends one, and returns it.
  private func cancelThenSubscribe<P: Publisher>(
    _ makeOperator: (SubscriberHolder<Int, Never>) -> P
  ) throws -> TestSubscription where P.Output: Equatable {
    let upstream = held(makeOperator, recorder: TestSubscriber(initialDemand: .none))
    try #require(upstream.subscriberAsSubscription).cancel()
    let subscription = TestSubscription()
    upstream.send(subscription: subscription)
    return subscription
  }

  @Test func passThroughOperatorsForwardEarlyElementsWithDownstreamDemand() {
    func check<P: Publisher>(_ makeOperator: (SubscriberHolder<Int, Never>) -> P, expected: P.Output)
    where P.Output: Equatable {
      let recorder = TestSubscriber<P.Output, P.Failure>(initialDemand: .none, onValue: { _, _ in .max(42) })
      let upstream = held(makeOperator, recorder: recorder)
      expectEqual(upstream.send(1), .max(42))
      expectEqual(recorder.opsMiscEvents, [.value(expected)])
    }
    check({ $0.tryMap { $0 * 2 } }, expected: 2)
    check({ $0.tryScan(10) { $0 + $1 } }, expected: 11)
    check({ $0.handleEvents() }, expected: 1)
    check({ $0.print(to: OpsMiscTextStream()) }, expected: 1)
    check({ $0.output(in: 0..<3) }, expected: 1)
  }

  @Test func dropPassesEarlyElementsOnAfterDroppingItsCount() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none, onValue: { _, _ in .max(3) })
    let upstream = held({ $0.dropFirst(1) }, recorder: recorder)
    expectEqual(upstream.send(1), .none)
    expectEqual(upstream.send(2), .max(3))
    upstream.send(completion: .finished)
    expectEqual(recorder.events, [.subscription, .value(2), .completion(.finished)])
  }

  @Test func filteringOperatorsDropEarlyElements() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none, onValue: { _, _ in .max(42) })
    let upstream = held({ $0.drop { $0 < 0 } }, recorder: recorder)
    expectEqual(upstream.send(1), .none)
    #expect(recorder.events.isEmpty)
  }

  /// `output(in:)` ignores an early completion and takes the subscription that comes after it.
  @Test func outputIgnoresAnEarlyCompletion() {
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    let upstream = held({ $0.output(in: 0..<3) }, recorder: recorder)
    upstream.send(completion: .finished)
    let subscription = TestSubscription()
    upstream.send(subscription: subscription)
    expectEqual(recorder.events, [.subscription])
    #expect(!subscription.isCancelled)
  }

  /// The operators and subscribers that own their subscription ignore an early completion and take the subscription
  /// that comes after it, as Combine's do.
  @Test func owningOperatorsIgnoreAnEarlyCompletion() {
    func check<P: Publisher>(_ name: String, _ makeOperator: (SubscriberHolder<Int, Never>) -> P) {
      let recorder = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
      let upstream = held(makeOperator, recorder: recorder)
      upstream.send(completion: .finished)
      let subscription = TestSubscription()
      upstream.send(subscription: subscription)
      expectEqual(recorder.events.count, 1, "\(name): only the subscription")
      #expect(!subscription.isCancelled, "\(name)")
    }
    check("count") { $0.count() }
    check("collect") { $0.collect() }
    check("reduce") { $0.reduce(0, +) }
    check("replaceEmpty") { $0.replaceEmpty(with: 0) }
    check("replaceError") { $0.setFailureType(to: CoreTestError.self).replaceError(with: 0) }
    check("buffer") { $0.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest) }

    final class Box { var value = 0 }
    let box = Box()
    let assign = Subscribers.Assign(object: box, keyPath: \Box.value)
    assign.receive(completion: .finished)
    let assignSubscription = TestSubscription()
    assign.receive(subscription: assignSubscription)
    #expect(!assignSubscription.isCancelled)
    expectEqual(assign.receive(5), .none)
    expectEqual(box.value, 5)

    let subject = PassthroughSubject<Int, Never>()
    let upstream = SubscriberHolder<Int, Never>()
    let link = upstream.subscribe(subject)
    upstream.send(completion: .finished)
    let subjectSubscription = TestSubscription()
    upstream.send(subscription: subjectSubscription)
    let sink = subject.sink { _ in }
    #expect(!subjectSubscription.isCancelled)
    expectEqual(subjectSubscription.requestedDemands, [.unlimited])
    withExtendedLifetime((link, sink)) {}
  }

  @Test func encodeForwardsEarlyElementsAndCompletions() {
    let recorder = TestSubscriber<String, any Error>(initialDemand: .none, onValue: { _, _ in .max(42) })
    let upstream = held({ $0.encode(encoder: DescribingEncoder()) }, recorder: recorder)
    expectEqual(upstream.send(1), .max(42))
    upstream.send(completion: .finished)
    expectEqual(recorder.opsMiscEvents, [.value("1"), .finished])
  }

  @Test func anEarlyCancelIsIgnoredWhereCombineIgnoresIt() throws {
    #expect(try cancelThenSubscribe { $0.tryMap { $0 } }.isCancelled == false)
    #expect(try cancelThenSubscribe { $0.tryScan(0, +) }.isCancelled == false)
    #expect(try cancelThenSubscribe { $0.output(in: 0..<3) }.isCancelled == false)
    #expect(try cancelThenSubscribe { $0.drop { $0 < 0 } }.isCancelled == false)
    #expect(try cancelThenSubscribe { $0.print(to: OpsMiscTextStream()) }.isCancelled == false)
    #expect(try cancelThenSubscribe { $0.handleEvents() }.isCancelled == false)
    #expect(try cancelThenSubscribe { $0.encode(encoder: DescribingEncoder()) }.isCancelled == false)
    #expect(try cancelThenSubscribe { $0.replaceError(with: 0) }.isCancelled == false)
    #expect(try cancelThenSubscribe { $0.replaceEmpty(with: 0) }.requestedDemands == [.unlimited])
    #expect(try cancelThenSubscribe { $0.dropFirst() }.requestedDemands == [.max(1)])
  }

  @Test func anEarlyCancelEndsTheLinkWhereCombineEndsIt() throws {
    #expect(try cancelThenSubscribe { $0.tryFilter { _ in true } }.isCancelled)
    #expect(try cancelThenSubscribe { $0.removeDuplicates() }.isCancelled)
    #expect(try cancelThenSubscribe { $0.prefix { _ in true } }.isCancelled)
  }

  @Test func handleEventsRunsReceiveCancelForAnEarlyCancelAndStillTakesTheSubscription() throws {
    var log: [String] = []
    let recorder = TestSubscriber<Int, Never>(initialDemand: .none)
    let upstream = held(
      {
        $0.handleEvents(
          receiveSubscription: { _ in log.append("subscription") },
          receiveCancel: { log.append("cancel") }
        )
      },
      recorder: recorder
    )
    try #require(upstream.subscriberAsSubscription).cancel()
    upstream.send(subscription: TestSubscription())
    expectEqual(log, ["cancel", "subscription"])
    expectEqual(recorder.events, [.subscription])
  }

  /// Combine checks `dropFirst`'s count when a subscriber attaches, not when the publisher is made.
  @Test func dropFirstWithANegativeCountCanBeMade() {
    let drop = Publishers.Drop(upstream: Just(1), count: -1)
    expectEqual(drop.count, -1)
  }
}
