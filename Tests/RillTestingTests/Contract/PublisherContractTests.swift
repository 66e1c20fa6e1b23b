import Dispatch
import RillTestSupport
import RillTesting
import Testing

@Suite struct PublisherContractTests {
  // MARK: Rill's publishers keep the contract under every standard demand

  @Test(arguments: ContractDemand.standard)
  func basicPublishers(demand: ContractDemand) {
    let completes = demand.initial == .unlimited
    let reports: [String: String] = [
      "Just": PublisherContract.check(Just(1), demand: demand, expectsCompletion: completes).description,
      "Empty": PublisherContract.check(Empty<Int, Never>(), demand: demand, expectsCompletion: true).description,
      "Fail": PublisherContract.check(Fail<Int, TestFailure>(error: TestFailure()), demand: demand).description,
      "Sequence": PublisherContract.check([1, 2, 3, 4].publisher, demand: demand, expectsCompletion: completes)
        .description,
      "Future": PublisherContract.check(Future<Int, Never> { $0(.success(5)) }, demand: demand).description,
      "Record": PublisherContract.check(
        Record<Int, TestFailure>(output: [1, 2, 3], completion: .failure(TestFailure())),
        demand: demand
      ).description,
      "map": PublisherContract.check((1...5).publisher.map { $0 * 2 }, demand: demand).description,
      "filter": PublisherContract.check((1...9).publisher.filter { $0 % 2 == 0 }, demand: demand).description,
      "scan": PublisherContract.check((1...5).publisher.scan(0, +), demand: demand).description,
    ]
    for (name, report) in reports.sorted(by: { $0.key < $1.key }) {
      #expect(report.hasPrefix("satisfied"), "\(name): \(report)")
    }
  }

  @Test(arguments: ContractDemand.standard)
  func subjects(demand: ContractDemand) {
    let passthrough = PassthroughSubject<Int, TestFailure>()
    let passthroughReport = PublisherContract.check(passthrough, demand: demand) { _ in
      for value in 1...4 { passthrough.send(value) }
      passthrough.send(completion: .failure(TestFailure()))
      passthrough.send(9)
    }
    #expect(passthroughReport.isSatisfied, "\(passthroughReport)")

    let current = CurrentValueSubject<Int, Never>(0)
    let currentReport = PublisherContract.check(current.map { $0 + 1 }, demand: demand) { checker in
      current.send(1)
      checker.request(.max(1))
      current.send(2)
      current.send(completion: .finished)
    }
    #expect(currentReport.isSatisfied, "\(currentReport)")
  }

