import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct ErasureTests {
  @Test func anyPublisherForwardsTheSubscriberItself() {
    let erased = (1...3).publisher.map { $0 * 2 }.eraseToAnyPublisher()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(2))
    erased.subscribe(recorder)
    expectEqual(recorder.values, [2, 4])
    expectEqual("\(erased)", "AnyPublisher")
    let twice = erased.eraseToAnyPublisher()
    let again = TestSubscriber<Int, Never>()
    twice.subscribe(again)
    expectEqual(again.values, [2, 4, 6])
  }

  @Test func anySubscriberFromClosures() {
    var events: [String] = []
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { subscription in
        events.append("subscription")
        subscription.request(.unlimited)
      },
      receiveValue: { value in
        events.append("value \(value)")
        return .none
      },
      receiveCompletion: { _ in events.append("finished") }
    )
    [1, 2].publisher.subscribe(subscriber)
    expectEqual(events, ["subscription", "value 1", "value 2", "finished"])
    expectEqual(subscriber.description, "Anonymous AnySubscriber")
    expectEqual(subscriber.playgroundDescription as? String, "Anonymous AnySubscriber")
    expectEqual("\(Mirror(reflecting: subscriber).subjectType)", "String")
  }

  /// A subscriber made of no closures requests nothing, asks for no more values and ignores the completion.
  @Test func anySubscriberWithoutClosuresIgnoresEverything() {
    let subscriber = AnySubscriber<Int, Never>()
    let stub = TestSubscriptionStub()
    subscriber.receive(subscription: stub)
    expectEqual(subscriber.receive(1), .none)
    subscriber.receive(completion: .finished)
    expectEqual(stub.cancelled, false)
  }

  @Test func anySubscriberWrapsASubscriberKeepingItsIdentity() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    let erased = AnySubscriber(sink)
    expectEqual(erased.combineIdentifier, sink.combineIdentifier)
    expectEqual(erased.description, "Sink")
    expectEqual(AnySubscriber(erased).combineIdentifier, sink.combineIdentifier)
  }

  @Test func anySubscriberWrappingASubject() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = TestSubscriber<Int, Never>()
    subject.subscribe(recorder)
    [4, 5].publisher.subscribe(AnySubscriber(subject))
    expectEqual(recorder.events, [.subscription, .value(4), .value(5), .completion(.finished)])
  }

  /// As in Combine, `AnySubscriber(subject)` is described as "Subject", reflects the subscriber that
  /// feeds the subject, passes only its first subscription on and cancels the others; an erased subscriber's
  /// playground description is its description.
  @Test func anySubscriberWrappingASubjectIsCombinesSubjectSubscriber() {
    let subject = PassthroughSubject<Int, Never>()
    let erased = AnySubscriber(subject)
    expectEqual(erased.description, "Subject")
    expectEqual(erased.playgroundDescription as? String, "Subject")
    #expect("\(Mirror(reflecting: erased).subjectType)".hasPrefix("SubjectSubscriber<"))
    let first = TestSubscriptionStub()
    let second = TestSubscriptionStub()
    erased.receive(subscription: first)
    erased.receive(subscription: second)
    expectEqual(first.cancelled, false)
    expectEqual(second.cancelled, true)
    let recorder = TestSubscriber<Int, Never>()
    let wrapped = AnySubscriber(recorder)
    expectEqual(wrapped.playgroundDescription as? String, wrapped.description)
  }
}

/// A subscription that only records whether it was cancelled.
private final class TestSubscriptionStub: Subscription, @unchecked Sendable {
  var cancelled = false
  func request(_ demand: Subscribers.Demand) {}
  func cancel() { cancelled = true }
}
