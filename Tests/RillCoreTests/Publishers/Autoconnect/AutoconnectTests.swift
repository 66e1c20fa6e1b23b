import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct AutoconnectTests {
  /// Autoconnect forwards every event unchanged, even after completion; its subscribers see the upstream
  /// subscription's identity and description, and the last cancel disconnects, once.
  @Test func forwardsEventsUnchangedAndCountsCancels() throws {
    let upstream = Upstream()
    let connectable = CountingConnectable(upstream: upstream)
    let autoconnect = connectable.autoconnect()
    let first = TestSubscriber<Int, OpsMiscError>(initialDemand: .none, onValue: { _, _ in .max(3) })
    let second = TestSubscriber<Int, OpsMiscError>(initialDemand: .none)
    autoconnect.subscribe(second)
    autoconnect.subscribe(first)
    expectEqual(connectable.events, ["connected"])
    let subscription = try #require(first.subscription)
    let upstreamSubscription = try #require(upstream.subscriptions.last)
    expectEqual(subscription.combineIdentifier, upstreamSubscription.combineIdentifier)
    expectEqual(String(describing: subscription), String(describing: upstreamSubscription))
    expectEqual(upstream.sendToLatest(1), .max(3))
    upstream.sendToLatest(completion: .finished)
    expectEqual(upstream.sendToLatest(2), .max(3))
    expectEqual(first.events, [.subscription, .value(1), .completion(.finished), .value(2)])
    subscription.cancel()
    subscription.cancel()
    expectEqual(connectable.events, ["connected"])
    try #require(second.subscription).cancel()
    expectEqual(connectable.events, ["connected", "disconnected"])
  }

  /// A subscriber that subscribes from inside the first one's subscription, while the connection is being made,
  /// shares that connection and is counted: only the last cancel ends it. (Combine connects twice here and counts
  /// one subscriber, so the first cancel ends the other's stream.)
  @Test func subscriberSubscribingWhileConnectingSharesTheConnection() throws {
    let connectable = CountingConnectable(upstream: Upstream())
    let autoconnect = connectable.autoconnect()
    let inner = TestSubscriber<Int, OpsMiscError>(initialDemand: .none)
    let outer = ReentrantSubscriber { autoconnect.subscribe(inner) }
    autoconnect.subscribe(outer)
    expectEqual(connectable.events, ["connected"])
    outer.subscription?.cancel()
    expectEqual(connectable.events, ["connected"])
    try #require(inner.subscription).cancel()
    expectEqual(connectable.events, ["connected", "disconnected"])
  }

  /// A subscriber that arrives while the last connection is being cancelled gets a new connection once that cancel
  /// has returned, never two at once.
  @Test func subscriberArrivingWhileDisconnectingConnectsAfterTheCancel() throws {
    let connectable = CountingConnectable(upstream: Upstream())
    let autoconnect = connectable.autoconnect()
    let late = TestSubscriber<Int, OpsMiscError>(initialDemand: .none)
    connectable.onDisconnect = {
      connectable.onDisconnect = nil
      autoconnect.subscribe(late)
      connectable.events.append("late subscribed")
    }
    let first = TestSubscriber<Int, OpsMiscError>(initialDemand: .none)
    autoconnect.subscribe(first)
    first.cancel()
    expectEqual(connectable.events, ["connected", "disconnected", "late subscribed", "connected"])
    late.cancel()
    expectEqual(connectable.events, ["connected", "disconnected", "late subscribed", "connected", "disconnected"])
  }

  /// A subscriber that cancels from inside its `receive(subscription:)`, before the connection is made, is counted
  /// out: the connection is cancelled as soon as it is made.
  @Test func cancelBeforeTheConnectionIsMadeDisconnectsOnceItIs() {
    let connectable = CountingConnectable(upstream: Upstream())
    let autoconnect = connectable.autoconnect()
    let subscriber = ReentrantSubscriber {}
    subscriber.onSubscriptionWithSelf = { $0.subscription?.cancel() }
    autoconnect.subscribe(subscriber)
    expectEqual(connectable.events, ["connected", "disconnected"])
  }
  typealias Upstream = TestPublisher<Int, OpsMiscError>

  @Test func connectsOnFirstSubscriber() {
    let upstream = Upstream()
    let autoconnect = upstream.multicast { PassthroughSubject<Int, OpsMiscError>() }.autoconnect()
    #expect(upstream.subscriptions.isEmpty)
    let first = TestSubscriber<Int, OpsMiscError>()
    autoconnect.subscribe(first)
    expectEqual(upstream.subscriptions.count, 1)
    let second = TestSubscriber<Int, OpsMiscError>()
    autoconnect.subscribe(second)
    expectEqual(upstream.subscriptions.count, 1)
    upstream.send(1)
    upstream.send(completion: .failure(OpsMiscError()))
    expectEqual(first.events, [.subscription, .value(1), .completion(.failure(OpsMiscError(1)))])
    expectEqual(second.events, [.subscription, .value(1), .completion(.failure(OpsMiscError(1)))])
  }

  @Test func disconnectsWhenTheLastSubscriberCancelsAndReconnects() {
    let upstream = Upstream()
    let autoconnect = upstream.multicast { PassthroughSubject<Int, OpsMiscError>() }.autoconnect()
    let first = TestSubscriber<Int, OpsMiscError>()
    let second = TestSubscriber<Int, OpsMiscError>()
    autoconnect.subscribe(first)
    autoconnect.subscribe(second)
    let firstSubscription = first.subscription
    first.cancel()
    firstSubscription?.cancel()
    expectEqual(upstream.subscriptions.last?.isCancelled, false)
    second.cancel()
    expectEqual(upstream.subscriptions.last?.isCancelled, true)
    let third = TestSubscriber<Int, OpsMiscError>()
    autoconnect.subscribe(third)
    expectEqual(upstream.subscriptions.count, 2)
    upstream.sendToLatest(5)
    expectEqual(third.values, [5])
    #expect(first.values.isEmpty)
  }

  @Test func limitedDemandIsPerSubscriber() {
    let upstream = Upstream()
    let autoconnect = upstream.multicast { PassthroughSubject<Int, OpsMiscError>() }.autoconnect()
    let recorder = TestSubscriber<Int, OpsMiscError>(initialDemand: .max(1))
    autoconnect.subscribe(recorder)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(1)
    upstream.send(2)
    recorder.request(.max(1))
    upstream.send(3)
    expectEqual(recorder.values, [1, 3])
  }

  @Test func cancelFromInsideReceive() {
    let upstream = Upstream()
    let autoconnect = upstream.multicast { PassthroughSubject<Int, OpsMiscError>() }.autoconnect()
    let recorder = TestSubscriber<Int, OpsMiscError>(onValue: { recorder, _ in
      recorder.cancel()
      return .none
    })
    autoconnect.subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    expectEqual(recorder.values, [1])
    #expect(upstream.isCancelled)
  }

  @Test func requestAndSendFromInsideReceive() {
    expectRequestAndSendFromInsideReceive { $0.multicast { PassthroughSubject<Int, Never>() }.autoconnect() }
  }

  @Test func releasedAfterCompletionAndAfterCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let released = opsMiscAllReleased {
      let autoconnect = subject.multicast { PassthroughSubject<Int, Never>() }.autoconnect()
      let recorder = TestSubscriber<Int, Never>()
      autoconnect.subscribe(recorder)
      let subscription = recorder.subscription! as AnyObject
      subject.send(1)
      subject.send(completion: .finished)
      expectEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
      return [recorder, subscription, autoconnect.upstream]
    }
    #expect(released)
    let other = PassthroughSubject<Int, Never>()
    #expect(
      opsMiscAllReleased {
        let autoconnect = other.multicast { PassthroughSubject<Int, Never>() }.autoconnect()
        let recorder = TestSubscriber<Int, Never>()
        autoconnect.subscribe(recorder)
        let subscription = recorder.subscription! as AnyObject
        other.send(1)
        recorder.cancel()
        return [recorder, subscription, autoconnect.upstream]
      }
    )
  }

  @Test func keepsUpstream() {
    let multicast = Just(1).multicast { PassthroughSubject<Int, Never>() }
    #expect(multicast.autoconnect().upstream === multicast)
  }
}

