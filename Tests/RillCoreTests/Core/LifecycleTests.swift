import RillCore
import RillTestSupport
import RillTesting
import Testing

/// Exactly one completion, silence after completion and cancel, idempotent cancel, and no retain cycles.
@Suite struct LifecycleTests {
  private final class Owner {
    var cancellables = Set<AnyCancellable>()
    var values: [Int] = []
  }

  @Test func sinkIgnoresEventsAfterCompletion() {
    let subject = PassthroughSubject<Int, CoreTestError>()
    var events: [TestSubscriber<Int, CoreTestError>.Event] = []
    let sink = Subscribers.Sink<Int, CoreTestError>(
      receiveCompletion: { events.append(.completion($0)) },
      receiveValue: { events.append(.value($0)) }
    )
    subject.subscribe(sink)
    subject.send(1)
    sink.receive(completion: .finished)
    _ = sink.receive(2)
    sink.receive(completion: .failure(.boom))
    subject.send(3)
    expectEqual(events, [.value(1), .completion(.finished)])
  }

  @Test func sinkCancelsASecondSubscription() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
    first.subscribe(sink)
    second.subscribe(sink)
    first.send(1)
    second.send(2)
    expectEqual(values, [1])
  }

  @Test func subjectSendsExactlyOneCompletion() {
    let subject = PassthroughSubject<Int, CoreTestError>()
    let recorder = TestSubscriber<Int, CoreTestError>()
    subject.subscribe(recorder)
    subject.send(completion: .failure(.boom))
    subject.send(completion: .finished)
    subject.send(1)
    expectEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
  }

  @Test func lateSubscriberToACompletedSubjectGetsTheCompletion() {
    let subject = PassthroughSubject<Int, CoreTestError>()
    subject.send(completion: .failure(.boom))
    let recorder = TestSubscriber<Int, CoreTestError>()
    subject.subscribe(recorder)
    expectEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
  }

  @Test func silenceAfterCancelAndCancelIsIdempotent() {
    let subject = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    var completions = 0
    let cancellable = subject.sink(receiveCompletion: { _ in completions += 1 }, receiveValue: { values.append($0) })
    subject.send(1)
    cancellable.cancel()
    cancellable.cancel()
    subject.send(2)
    subject.send(completion: .finished)
    expectEqual(values, [1])
    expectEqual(completions, 0)
  }

  @Test func cancelFromInsideReceiveStopsDelivery() {
    let recorder = TestSubscriber<Int, Never>(onValue: { recorder, value in
      if value == 3 { recorder.cancel() }
      return .none
    })
    (1...100).publisher.subscribe(recorder)
    expectEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3)])

    let subject = PassthroughSubject<Int, Never>()
    let fromSubject = TestSubscriber<Int, Never>(onValue: { recorder, value in
      if value == 2 { recorder.cancel() }
      return .none
    })
    subject.subscribe(fromSubject)
    for value in 1...5 { subject.send(value) }
    expectEqual(fromSubject.values, [1, 2])
  }

  @Test func pipelineIsFreedAfterCompletion() {
    weak var weakSubject: PassthroughSubject<Int, Never>?
    weak var weakOwner: Owner?
    do {
      let owner = Owner()
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      weakOwner = owner
      subject.map { $0 + 1 }.sink { owner.values.append($0) }.store(in: &owner.cancellables)
      subject.send(1)
      subject.send(completion: .finished)
      expectEqual(owner.values, [2])
    }
    #expect(weakSubject == nil)
    #expect(weakOwner == nil)
  }

  @Test func retainCycleThroughSelfIsBrokenByCancel() {
    weak var weakOwner: Owner?
    let subject = PassthroughSubject<Int, Never>()
    do {
      let owner = Owner()
      weakOwner = owner
      subject.sink { owner.values.append($0) }.store(in: &owner.cancellables)
      subject.send(1)
      for cancellable in owner.cancellables { cancellable.cancel() }
    }
    #expect(weakOwner == nil)
  }

  @Test func retainCycleThroughSelfIsBrokenByCompletion() {
    weak var weakOwner: Owner?
    let subject = PassthroughSubject<Int, Never>()
    do {
      let owner = Owner()
      weakOwner = owner
      subject.sink { owner.values.append($0) }.store(in: &owner.cancellables)
      subject.send(completion: .finished)
    }
    #expect(weakOwner == nil)
  }

  @Test func sinkAndSubscriptionAreFreedAfterCancel() {
    weak var weakSink: Subscribers.Sink<Int, Never>?
    weak var weakSubject: PassthroughSubject<Int, Never>?
    do {
      let subject = PassthroughSubject<Int, Never>()
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
      weakSink = sink
      weakSubject = subject
      subject.scan(0, +).subscribe(sink)
      subject.send(1)
      sink.cancel()
    }
    #expect(weakSink == nil)
    #expect(weakSubject == nil)
  }

  @Test func sequenceSubscriptionIsFreedAfterCancel() {
    weak var weakSink: Subscribers.Sink<Int, Never>?
    do {
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
      weakSink = sink
      let recorder = TestSubscriber<Int, Never>(initialDemand: .max(1))
      (1...3).publisher.subscribe(recorder)
      recorder.cancel()
      (1...3).publisher.subscribe(sink)
    }
    #expect(weakSink == nil)
  }

  /// A sequence's subscription lets go of the sequence once it has finished or been cancelled, even while its
  /// subscriber keeps it.
  @Test func aSequenceSubscriptionReleasesItsElementsAfterCompletionAndCancel() {
    final class Element {}
    weak var finished: Element?
    weak var cancelled: Element?
    var subscriptions: [any Subscription] = []
    func keeping(_ demand: Subscribers.Demand) -> AnySubscriber<Element, Never> {
      AnySubscriber(receiveSubscription: {
        subscriptions.append($0)
        $0.request(demand)
      })
    }
    do {
      let first = Element()
      finished = first
      [first].publisher.subscribe(keeping(.unlimited))
      let second = Element()
      cancelled = second
      [Element(), second].publisher.subscribe(keeping(.max(1)))
      subscriptions[1].cancel()
    }
    expectEqual(subscriptions.count, 2)
    #expect(finished == nil)
    #expect(cancelled == nil)
  }

  @Test func assignReleasesItsObjectAfterCompletionAndCancel() {
    final class Model {
      var value = 0
    }
    weak var weakModel: Model?
    let subject = PassthroughSubject<Int, Never>()
    do {
      let model = Model()
      weakModel = model
      let cancellable = subject.assign(to: \.value, on: model)
      subject.send(5)
      expectEqual(model.value, 5)
      subject.send(completion: .finished)
      _ = cancellable
    }
    #expect(weakModel == nil)

    let other = PassthroughSubject<Int, Never>()
    do {
      let model = Model()
      weakModel = model
      let cancellable = other.assign(to: \.value, on: model)
      other.send(7)
      cancellable.cancel()
      other.send(8)
      expectEqual(model.value, 7)
    }
    #expect(weakModel == nil)
  }
}
