import RillCore
import RillTestSupport
import RillTesting
import Testing

private final class Model: ObservableObject {
  @Published var name = "a"
  @Published var count = 0
  var plain = 0
}

private final class Derived: ObservableObjectBase {
  @Published var extra = 1
}

private class ObservableObjectBase: ObservableObject {
  @Published var base = 0
}

private final class Empty: ObservableObject {
  var value = 0
}

@Suite struct PublishedTests {
  @Test func projectedPublisherSendsCurrentThenNewValuesInWillSet() {
    let model = Model()
    var seen: [String] = []
    var propertyDuringDelivery: [String] = []
    let cancellable = model.$name.sink { value in
      seen.append(value)
      propertyDuringDelivery.append(model.name)
    }
    model.name = "b"
    model.name = "c"
    expectEqual(seen, ["a", "b", "c"])
    expectEqual(propertyDuringDelivery, ["a", "a", "b"])
    expectEqual(model.name, "c")
    cancellable.cancel()
    model.name = "d"
    expectEqual(seen, ["a", "b", "c"])
  }

  @Test func objectWillChangeFiresBeforeEachPublishedChange() {
    let model = Model()
    var events: [String] = []
    let willChange = model.objectWillChange.sink { events.append("will \(model.count)") }
    let values = model.$count.dropFirstForTest().sink { events.append("value \($0)") }
    model.count = 1
    model.name = "z"
    model.plain = 5
    expectEqual(events, ["will 0", "value 1", "will 1"])
    willChange.cancel()
    values.cancel()
  }

  @Test func objectWillChangeIsSharedAndCoversSuperclasses() {
    let derived = Derived()
    #expect(derived.objectWillChange === derived.objectWillChange)
    var count = 0
    let cancellable = derived.objectWillChange.sink { count += 1 }
    derived.extra = 2
    derived.base = 3
    expectEqual(count, 2)
    cancellable.cancel()
  }

  @Test func objectWithoutPublishedPropertiesGetsASilentPublisher() {
    let empty = Empty()
    var count = 0
    let cancellable = empty.objectWillChange.sink { count += 1 }
    empty.value = 1
    expectEqual(count, 0)
    cancellable.cancel()
  }

  @Test func assignToPublishedRepublishes() {
    let model = Model()
    let subject = PassthroughSubject<Int, Never>()
    subject.assign(to: &model.$count)
    var willChange = 0
    let observer = model.objectWillChange.sink { willChange += 1 }
    subject.send(4)
    subject.send(5)
    expectEqual(model.count, 5)
    expectEqual(willChange, 2)
    observer.cancel()
  }

  @Test func assignSubscriptionEndsWithTheObject() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakModel: Model?
    do {
      let model = Model()
      weakModel = model
      subject.assign(to: &model.$count)
      subject.send(1)
      expectEqual(model.count, 1)
    }
    #expect(weakModel == nil)
    subject.send(2)
  }

  @Test func observableObjectPublisherSends() {
    let publisher = ObservableObjectPublisher()
    var count = 0
    let cancellable = publisher.sink { count += 1 }
    publisher.send()
    publisher.send()
    expectEqual(count, 2)
    cancellable.cancel()
    publisher.send()
    expectEqual(count, 2)
  }

  /// A `@Published` property's subscriptions are named `PublishedSubject`, as in Combine.
  @Test func subscriptionIsNamedPublishedSubject() throws {
    let model = Model()
    let recorder = TestSubscriber<Int, Never>()
    model.$count.subscribe(recorder)
    let subscription = try #require(recorder.subscription)
    expectEqual(String(describing: subscription), "PublishedSubject")
    let parent = Mirror(reflecting: subscription).children.first { $0.label == "parent" }?.value
    #expect(String(describing: parent).contains("PublishedSubject"))
  }

  /// `ObservableObjectPublisher` signals a subscriber on each `send()` from its first request on, whatever demand it
  /// asked for, as Combine's does, and its subscriptions are named after it and reflect their subscriber only.
  @Test func observableObjectPublisherSignalsFromTheFirstRequestWhateverTheDemand() throws {
    let publisher = ObservableObjectPublisher()
    let recorder = TestSubscriber<Empty.Signal, Never>(initialDemand: .none)
    publisher.map { Empty.Signal() }.subscribe(recorder)
    let subscription = try #require(recorder.subscription)
    publisher.send()
    #expect(recorder.values.isEmpty)
    subscription.request(.max(1))
    publisher.send()
    publisher.send()
    expectEqual(recorder.values.count, 2)
    subscription.cancel()
    publisher.send()
    expectEqual(recorder.values.count, 2)

    let direct = DirectSignalCounter()
    publisher.subscribe(direct)
    let directSubscription = try #require(direct.subscription)
    expectEqual(String(describing: directSubscription), "ObservableObjectPublisher")
    expectEqual(Mirror(reflecting: directSubscription).children.map(\.label), ["downstream"])
  }

}

extension Published.Publisher {
  /// Skips the current value the projected publisher sends on subscription.
  fileprivate func dropFirstForTest() -> Publishers.Filter<Self> {
    var isFirst = true
    return filter { _ in
      defer { isFirst = false }
      return !isFirst
    }
  }

}

extension Empty {
  struct Signal: Equatable {}
}

/// Counts `ObservableObjectPublisher` signals and keeps its subscription.
private final class DirectSignalCounter: Subscriber, @unchecked Sendable {
  typealias Input = Void
  typealias Failure = Never
  var subscription: (any Subscription)?
  func receive(subscription: any Subscription) { self.subscription = subscription }
  func receive(_ input: Void) -> Subscribers.Demand { .none }
  func receive(completion: Subscribers.Completion<Never>) {}
}
