import Foundation
import RillTestSupport
import RillTesting
import Testing

@testable import RillCore

/// Combine's delivery model in `flatMap` and `merge`: a child's value that finds demand is delivered on the thread
/// that sent it, before the child's `receive` returns; one from another thread waits while downstream is busy; one
/// that finds no demand is buffered and the child's call returns at once; a completion waits for the value in
/// flight; nothing starts after a cancel that has returned.
@Suite(.timeLimit(.minutes(1))) struct MergingDeliveryTests {
  typealias Child = TestPublisher<String, CombiningError>
  typealias Downstream = AnySubscriber<String, CombiningError>

  /// A `flatMap` or a `merge` of three children, subscribed by a downstream that blocks inside `receive("a")` until
  /// released, then returns `more`.
  final class Pipeline: @unchecked Sendable {
    let children = (0..<3).map { _ in Child() }
    let log = DeliveryLog()
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private let subscription = StressLocked<(any Subscription)?>(nil)

    init(merge: Bool, initialDemand: Subscribers.Demand, more: Subscribers.Demand = .none) {
      let (log, inReceive, release, subscription) = (log, inReceive, release, subscription)
      let downstream = Downstream(
        receiveSubscription: { received in
          subscription.withLock { $0 = received }
          if initialDemand > 0 { received.request(initialDemand) }
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
      if merge {
        Publishers.MergeMany(children).subscribe(downstream)
      } else {
        let upstream = TestPublisher<Int, CombiningError>()
        let children = children
        upstream.flatMap { children[$0] }.subscribe(downstream)
        for index in children.indices { upstream.send(index) }
      }
    }

    var downstreamSubscription: any Subscription { subscription.withLock { $0! } }

    /// The values that have taken their demand and not returned from downstream yet.
    var deliveriesInProgress: Int {
      let merging = downstreamSubscription as! MergingSubscription<Downstream>
      return merging.machine.withLock { $0.deliveriesInProgress }
    }

    /// Sends "a" from child 0 on a new thread and waits until downstream is inside `receive("a")`.
    func blockInA() -> (done: DispatchSemaphore, thread: StressLocked<ObjectIdentifier?>) {
      let sent = onNewThread { [children] in _ = children[0].send("a") }
      inReceive.wait()
      return sent
    }
  }

  @Test(arguments: [false, true]) func aValueFromAnotherThreadWaitsForTheBusySubscriberThenArrivesOnItsOwnThread(
    merge: Bool
  ) {
    let pipe = Pipeline(merge: merge, initialDemand: .max(2))
    let (sentA, threadA) = pipe.blockInA()
    let returned = StressLocked<(Subscribers.Demand, [String])?>(nil)
    let (sentB, threadB) = onNewThread { [children = pipe.children, log = pipe.log] in
      let demand = children[1].send("b")
      // When the child's call returns, its value has been delivered.
      returned.withLock { $0 = (demand, log.events) }
    }
    // "b" took the second demand at once and waits for "a" to return.
    #expect(waitUntil { pipe.deliveriesInProgress == 2 })
    expectEqual(pipe.log.events, ["a"])
    pipe.release.signal()
    sentA.wait()
    sentB.wait()
    expectEqual(pipe.log.events, ["a", "returned a", "b"])
    #expect(returned.withLock { $0?.0 } == .max(1))
    #expect(returned.withLock { $0?.1 } == ["a", "returned a", "b"])
    #expect(pipe.log.thread(of: "a") == threadA.withLock { $0 })
    #expect(pipe.log.thread(of: "b") == threadB.withLock { $0 })
  }

  /// A value that finds no demand is buffered and its child's call returns at once.
  ///
  /// The demand downstream then returns from the busy call brings it, on that call's thread; Combine leaves it
  /// buffered until the next request.
  @Test(arguments: [false, true]) func aValueWithoutDemandIsBufferedAndTheChildReturnsAtOnce(merge: Bool) {
    let pipe = Pipeline(merge: merge, initialDemand: .max(1), more: .max(1))
    let (sentA, threadA) = pipe.blockInA()
    let (sentB, _) = onNewThread { [children = pipe.children] in #expect(children[1].send("b") == .none) }
    sentB.wait()
    expectEqual(pipe.log.events, ["a"])
    expectEqual(pipe.children[1].requestedDemands, [.max(1)])
    pipe.release.signal()
    sentA.wait()
    expectEqual(pipe.log.events, ["a", "returned a", "b"])
    #expect(pipe.log.thread(of: "b") == threadA.withLock { $0 })
    // The buffered value's child is asked for one more once it has been delivered.
    expectEqual(pipe.children[1].requestedDemands, [.max(1), .max(1)])
  }

  /// A request delivers the buffered values on its own thread, before it returns.
  @Test(arguments: [false, true]) func aRequestDeliversTheBufferOnItsThread(merge: Bool) {
    let pipe = Pipeline(merge: merge, initialDemand: .none)
    expectEqual(pipe.children[0].send("x"), .none)
    expectEqual(pipe.children[1].send("y"), .none)
    let subscription = StressUnchecked(pipe.downstreamSubscription)
    let seen = StressLocked<[String]>([])
    let (requested, thread) = onNewThread { [log = pipe.log] in
      subscription.value.request(.max(2))
      seen.withLock { $0 = log.events }
    }
    requested.wait()
    #expect(seen.withLock { $0 } == ["x", "y"])
    #expect(pipe.log.thread(of: "x") == thread.withLock { $0 })
    #expect(pipe.log.thread(of: "y") == thread.withLock { $0 })
  }

  /// As in Combine, a request made while downstream is busy only adds its demand; the busy call delivers the buffer
  /// once it returns.
  @Test(arguments: [false, true]) func aRequestWhileDownstreamIsBusyOnlyAddsDemand(merge: Bool) {
    let pipe = Pipeline(merge: merge, initialDemand: .max(1))
    let (sentA, threadA) = pipe.blockInA()
    expectEqual(pipe.children[1].send("b"), .none)
    pipe.downstreamSubscription.request(.max(1))
    expectEqual(pipe.log.events, ["a"])
    pipe.release.signal()
    sentA.wait()
    expectEqual(pipe.log.events, ["a", "returned a", "b"])
    #expect(pipe.log.thread(of: "b") == threadA.withLock { $0 })
  }

  /// A failure from another thread cancels the other children at once, then waits for the value in flight, and is
  /// delivered on its own thread.
  @Test(arguments: [false, true]) func aFailureFromAnotherThreadWaitsForTheValueInFlight(merge: Bool) {
    let pipe = Pipeline(merge: merge, initialDemand: .unlimited)
    let (sentA, _) = pipe.blockInA()
    let (failed, threadB) = onNewThread { [children = pipe.children] in
      children[1].send(completion: .failure(.boom))
    }
    #expect(waitUntil { pipe.children[0].isCancelled })
    expectEqual(pipe.log.events, ["a"])
    pipe.release.signal()
    sentA.wait()
    failed.wait()
    expectEqual(pipe.log.events, ["a", "returned a", "failure"])
    #expect(pipe.log.thread(of: "failure") == threadB.withLock { $0 })
  }

  /// A value that took its demand and waits for the busy subscriber is not delivered once a cancel has returned.
  @Test(arguments: [false, true]) func aValueWaitingForTheSubscriberIsDroppedAfterACancel(merge: Bool) {
    let pipe = Pipeline(merge: merge, initialDemand: .max(2))
    let (sentA, _) = pipe.blockInA()
    let (sentB, _) = onNewThread { [children = pipe.children] in #expect(children[1].send("b") == .none) }
    #expect(waitUntil { pipe.deliveriesInProgress == 2 })
    pipe.downstreamSubscription.cancel()
    pipe.release.signal()
    sentA.wait()
    sentB.wait()
    expectEqual(pipe.log.events, ["a", "returned a"])
  }

  /// A merge delivers no value after its completion: a value that waited for the subscriber while another child's
  /// failure was decided is delivered before the failure or not at all.
  @Test func aMergeDeliversNothingAfterItsFailure() {
    let pipe = Pipeline(merge: true, initialDemand: .max(2))
    let (sentA, _) = pipe.blockInA()
    let (sentB, _) = onNewThread { [children = pipe.children] in _ = children[1].send("b") }
    #expect(waitUntil { pipe.deliveriesInProgress == 2 })
    let (failed, _) = onNewThread { [children = pipe.children] in children[2].send(completion: .failure(.boom)) }
    #expect(waitUntil { pipe.children[1].isCancelled })
    pipe.release.signal()
    sentA.wait()
    sentB.wait()
    failed.wait()
    let events = pipe.log.events
    #expect(events == ["a", "returned a", "b", "failure"] || events == ["a", "returned a", "failure"])
  }

  /// As in Combine, a value sent from inside `receive(_:)` is delivered at once, nested in that call.
  @Test(arguments: [false, true]) func aValueFromInsideReceiveIsDeliveredNested(merge: Bool) {
    let children = (0..<2).map { _ in Child() }
    var log: [String] = []
    let downstream = Downstream(
      receiveSubscription: { $0.request(.unlimited) },
      receiveValue: { value in
        log.append("enter \(value)")
        if value == "a" { #expect(children[1].send("b") == .none) }
        log.append("leave \(value)")
        return .none
      },
      receiveCompletion: { _ in }
    )
    if merge {
      children[0].merge(with: children[1]).subscribe(downstream)
    } else {
      [0, 1].publisher.setFailureType(to: CombiningError.self).flatMap { children[$0] }.subscribe(downstream)
    }
    children[0].send("a")
    expectEqual(log, ["enter a", "enter b", "leave b", "leave a"])
  }
}
