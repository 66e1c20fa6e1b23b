import Foundation
import RillCore
import RillTestSupport
import RillTesting
import Testing

/// Records the hooks that concern one subscriber, so that subscriptions made by tests running at the same time
/// do not show up.
private final class SubscriberIntrospection: _Introspection, @unchecked Sendable {
  private let lock = NSLock()
  private var _events: [String] = []
  let watched: CombineIdentifier

  init(watching subscriber: some Subscriber) {
    watched = subscriber.combineIdentifier
  }

  var events: [String] { lock.withLock { _events } }

  private func record(_ subscriber: some Subscriber, _ event: String) {
    guard subscriber.combineIdentifier == watched else { return }
    lock.withLock { _events.append(event) }
  }

  func willReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
  where P.Failure == S.Failure, P.Output == S.Input {
    record(subscriber, "willSubscribe \(S.self == AnySubscriber<S.Input, S.Failure>.self ? "erased" : "direct")")
  }

  func didReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
  where P.Failure == S.Failure, P.Output == S.Input {
    record(subscriber, "didSubscribe")
  }

  func willReceive<S: Subscriber>(subscriber: S, subscription: any Subscription) {
    record(subscriber, "willReceiveSubscription \(subscription)")
  }

  func didReceive<S: Subscriber>(subscriber: S, subscription: any Subscription) {
    record(subscriber, "didReceiveSubscription")
  }

  func willReceive<S: Subscriber>(subscriber: S, input: S.Input) {
    record(subscriber, "willReceive \(input)")
  }

  func didReceive<S: Subscriber>(subscriber: S, input: S.Input, resultingDemand: Subscribers.Demand) {
    record(subscriber, "didReceive \(input) \(resultingDemand)")
  }

  func willReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {
    record(subscriber, "willComplete")
  }

  func didReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {
    record(subscriber, "didComplete")
  }
}

/// A publisher that subscribes its upstream with `subscribe(_:)`, as an operator passing its subscriber through
/// would.
private struct PassingThrough<Upstream: Publisher>: Publisher {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure
  let upstream: Upstream

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    upstream.subscribe(subscriber)
  }
}

@Suite struct IntrospectionTests {
  /// `_Introspection` observes the subscriptions made with `subscribe(_:)` while it is enabled, hook
  /// before and after each event, with the real subscriber; the subscriber and subscription it puts in between
  /// keep the real ones' identity and description, and a subscriber passed on is not observed twice.
  @Test func observesSubscriptionsMadeWhileEnabled() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    let introspection = SubscriberIntrospection(watching: recorder)
    #expect(!introspection.isEnabled)
    introspection.enable()
    #expect(introspection.isEnabled)
    PassingThrough(upstream: subject).subscribe(recorder)
    subject.send(1)
    introspection.disable()
    #expect(!introspection.isEnabled)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(
      introspection.events == [
        "willSubscribe direct", "willSubscribe erased", "willReceiveSubscription PassthroughSubject",
        "didReceiveSubscription", "didSubscribe", "didSubscribe", "willReceive 1", "didReceive 1 max(1)",
      ]
    )
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    #expect(recorder.subscription == nil)
  }

  /// Subscribing while no introspection is enabled, or with `receive(subscriber:)`, hands the publisher
  /// the subscriber itself.
  @Test func receiveSubscriberIsNotObserved() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>()
    let introspection = SubscriberIntrospection(watching: recorder)
    introspection.enable()
    subject.receive(subscriber: recorder)
    introspection.disable()
    subject.send(1)
    expectEqual(introspection.events, [])
    expectEqual(recorder.values, [1])
  }
}
