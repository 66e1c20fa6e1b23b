import Dispatch
import Foundation
import Rill
import RillLoopbackServer
import RillTestSupport
import RillTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct TimerPublisherTests {
  @Test func connectStartsAndCancelStops() {
    let publisher = Timer.publish(every: 0.01, on: .current, in: .default)
    var dates: [Date] = []
    let cancellable = publisher.sink { dates.append($0) }
    foundationSpinRunLoop(seconds: 0.05) { false }
    #expect(dates.isEmpty)
    let connection = publisher.connect()
    foundationSpinRunLoop { dates.count >= 3 }
    #expect(dates.count >= 3)
    expectEqual(dates, dates.sorted())
    connection.cancel()
    let countAtCancel = dates.count
    foundationSpinRunLoop(seconds: 0.05) { false }
    expectEqual(dates.count, countAtCancel)
    cancellable.cancel()
    expectEqual(publisher.interval, 0.01)
    expectEqual(publisher.mode, .default)
  }

  /// As in Combine, the timer runs until the connection is cancelled, even when the connection is not kept.
  @Test func theTimerRunsWithoutItsConnectionBeingKept() {
    let publisher = Timer.publish(every: 0.01, on: .current, in: .default)
    var dates: [Date] = []
    let cancellable = publisher.sink { dates.append($0) }
    _ = publisher.connect()
    foundationSpinRunLoop { dates.count >= 3 }
    #expect(dates.count >= 3)
    cancellable.cancel()
  }

  /// The first tick comes one interval after `connect()`, not at once.
  @Test func firstTickComesOneIntervalAfterConnect() {
    let interval = 0.2
    let publisher = Timer.publish(every: interval, on: .current, in: .default)
    var dates: [Date] = []
    let cancellable = publisher.sink { dates.append($0) }
    let connectedAt = Date()
    let connection = publisher.connect()
    foundationSpinRunLoop { !dates.isEmpty }
    connection.cancel()
    cancellable.cancel()
    let firstDelay = dates.first?.timeIntervalSince(connectedAt)
    #expect(firstDelay.map { $0 >= interval * 0.9 } == true, "first tick after \(String(describing: firstDelay)) s")
  }

  /// As in Combine, `Timer.publish` leaves the tolerance out, and the subscription describes itself by its type.
  @Test func publishDropsTheToleranceAndTheSubscriptionHasNoDescription() throws {
    let publisher = Timer.publish(every: 0.25, tolerance: 0.02, on: .main, in: .default)
    #expect(publisher.tolerance == nil)
    expectEqual(publisher.interval, 0.25)
    expectEqual(Timer.TimerPublisher(interval: 1, tolerance: 0.5, runLoop: .main, mode: .default).tolerance, 0.5)
    var subscription: (any Subscription)?
    publisher.subscribe(AnySubscriber(receiveSubscription: { subscription = $0 }))
    let received: Any = try #require(subscription)
    #expect(!(received is any CustomStringConvertible))
    #expect(!(received is any CustomReflectable))
    #expect(!(received is any CustomPlaygroundDisplayConvertible))
    subscription?.cancel()
  }

  @Test func subscriberWithoutDemandMissesFirings() {
    let publisher = Timer.publish(every: 0.005, tolerance: 0.001, on: .current, in: .default)
    final class Probe: Subscriber {
      var subscription: (any Subscription)?
      var received = 0
      func receive(subscription: any Subscription) { self.subscription = subscription }
      func receive(_ input: Date) -> Subscribers.Demand {
        received += 1
        return .none
      }
      func receive(completion: Subscribers.Completion<Never>) {}
    }
    let probe = Probe()
    publisher.subscribe(probe)
    let connection = publisher.connect()
    foundationSpinRunLoop(seconds: 0.05) { false }
    expectEqual(probe.received, 0)
    probe.subscription?.request(.max(2))
    foundationSpinRunLoop { probe.received >= 2 }
    foundationSpinRunLoop(seconds: 0.03) { false }
    expectEqual(probe.received, 2)
    connection.cancel()
    probe.subscription?.cancel()
  }

  /// `Timer.publish(every:on:in:).autoconnect().scan` counts firings.
  @Test func autoconnectScanCounts() {
    var counts: [Int] = []
    let cancellable = Timer.publish(every: 0.01, on: .current, in: .default)
      .autoconnect()
      .scan(0) { count, _ in count + 1 }
      .sink { counts.append($0) }
    foundationSpinRunLoop { counts.count >= 3 }
    cancellable.cancel()
    expectEqual(Array(counts.prefix(3)), [1, 2, 3])
    let countAtCancel = counts.count
    foundationSpinRunLoop(seconds: 0.05) { false }
    expectEqual(counts.count, countAtCancel)
  }
}

@Suite struct NotificationCenterPublisherTests {
  private static let name = Notification.Name("RillTests.ping")