  @Test func reportRecordsTheCheckersOwnRequestsAndCancel() {
    let report = PublisherContract.check([1, 2, 3].publisher, demand: .cancel(afterValues: 2))
    expectEqual(report.values, [1, 2])
    #expect(
      report.events.map(\.description) == ["subscription", "request(unlimited)", "value(1)", "value(2)", "cancel"]
    )
    expectEqual(report.description, "satisfied: subscription, request(unlimited), value(1), value(2), cancel")
    let oneAtATime = PublisherContract.check([1, 2].publisher, demand: .oneAtATime)
    #expect(
      oneAtATime.events.map(\.description) == [
        "subscription", "request(max(1))", "value(1)", "request(max(1))", "value(2)", "request(max(1))", "finished",
      ]
    )
    expectEqual(oneAtATime.completion, .finished)
  }

  // MARK: Broken publishers are caught

  @Test func valuesWithoutDemand() {
    let upstream = TestPublisher<Int, Never>()
    let report = PublisherContract.check(upstream, demand: .max(1)) { _ in
      upstream.send(1)
      upstream.send(2)
    }
    let violation = report.firstViolation
    expectEqual(violation?.kind, .valueBeyondDemand)
    expectEqual(violation?.history, ["subscription", "request(max(1))", "value(1)", "value(2)"])
    #expect(
      violation?.description
        == "a value beyond the requested demand at event 3: subscription, request(max(1)), value(1), >value(2)<"
    )
  }

  @Test func valueWithNoDemandAtAll() {
    let upstream = TestPublisher<Int, Never>()
    let report = PublisherContract.check(upstream, demand: .none) { _ in upstream.send(1) }
    expectEqual(report.firstViolation?.kind, .valueBeyondDemand)
    expectEqual(report.firstViolation?.eventIndex, 1)
  }

  @Test func eventsAfterCompletion() {
    let upstream = TestPublisher<Int, Never>()
    let report = PublisherContract.check(upstream) { _ in
      upstream.send(completion: .finished)
      upstream.send(1)
    }
    expectEqual(report.violations.map(\.kind), [.eventAfterCompletion])
    expectEqual(report.firstViolation?.history.last, "value(1)")
  }

  @Test func twoCompletions() {
    let upstream = TestPublisher<Int, TestFailure>()
    let report = PublisherContract.check(upstream, expectsCompletion: true) { _ in
      upstream.send(completion: .failure(TestFailure()))
      upstream.send(completion: .finished)
    }
    expectEqual(report.violations.map(\.kind), [.secondCompletion])
    expectEqual(report.completion, .failure(TestFailure()))
  }

  @Test func secondSubscriptionIsFlaggedAndCancelled() {
    let upstream = TestPublisher<Int, Never>()
    let extra = TestSubscription()
    let report = PublisherContract.check(upstream) { _ in upstream.send(subscription: extra) }
    expectEqual(report.violations.map(\.kind), [.secondSubscription])
    #expect(extra.isCancelled)
    #expect(extra.requestedDemands.isEmpty)
  }

  @Test func valueAfterCancel() {
    let upstream = TestPublisher<Int, Never>()
    let report = PublisherContract.check(upstream, demand: .cancel(afterValues: 1)) { _ in
      upstream.send(1)
      upstream.send(2)
      upstream.send(completion: .finished)
    }
    expectEqual(upstream.cancelCount, 1)
    expectEqual(report.violations.map(\.kind), [.valueAfterCancel])
  }

  @Test func eventBeforeSubscriptionAndMissingSubscription() {
    let report = PublisherContract.check(NoSubscriptionPublisher())
    #expect(
      report.violations.map(\.kind) == [.eventBeforeSubscription, .eventBeforeSubscription, .missingSubscription]
    )
  }

  @Test func missingCompletion() {
    let report = PublisherContract.check(TestPublisher<Int, Never>(), expectsCompletion: true)
    expectEqual(report.violations.map(\.kind), [.missingCompletion])
    expectEqual(report.firstViolation?.eventIndex, 2)
  }

  /// The first value may arrive on another thread while the initial request made from `receive(subscription:)` is
  /// still running, as with `receive(on:)`: that is not an overlap.
  @Test func aValueFromAnotherThreadDuringTheInitialRequestKeepsTheContract() {
    let report = PublisherContract.check(DeliversOnAnotherThreadDuringRequest(), expectsCompletion: true)
    #expect(report.isSatisfied, "\(report)")
    expectEqual(report.events.count, 4)
  }

  @Test func overlappingCallsFromTwoThreads() {
    let checker = ContractChecker<Int, Never>(onEvent: { checker, event in
      guard case .value(1) = event else { return }
      // While this thread is inside receive(1), another thread delivers 2.
      let group = DispatchGroup()
      DispatchQueue.global().async(group: group) { _ = checker.receive(2) }
      group.wait()
    })
    let upstream = TestPublisher<Int, Never>()
    upstream.subscribe(checker)
    upstream.send(1)
    upstream.send(3)
    let report = checker.report()
    expectEqual(report.violations.map(\.kind), [.concurrentCalls])
    expectEqual(report.firstViolation?.history.last, "value(2)")
    expectEqual(report.values, [1, 2, 3])
  }

  @Test func reentrantCallsOnOneThreadAreAllowed() {
    let upstream = TestPublisher<Int, Never>()
    let checker = ContractChecker<Int, Never>(onEvent: { _, event in
      if case .value(1) = event { upstream.send(2) }
    })
    upstream.subscribe(checker)
    upstream.send(1)
    #expect(checker.report().isSatisfied, "\(checker)")
  }

  @Test func cancelBeforeSubscriptionCancelsIt() {
    let checker = ContractChecker<Int, Never>()
    checker.cancel()
    let upstream = TestPublisher<Int, Never>()
    upstream.subscribe(checker)
    #expect(upstream.isCancelled)
    #expect(upstream.requestedDemands.isEmpty)
  }

  @Test func standardDemandsDescribeThemselves() {
    expectEqual(ContractDemand.standard.count, 6)
    expectEqual(ContractDemand.oneAtATime.description, "initial max(1), per value max(1)")
    #expect(
      ContractDemand.cancel(afterValues: 2).description
        == "initial unlimited, per value max(0), cancel after 2 value(s)"
    )
  }
}

private struct TestFailure: Error, Equatable {}

/// Sends a value and a completion without ever sending a subscription.
private struct NoSubscriptionPublisher: Publisher {
  typealias Output = Int
  typealias Failure = Never

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    _ = subscriber.receive(1)
    subscriber.receive(completion: .finished)
  }
}

/// Sends one value from another thread while its subscriber's request is running, and waits for it, then
/// finishes.
private struct DeliversOnAnotherThreadDuringRequest: Publisher {
  typealias Output = Int
  typealias Failure = Never

  final class Subscription: RillTesting.Subscription, @unchecked Sendable {
    // SAFETY: `subscriber` is set before the subscription is handed out and only read afterwards.
    let subscriber: AnySubscriber<Int, Never>
    init(_ subscriber: AnySubscriber<Int, Never>) { self.subscriber = subscriber }

    func request(_ demand: Subscribers.Demand) {
      let group = DispatchGroup()
      DispatchQueue.global().async(group: group) { _ = self.subscriber.receive(1) }
      group.wait()
      subscriber.receive(completion: .finished)
    }

    func cancel() {}
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscriber.receive(subscription: Subscription(AnySubscriber(subscriber)))
  }
}
