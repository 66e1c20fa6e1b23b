import RillCore
import RillTestSupport
import Testing

/// Cases found by the differential tests against OpenCombine (Differential/), kept as regular tests.
@Suite struct DifferentialRegressionTests {
  /// Seed 6760071291456555664: when downstream demand turns unlimited, flatMap asks its children for more in the
  /// order they subscribed, so their remaining values arrive in the same order on every run.
  @Test func flatMapUpgradesChildrenToUnlimitedInSubscriptionOrder() {
    let recorder = ReliabilityStrictRecorder<Int, Never>(initialDemand: .none)
    (1...16).publisher.flatMap { [$0, $0 + 100].publisher }.subscribe(recorder)
    recorder.request(.unlimited)
    expectEqual(recorder.values, Array(1...16) + Array(101...116))
    expectEqual(recorder.completions, 1)
  }

  /// Seed 12537068626483854966 (base seed 7), reduced to `A.flatMap { _ in B }.tryDrop(while:)` whose predicate
  /// throws on 2, with no initial demand, over `A.send(2); B.send(2); request(.unlimited)`.
  ///
  /// `flatMap` delivers the child's queued value before it asks its child for `.unlimited`, as Combine and
  /// OpenCombine do: `tryDrop` throws on that value and cancels, so the child is never asked for more. Unlike
  /// Combine, Rill does not ask the children it has cancelled meanwhile.
  @Test func flatMapDeliversItsQueuedValuesBeforeAskingItsChildrenForUnlimitedDemand() {
    let log = RegressionLog()
    let a = RegressionSource(name: "A", log: log)
    let b = RegressionSource(name: "B", log: log)
    let recorder = ReliabilityStrictRecorder<Int, ReliabilityError>(initialDemand: .none)
    a.flatMap { _ in b }
      .tryDrop { value in
        if value == 2 { throw ReliabilityError.boom }
        return value < 5
      }
      .mapError { $0 as? ReliabilityError ?? .boom }
      .subscribe(recorder)
    a.send(2)
    b.send(2)
    log.lines.append("> request(unlimited)")
    recorder.request(.unlimited)
    #expect(
      log.lines == [
        "A#1 subscribed", "A#1 request unlimited", "B#1 subscribed", "B#1 request max(1)",
        "> request(unlimited)", "B#1 cancel", "A#1 cancel",
      ]
    )
    expectEqual(recorder.events, [.failure])
    expectEqual(recorder.violations, [])
  }

  /// Seed 13781954069069331856, where Rill and OpenCombine agree and Combine does the same.
  ///
  /// When the other publisher of `drop(untilOutputFrom:)` has already failed, each resubscription by `retry` fails
  /// while the trigger is being subscribed to; the upstream subscription that arrives afterwards is asked for the
  /// demand downstream requested meanwhile, as Combine's behaviour suite shows (`DropUntilOutputTests.
  /// testLateSubscription`), rather than cancelled at once.
  @Test func dropUntilOutputUnderRetryAsksTheUpstreamSubscriptionThatArrivesAfterTheFailureForThePendingDemand() {
    let log = RegressionLog()
    let a = RegressionSource(name: "A", log: log)
    let b = RegressionSource(name: "B", log: log)
    let recorder = ReliabilityStrictRecorder<Int, ReliabilityError>(initialDemand: .max(3))
    a.drop(untilOutputFrom: b).flatMap(maxPublishers: .max(1)) { _ in b }.last().retry(2).subscribe(recorder)
    log.lines.append("> B.fail")
    b.send(completion: .failure(.boom))
    #expect(
      log.lines == [
        "B#1 subscribed", "B#1 request max(1)", "A#1 subscribed", "A#1 request max(1)",
        "> B.fail", "A#1 cancel",
        "B#2 subscribed", "B#2 request max(1)", "A#2 subscribed", "A#2 request max(1)",
        "B#3 subscribed", "B#3 request max(1)", "A#3 subscribed", "A#3 request max(1)",
      ]
    )
    expectEqual(recorder.events, [.failure])
    expectEqual(recorder.violations, [])
  }
}

/// The differential harness's scripted source, cut down: records subscriptions, requests and cancels, sends a
/// value to every subscription with demand, and completes late subscribers at once.
private final class RegressionSource: Publisher, @unchecked Sendable {
  // SAFETY: single-threaded tests only.
  typealias Output = Int
  typealias Failure = ReliabilityError

  final class Link: Subscription, @unchecked Sendable {
    // SAFETY: single-threaded tests only.
    let name: String
    let log: RegressionLog
    var downstream: AnySubscriber<Int, ReliabilityError>?
    var demand = Subscribers.Demand.none

    init(name: String, log: RegressionLog, downstream: AnySubscriber<Int, ReliabilityError>) {
      self.name = name
      self.log = log
      self.downstream = downstream
    }

    func request(_ demand: Subscribers.Demand) {
      log.lines.append("\(name) request \(demand)")
      if downstream != nil { self.demand += demand }
    }

    func cancel() {
      log.lines.append("\(name) cancel")
      downstream = nil
    }
  }

  let name: String
  let log: RegressionLog
  var links: [Link] = []
  var completion: Subscribers.Completion<ReliabilityError>?

  init(name: String, log: RegressionLog) {
    self.name = name
    self.log = log
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == ReliabilityError {
    let link = Link(name: "\(name)#\(links.count + 1)", log: log, downstream: AnySubscriber(subscriber))
    links.append(link)
    log.lines.append("\(link.name) subscribed")
    subscriber.receive(subscription: link)
    if let completion {
      link.downstream = nil
      subscriber.receive(completion: completion)
    }
  }

  func send(_ value: Int) {
    for link in links where link.demand > 0 {
      guard let downstream = link.downstream else { continue }
      link.demand -= 1
      link.demand += downstream.receive(value)
    }
  }

  func send(completion: Subscribers.Completion<ReliabilityError>) {
    self.completion = completion
    for link in links {
      let downstream = link.downstream
      link.downstream = nil
      downstream?.receive(completion: completion)
    }
  }
}

private final class RegressionLog: @unchecked Sendable {
  // SAFETY: single-threaded tests only.
  var lines: [String] = []
}
