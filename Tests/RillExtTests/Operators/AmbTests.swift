import Dispatch
import RillExt
import RillTestSupport
import RillTesting
import Synchronization
import Testing

private typealias Source = TestPublisher<Int, ExtTestError>

/// Subscribes a recording subscriber to `first.amb(second)` with two fresh test publishers.
private func race(
  initialDemand: Subscribers.Demand = .unlimited,
  onValue: ((TestSubscriber<Int, ExtTestError>, Int) -> Subscribers.Demand)? = nil
) -> (Source, Source, TestSubscriber<Int, ExtTestError>) {
  let first = Source()
  let second = Source()
  let subscriber = TestSubscriber<Int, ExtTestError>(initialDemand: initialDemand, onValue: onValue)
  first.amb(second).subscribe(subscriber)
  return (first, second, subscriber)
}

@Suite struct AmbTests {
  @Test func docMarbles() {
    #expect(TestScheduler.marbles("---1---2-|", "--a-b-----|") { $0.amb($1) } == "--a-b-----|")
    let scheduler = TestScheduler()
    let three = ["----1-|", "--a-b--|", "---x----|"].map { try! scheduler.marblePublisher($0, as: String.self) }
    let variadic = TestSubscriber<String, MarbleError>(scheduler: scheduler)
    three[0].amb(with: three[1], three[2]).subscribe(variadic)
    let collection = TestSubscriber<String, MarbleError>(scheduler: scheduler)
    three[0].amb(with: [three[1], three[2]]).subscribe(collection)
    let pair = ["---1-2-|", "--x-----|"].map { try! scheduler.marblePublisher($0, as: String.self) }
    let all = TestSubscriber<String, MarbleError>(scheduler: scheduler)
    pair.amb().subscribe(all)
    scheduler.run()
    expectEqual(variadic.marbles(), "--a-b--|")
    expectEqual(collection.marbles(), "--a-b--|")
    expectEqual(all.marbles(), "--x-----|")
  }

  @Test func theFirstToSendAValueWins() {
    let (first, second, subscriber) = race()
    second.send(1)
    second.send(2)
    first.send(6)
    second.send(8)
    expectEqual(subscriber.values, [1, 2, 8])
    #expect(first.cancelCount == 1 && second.cancelCount == 0)
    first.send(completion: .finished)
    #expect(!subscriber.isCompleted)
    second.send(completion: .failure(.other))
    expectEqual(subscriber.completion, .failure(.other))
    expectEqual(second.cancelCount, 0)
  }

  @Test func theFirstToCompleteWins() {
    let (first, second, subscriber) = race()
    first.send(completion: .failure(.upstream))
    second.send(1)
    expectEqual(subscriber.eventDescriptions, ["subscription", "failure(upstream)"])
    expectEqual(second.cancelCount, 1)

    // Both complete without a value; both never send.
    let finished = TestSubscriber<Int, Never>()
    Empty<Int, Never>().amb(Empty()).subscribe(finished)
    expectEqual(finished.eventDescriptions, ["subscription", "finished"])
    let waiting = TestSubscriber<Int, Never>()
    Empty<Int, Never>(completeImmediately: false).amb(Empty(completeImmediately: false)).subscribe(waiting)
    expectEqual(waiting.eventDescriptions, ["subscription"])
    let late = TestSubscriber<Int, Never>()
    Empty<Int, Never>(completeImmediately: false).append(0).amb(Empty().append(1)).subscribe(late)
    expectEqual(late.eventDescriptions, ["subscription", "value(1)", "finished"])
  }

  @Test func aSynchronousFirstWinsBeforeTheSecondIsSubscribed() {
    let second = Source()
    let subscriber = TestSubscriber<Int, ExtTestError>()
    Just(1).setFailureType(to: ExtTestError.self).amb(second).subscribe(subscriber)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
    expectEqual(second.subscriberCount, 0)
  }

  @Test func exactDemand() {
    // One value each to race, then what downstream asks for, less the value already asked for.
    let (first, second, subscriber) = race(initialDemand: .max(3))
    #expect(first.requestedDemands == [.max(1)] && second.requestedDemands == [.max(1)])
    // The rest of downstream's demand goes back with the winner's first value.
    expectEqual(second.send(1), .max(2))
    expectEqual(first.requestedDemands, [.max(1)])
    subscriber.request(.max(4))
    expectEqual(second.requestedDemands, [.max(1), .max(4)])

    // Demand returned from a delivery goes to the winner.
    let (_, winner, _) = race(initialDemand: .max(1), onValue: { _, _ in .max(2) })
    expectEqual(winner.send(1), .max(2))

    // Unlimited stays unlimited.
    let (_, unlimited, _) = race()
    expectEqual(unlimited.send(1), .unlimited)
  }