  @Test func deliversPostedNotificationsUntilCancelled() {
    let center = NotificationCenter()
    var received: [String] = []
    let cancellable = center.publisher(for: Self.name)
      .sink { received.append($0.userInfo?["v"] as? String ?? "?") }
    center.post(name: Self.name, object: nil, userInfo: ["v": "a"])
    center.post(name: Notification.Name("other"), object: nil, userInfo: ["v": "x"])
    center.post(name: Self.name, object: nil, userInfo: ["v": "b"])
    cancellable.cancel()
    center.post(name: Self.name, object: nil, userInfo: ["v": "c"])
    expectEqual(received, ["a", "b"])
  }

  @Test func filtersByObjectAndHonoursDemand() {
    let center = NotificationCenter()
    let sender = NSObject()
    final class Probe: Subscriber {
      var subscription: (any Subscription)?
      var received = 0
      func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
      }
      func receive(_ input: Notification) -> Subscribers.Demand {
        received += 1
        return .none
      }
      func receive(completion: Subscribers.Completion<Never>) {}
    }
    let probe = Probe()
    let publisher = center.publisher(for: Self.name, object: sender)
    expectEqual(publisher.name, Self.name)
    publisher.subscribe(probe)
    center.post(name: Self.name, object: NSObject())
    center.post(name: Self.name, object: sender)
    center.post(name: Self.name, object: sender)
    expectEqual(probe.received, 1)
    probe.subscription?.request(.max(1))
    center.post(name: Self.name, object: sender)
    expectEqual(probe.received, 2)
    probe.subscription?.cancel()
  }

  @Test func postsFromSeveralThreadsReachTheSubscriberOneAtATimeAndAllOfThem() {
    let center = NotificationCenter()
    let subscriber = TestSubscriber<Notification, Never>()
    center.publisher(for: Self.name).subscribe(subscriber)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<250 { center.post(name: Self.name, object: nil) }
    }
    expectEqual(subscriber.values.count, 2_000)
    expectEqual(subscriber.overlappingDeliveries, 0)
    subscriber.cancel()
  }

  @Test func aPostFromInsideReceiveIsDeliveredAfterTheCurrentOne() {
    let center = NotificationCenter()
    let subscriber = TestSubscriber<Notification, Never>(onValue: { _, notification in
      if notification.userInfo?["v"] as? String == "a" {
        center.post(name: Self.name, object: nil, userInfo: ["v": "b"])
      }
      return .none
    })
    center.publisher(for: Self.name).subscribe(subscriber)
    center.post(name: Self.name, object: nil, userInfo: ["v": "a"])
    #expect(subscriber.values.map { $0.userInfo?["v"] as? String } == ["a", "b"])
    expectEqual(subscriber.overlappingDeliveries, 0)
    subscriber.cancel()
  }

  @Test func aNotificationGoesOnlyToDemandLeftForIt() {
    let center = NotificationCenter()
    // Demand for two: a post from inside the first delivery waits for it and takes the second; a third finds no
    // demand left and is dropped, as is one posted before any demand.
    let subscriber = TestSubscriber<Notification, Never>(initialDemand: .none)
    subscriber.onValue = { _, notification in
      if notification.userInfo?["v"] as? String == "a" {
        center.post(name: Self.name, object: nil, userInfo: ["v": "b"])
        center.post(name: Self.name, object: nil, userInfo: ["v": "c"])
      }
      return .none
    }
    center.publisher(for: Self.name).subscribe(subscriber)
    center.post(name: Self.name, object: nil, userInfo: ["v": "early"])
    subscriber.request(.max(2))
    center.post(name: Self.name, object: nil, userInfo: ["v": "a"])
    #expect(subscriber.values.map { $0.userInfo?["v"] as? String } == ["a", "b"])
    // Demand a value returns counts too.
    subscriber.onValue = { _, _ in .max(1) }
    subscriber.request(.max(1))
    center.post(name: Self.name, object: nil, userInfo: ["v": "d"])
    center.post(name: Self.name, object: nil, userInfo: ["v": "e"])
    expectEqual(subscriber.values.count, 4)
    subscriber.cancel()
  }

  @Test func publishersAreEqualForTheSameCenterNameAndObject() {
    let center = NotificationCenter()
    let object = NSObject()
    #expect(center.publisher(for: Self.name) == center.publisher(for: Self.name))
    #expect(center.publisher(for: Self.name, object: object) == center.publisher(for: Self.name, object: object))
    #expect(center.publisher(for: Self.name) != NotificationCenter().publisher(for: Self.name))
    #expect(center.publisher(for: Self.name) != center.publisher(for: Notification.Name("other")))
    #expect(center.publisher(for: Self.name, object: object) != center.publisher(for: Self.name, object: NSObject()))
    #expect(center.publisher(for: Self.name, object: object) != center.publisher(for: Self.name))
  }

  @Test func subscriptionIsFreedAfterCancel() {
    let center = NotificationCenter()
    weak var weakBox: NSObject?
    var cancellable: AnyCancellable?
    do {
      let box = NSObject()
      weakBox = box
      cancellable = center.publisher(for: Self.name).sink { _ in _ = box }
    }
    #expect(weakBox != nil)
    cancellable?.cancel()
    cancellable = nil
    #expect(weakBox == nil)
  }
}

