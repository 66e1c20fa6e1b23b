import Foundation
import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

/// Combine's delivery model in `switchToLatest`: a value of the current child that finds demand is delivered on the
/// thread that sent it, before the child's `receive` returns; one from another thread waits while downstream is
/// busy; one that finds no demand is dropped at once; a completion waits for the value in flight; nothing starts
/// after a cancel that has returned.
@Suite(.timeLimit(.minutes(1))) struct SwitchToLatestDeliveryTests {
  typealias Child = TestPublisher<String, CombiningError>
  typealias Source = TestPublisher<Child, CombiningError>
  typealias Downstream = AnySubscriber<String, CombiningError>

  /// A `switchToLatest` whose current child is `child`, subscribed by a downstream that blocks inside `receive("a")`
  /// until released, then returns `more`.
  final class Pipeline: @unchecked Sendable {
    let upstream = Source()
    let child = Child()
    let log = DeliveryLog()
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private let subscription = StressLocked<(any Subscription)?>(nil)

    init(initialDemand: Subscribers.Demand, more: Subscribers.Demand = .none) {
      let (log, inReceive, release, subscription) = (log, inReceive, release, subscription)
      upstream.switchToLatest().subscribe(
        Downstream(
          receiveSubscription: { received in
            subscription.withLock { $0 = received }
            received.request(initialDemand)
          },
          receiveValue: { value in
            log.record(value)
            guard value == "a" else { return .none }
            inReceive.signal()
            release.wait()
            log.record("returned a")
            return more
          },
          receiveCompletion: { completion in log.record(completion == .finished ? "finished" : "failure") }
        )
      )
      upstream.send(child)
    }

    var downstreamSubscription: any Subscription { subscription.withLock { $0! } }

    /// The demand no value has taken yet.
    var outstandingDemand: Subscribers.Demand {
      (downstreamSubscription as! Publishers.SwitchToLatest<Child, Source>.Inner<Downstream>).outstandingDemand
    }

    /// Sends "a" on a new thread and waits until downstream is inside `receive("a")`.
    func blockInA() -> (done: DispatchSemaphore, thread: StressLocked<ObjectIdentifier?>) {
      let sent = onNewThread { [child] in _ = child.send("a") }
      inReceive.wait()
      return sent
    }
  }

  @Test func aValueFromAnotherThreadWaitsForTheBusySubscriberThenArrivesOnItsOwnThread() {
    let pipe = Pipeline(initialDemand: .max(2))
    let (sentA, threadA) = pipe.blockInA()
    let seenByB = StressLocked<[String]>([])
    let (sentB, threadB) = onNewThread { [child = pipe.child, log = pipe.log] in
      _ = child.send("b")
      // When the child's call returns, its value has been delivered.
      seenByB.withLock { $0 = log.events }
    }
    // "b" took the second demand at once and waits for "a" to return.
    #expect(waitUntil { pipe.outstandingDemand == .none })
    expectEqual(pipe.log.events, ["a"])
    pipe.release.signal()
    sentA.wait()
    sentB.wait()
    expectEqual(pipe.log.events, ["a", "returned a", "b"])
    #expect(seenByB.withLock { $0 } == ["a", "returned a", "b"])
    #expect(pipe.log.thread(of: "a") == threadA.withLock { $0 })
    #expect(pipe.log.thread(of: "b") == threadB.withLock { $0 })
  }

  /// Demand is judged when a value arrives: one that finds none is dropped at once, even if the busy subscriber
  /// returns more afterwards (Combine traps on it).
  @Test func aValueWithoutDemandIsDroppedAtOnceEvenIfTheBusySubscriberReturnsMore() {
    let pipe = Pipeline(initialDemand: .max(1), more: .max(1))
    let (sentA, _) = pipe.blockInA()
    expectEqual(pipe.child.send("b"), .none)
    pipe.release.signal()
    sentA.wait()
    expectEqual(pipe.log.events, ["a", "returned a"])
    // The demand "a" returned went back to the child and is there for the next value.
    expectEqual(pipe.child.send("c"), .none)
    expectEqual(pipe.log.events, ["a", "returned a", "c"])
  }

  /// A failure from another thread waits for the value in flight, then is delivered on its own thread.
  @Test func aFailureFromAnotherThreadWaitsForTheValueInFlight() {
    let pipe = Pipeline(initialDemand: .unlimited)
    let (sentA, _) = pipe.blockInA()
    let (failed, threadB) = onNewThread { [child = pipe.child] in child.send(completion: .failure(.boom)) }
    #expect(waitUntil { pipe.upstream.isCancelled })
    expectEqual(pipe.log.events, ["a"])
    pipe.release.signal()
    sentA.wait()
    failed.wait()
    expectEqual(pipe.log.events, ["a", "returned a", "failure"])
    #expect(pipe.log.thread(of: "failure") == threadB.withLock { $0 })
  }

  /// A value that took its demand and waits for the busy subscriber follows no failure of its child.
  @Test func aValueWaitingForTheSubscriberIsDeliveredBeforeTheChildsFailureOrNotAtAll() {
    let pipe = Pipeline(initialDemand: .max(2))
    let (sentA, _) = pipe.blockInA()
    let (sentB, _) = onNewThread { [child = pipe.child] in _ = child.send("b") }
    #expect(waitUntil { pipe.outstandingDemand == .none })
    let (failed, _) = onNewThread { [child = pipe.child] in child.send(completion: .failure(.boom)) }
    #expect(waitUntil { pipe.upstream.isCancelled })
    pipe.release.signal()
    sentA.wait()
    sentB.wait()
    failed.wait()
    let events = pipe.log.events
    #expect(events == ["a", "returned a", "b", "failure"] || events == ["a", "returned a", "failure"])
  }

  /// A value that took its demand and waits for the busy subscriber is not delivered once a cancel has returned.
  @Test func aValueWaitingForTheSubscriberIsDroppedAfterACancel() {
    let pipe = Pipeline(initialDemand: .max(2))
    let (sentA, _) = pipe.blockInA()
    let (sentB, _) = onNewThread { [child = pipe.child] in #expect(child.send("b") == .none) }
    #expect(waitUntil { pipe.outstandingDemand == .none })
    pipe.downstreamSubscription.cancel()
    pipe.release.signal()
    sentA.wait()
    sentB.wait()
    expectEqual(pipe.log.events, ["a", "returned a"])
  }

  /// As in Combine, a value and a completion sent from inside `receive(_:)` are delivered at once, nested.
  @Test func aValueAndAFinishFromInsideReceiveAreDeliveredNested() {
    let upstream = Source()
    let child = Child()
    var log: [String] = []
    upstream.switchToLatest().subscribe(
      Downstream(
        receiveSubscription: { $0.request(.unlimited) },
        receiveValue: { value in
          log.append("enter \(value)")
          if value == "a" {
            child.send("b")
            upstream.send(completion: .finished)
            child.send(completion: .finished)
          }
          log.append("leave \(value)")
          return .none
        },
        receiveCompletion: { _ in log.append("finished") }
      )
    )
    upstream.send(child)
    child.send("a")
    expectEqual(log, ["enter a", "enter b", "leave b", "finished", "leave a"])
  }
}