  @Test func theWinnersFirstValueWaitsForDemand() {
    let (first, second, subscriber) = race(initialDemand: .none)
    first.send(1)
    #expect(subscriber.values.isEmpty && second.cancelCount == 1)
    subscriber.request(.max(1))
    expectEqual(subscriber.values, [1])
    // The one value asked for was the race's.
    expectEqual(first.requestedDemands, [.max(1)])
    subscriber.request(.max(2))
    expectEqual(first.requestedDemands, [.max(1), .max(2)])

    // Demand given before the race, inside receive(subscription:), counts once the race is decided.
    let left = PassthroughSubject<Int, Never>()
    let right = PassthroughSubject<Int, Never>()
    let early = TestSubscriber<Int, Never>(initialDemand: .max(2))
    left.amb(right).subscribe(early)
    right.send(3)
    left.send(1)
    right.send(0)
    right.send(7)
    right.send(11)
    expectEqual(early.values, [3, 0])

    // A completion after the waiting value waits behind it.
    let (held, _, waiting) = race(initialDemand: .none)
    held.send(1)
    held.send(completion: .finished)
    expectEqual(waiting.eventDescriptions, ["subscription"])
    waiting.request(.max(1))
    expectEqual(waiting.eventDescriptions, ["subscription", "value(1)", "finished"])
  }

  /// As in CombineExt: the publishers are subscribed before downstream receives its subscription, so what they send
  /// from inside downstream's `receive(subscription:)` is raced and delivered as demand allows.
  @Test func eventsSentWhileDownstreamReceivesItsSubscription() {
    let left = PassthroughSubject<Int, Never>()
    let right = PassthroughSubject<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(
      initialDemand: .none,
      onSubscription: { _, subscription in
        subscription.request(.max(2))
        right.send(3)
        left.send(1)
        right.send(0)
        right.send(7)
        left.send(12)
      }
    )
    left.amb(right).subscribe(subscriber)
    expectEqual(subscriber.values, [3, 0])

    // An event sent while the publishers are subscribed waits for downstream's subscription, and its demand.
    let completed = TestSubscriber<Int, Never>()
    Empty<Int, Never>().amb(Just(1)).subscribe(completed)
    expectEqual(completed.eventDescriptions, ["subscription", "finished"])
    let held = TestSubscriber<Int, Never>(initialDemand: .none)
    Just(1).amb(Empty(completeImmediately: false)).subscribe(held)
    expectEqual(held.eventDescriptions, ["subscription"])
    held.request(.max(1))
    expectEqual(held.eventDescriptions, ["subscription", "value(1)", "finished"])
  }

  /// A completion sent from another thread while downstream is receiving its subscription waits until that call
  /// has returned: nothing reaches a subscriber before its subscription.
  @Test(.timeLimit(.minutes(1))) func aCompletionFromAnotherThreadWaitsForTheSubscription() {
    let first = PassthroughSubject<Int, ExtTestError>()
    let second = PassthroughSubject<Int, ExtTestError>()
    let sent = DispatchSemaphore(value: 0)
    let events = Mutex<[String]>([])
    first.amb(second).subscribe(
      AnySubscriber<Int, ExtTestError>(
        receiveSubscription: { subscription in
          events.withLock { $0.append("subscription") }
          subscription.request(.max(1))
          DispatchQueue.global().async {
            first.send(completion: .finished)
            sent.signal()
          }
          // Long enough for the completion to get here if nothing held it back; the order is checked below.
          _ = sent.wait(timeout: .now() + .milliseconds(50))
          events.withLock { $0.append("subscription returns") }
        },
        receiveCompletion: { _ in events.withLock { $0.append("completion") } }
      )
    )
    // Bounded: if the completion came early, the wait above took the signal.
    _ = sent.wait(timeout: .now() + .seconds(10))
    #expect(events.withLock { $0 } == ["subscription", "subscription returns", "completion"])
  }

  @Test func cancellation() {
    let (first, second, subscriber) = race()
    subscriber.cancel()
    #expect(first.cancelCount == 1 && second.cancelCount == 1)
    first.send(1)
    first.send(completion: .finished)
    expectEqual(subscriber.eventDescriptions, ["subscription"])

    let (winner, loser, decided) = race()
    winner.send(1)
    decided.cancel()
    #expect(winner.cancelCount == 1 && loser.cancelCount == 1)
    winner.send(2)
    expectEqual(decided.values, [1])

    // Both publishers are subscribed before downstream gets its subscription: cancelling inside
    // receive(subscription:) cancels both.
    let (left, right) = (Source(), Source())
    let early = TestSubscriber<Int, ExtTestError>(onSubscription: { subscriber, _ in subscriber.cancel() })
    left.amb(right).subscribe(early)
    #expect(left.cancelCount == 1 && right.cancelCount == 1)
    left.send(1)
    expectEqual(early.eventDescriptions, ["subscription"])

    // A subscription that comes after the race is over is cancelled.
    let (_, slow, _) = race()
    let extra = TestSubscription()
    slow.send(subscription: extra)
    #expect(extra.isCancelled)
  }