@Suite(.serialized) struct DataTaskPublisherTests {
  private struct Valid: Decodable, Equatable { let valid: Bool }

  private static let session = URLSession(configuration: .ephemeral)

  @Test func jsonEndpointDeliversDataAndResponseThenFinishes() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let recorder = FoundationRecorder<(Data, Int)>()
    var completion: Subscribers.Completion<URLError>?
    let cancellable = Self.session.dataTaskPublisher(for: server.url("/json"))
      .sink(
        receiveCompletion: {
          completion = $0
          recorder.finish()
        },
        receiveValue: { recorder.append(($0.data, ($0.response as? HTTPURLResponse)?.statusCode ?? -1)) }
      )
    #expect(recorder.wait())
    expectEqual(recorder.values.count, 1)
    let (data, status) = try #require(recorder.values.first)
    expectEqual(status, 200)
    #expect(try JSONDecoder().decode(Valid.self, from: data) == Valid(valid: true))
    if case .finished = completion {} else { Issue.record("expected .finished, got \(String(describing: completion))") }
    cancellable.cancel()
  }

  @Test func notFoundIsAValueNotAFailure() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let recorder = FoundationRecorder<Int>()
    let request = URLRequest(url: server.url("/missing"))
    let publisher = URLSession.DataTaskPublisher(request: request, session: Self.session)
    expectEqual(publisher.request.url, request.url)
    let cancellable = publisher.sink(
      receiveCompletion: { _ in recorder.finish() },
      receiveValue: { recorder.append(($0.response as? HTTPURLResponse)?.statusCode ?? -1) }
    )
    #expect(recorder.wait())
    expectEqual(recorder.values, [404])
    cancellable.cancel()
  }

  @Test func refusedConnectionFailsWithURLError() {
    let recorder = FoundationRecorder<URLError>()
    let cancellable = Self.session.dataTaskPublisher(for: LoopbackHTTPServer.refusedURL())
      .sink(
        receiveCompletion: {
          if case .failure(let error) = $0 { recorder.append(error) }
          recorder.finish()
        },
        receiveValue: { _ in Issue.record("no value expected") }
      )
    #expect(recorder.wait())
    expectEqual(recorder.values.count, 1)
    #expect(recorder.values.first?.code != .cancelled)
    cancellable.cancel()
  }

  @Test func nothingStartsWithoutDemand() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    final class Probe: Subscriber, @unchecked Sendable {
      // SAFETY: written before the test reads it, through the recorder's semaphore.
      var subscription: (any Subscription)?
      let recorder = FoundationRecorder<Int>()
      func receive(subscription: any Subscription) { self.subscription = subscription }
      func receive(_ input: (data: Data, response: URLResponse)) -> Subscribers.Demand {
        recorder.append(input.data.count)
        return .none
      }
      func receive(completion: Subscribers.Completion<URLError>) { recorder.finish() }
    }
    let probe = Probe()
    Self.session.dataTaskPublisher(for: server.url("/json")).subscribe(probe)
    Thread.sleep(forTimeInterval: 0.1)
    #expect(server.requests.isEmpty)
    probe.subscription?.request(.max(1))
    #expect(probe.recorder.wait())
    expectEqual(server.requests, ["/json"])
    expectEqual(probe.recorder.values.count, 1)
  }

  @Test func cancellingTheSubscriptionCancelsTheTask() throws {
    let server = try LoopbackHTTPServer(slowDelay: 1)
    defer { server.stop() }
    let recorder = FoundationRecorder<String>()
    let cancellable = Self.session.dataTaskPublisher(for: server.url("/slow"))
      .sink(receiveCompletion: { _ in recorder.append("completion") }, receiveValue: { _ in recorder.append("value") })
    let deadline = Date().addingTimeInterval(10)
    while server.requests.isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    expectEqual(server.requests, ["/slow"])
    cancellable.cancel()
    Thread.sleep(forTimeInterval: 1.3)
    #expect(recorder.values.isEmpty)
  }

  @Test func slowEndpointTimesOut() throws {
    let server = try LoopbackHTTPServer(slowDelay: 2)
    defer { server.stop() }
    let recorder = FoundationRecorder<URLError.Code>()
    let cancellable = Self.session.dataTaskPublisher(for: server.url("/slow"))
      .timeout(.milliseconds(200), scheduler: DispatchQueue.global(), customError: { URLError(.timedOut) })
      .sink(
        receiveCompletion: {
          if case .failure(let error) = $0 { recorder.append(error.code) }
          recorder.finish()
        },
        receiveValue: { _ in recorder.append(.unknown) }
      )
    #expect(recorder.wait())
    expectEqual(recorder.values, [.timedOut])
    cancellable.cancel()
  }
}