/// A connectable publisher that gives each subscriber its own upstream subscription and records connections.
private final class CountingConnectable: ConnectablePublisher, @unchecked Sendable {
  typealias Output = Int
  typealias Failure = OpsMiscError

  let upstream: TestPublisher<Int, OpsMiscError>
  var events: [String] = []
  /// Runs after each disconnection is recorded, inside the connection's `cancel()`.
  var onDisconnect: (() -> Void)?

  init(upstream: TestPublisher<Int, OpsMiscError>) {
    self.upstream = upstream
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == OpsMiscError {
    upstream.receive(subscriber: subscriber)
  }

  func connect() -> any Cancellable {
    events.append("connected")
    return Disconnect {
      self.events.append("disconnected")
      self.onDisconnect?()
    }
  }

  private struct Disconnect: Cancellable {
    let action: () -> Void
    func cancel() { action() }
  }
}

/// A subscriber that runs `onSubscription` when it gets its subscription.
private final class ReentrantSubscriber: Subscriber, @unchecked Sendable {
  typealias Input = Int
  typealias Failure = OpsMiscError

  let onSubscription: () -> Void
  /// Runs after `onSubscription`, with the subscriber.
  var onSubscriptionWithSelf: ((ReentrantSubscriber) -> Void)?
  private(set) var subscription: (any Subscription)?

  init(onSubscription: @escaping () -> Void) {
    self.onSubscription = onSubscription
  }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    onSubscription()
    onSubscriptionWithSelf?(self)
  }

  func receive(_ input: Int) -> Subscribers.Demand { .none }

  func receive(completion: Subscribers.Completion<OpsMiscError>) {}
}