  @Test func reentrancy() {
    // The winner sends, and downstream cancels, from inside a delivery.
    let (first, second, subscriber) = race(onValue: { subscriber, value in
      if value == 2 { subscriber.cancel() }
      return .none
    })
    first.send(1)
    first.send(2)
    first.send(3)
    second.send(9)
    expectEqual(subscriber.values, [1, 2])

    // A synchronous winner that sends as soon as it is asked.
    let all = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.amb(Empty(completeImmediately: false)).subscribe(all)
    expectEqual(all.eventDescriptions, ["subscription", "value(1)", "value(2)", "value(3)", "finished"])

    // The first value held for demand is delivered from inside request, and requests from inside it.
    let source = Source()
    let requester = TestSubscriber<Int, ExtTestError>(
      initialDemand: .none,
      onValue: { subscriber, _ in
        subscriber.request(.max(1))
        return .none
      }
    )
    source.amb(Source()).subscribe(requester)
    source.send(1)
    requester.request(.max(1))
    source.send(2)
    expectEqual(requester.values, [1, 2])
    expectEqual(source.requestedDemands, [.max(1), .max(1), .max(1)])
  }

  @Test func memory() {
    func freed(_ drive: (Source, Source, TestSubscriber<Int, ExtTestError>) -> Void) -> Bool {
      weak var inner: AnyObject?
      do {
        let (first, second, subscriber) = race()
        inner = subscriber.subscription as AnyObject?
        drive(first, second, subscriber)
        first.releaseSubscribers()
        second.releaseSubscribers()
      }
      return inner == nil
    }
    #expect(freed { first, _, _ in first.send(completion: .finished) })
    #expect(
      freed { first, _, _ in
        first.send(1)
        first.send(completion: .failure(.upstream))
      }
    )
    #expect(freed { _, _, subscriber in subscriber.cancel() })
    #expect(
      freed { _, second, subscriber in
        second.send(1)
        subscriber.cancel()
      }
    )
  }

  @Test func collections() {
    let empty = TestSubscriber<Int, Never>()
    [AnyPublisher<Int, Never>]().amb().subscribe(empty)
    expectEqual(empty.eventDescriptions, ["subscription", "finished"])
    let one = PassthroughSubject<Int, Never>()
    let single = TestSubscriber<Int, Never>()
    [one].amb().subscribe(single)
    one.send(1)
    one.send(completion: .finished)
    expectEqual(single.eventDescriptions, ["subscription", "value(1)", "finished"])
    let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    let many = TestSubscriber<Int, Never>()
    subjects.amb().subscribe(many)
    subjects[1].send(2)
    subjects[0].send(1)
    subjects[2].send(3)
    subjects[1].send(4)
    subjects[1].send(completion: .finished)
    expectEqual(many.eventDescriptions, ["subscription", "value(2)", "value(4)", "finished"])
  }

  @Test func contract() {
    expectContract("amb, sequence") { [1, 2, 3].publisher.amb(Empty(completeImmediately: false)) }
    expectContract("amb, second wins") {
      Empty<Int, ExtTestError>(completeImmediately: false).amb(Fail(error: .other))
    }
    for demand in ContractDemand.standard {
      let first = PassthroughSubject<Int, ExtTestError>()
      let second = PassthroughSubject<Int, ExtTestError>()
      let report = PublisherContract.check(first.amb(second), demand: demand) { checker in
        second.send(1)
        first.send(9)
        second.send(2)
        checker.request(.max(1))
        second.send(3)
        second.send(completion: .finished)
      }
      #expect(report.isSatisfied, "amb, subjects, \(demand): \(report)")
    }
  }

  @Test func publicSurface() {
    let amb: Publishers.Amb<Just<Int>, Empty<Int, Never>> = Just(1).amb(Empty())
    expectEqual(amb.first, Just(1))
    let _: Publishers.Amb<Just<Int>, Just<Int>> = Publishers.Amb(first: Just(1), second: Just(2))
    let _: AnyPublisher<Int, Never> = Just(1).amb(with: Just(2), Just(3))
    let _: AnyPublisher<Int, Never> = Just(1).amb(with: [Just(2)])
    let _: AnyPublisher<Int, Never> = [Just(1)].amb()
    let (_, _, subscriber) = race()
    #expect(subscriber.subscription.map { String(describing: $0) } == "Amb.Subscription<Int, ExtTestError>")
  }
}
