import Foundation
import RillTestSupport
import Testing

@testable import RillCore

/// `@Published` and `ObservableObjectPublisher` deliver as subjects do in Combine: on the thread that changes the
/// property or calls `send()`, before it returns, nested when re-entrant, and one call at a time per subscriber.
@Suite(.timeLimit(.minutes(1))) struct PublishedDeliveryTests {
  final class Model: ObservableObject, @unchecked Sendable {
    @Published var count = 0
  }

  @Test func aPropertySetFromInsideASubscriberIsDeliveredNested() {
    let model = Model()
    var log: [String] = []
    let first = model.$count.sink { value in
      log.append("first \(value)")
      if value > 0, value < 3 { model.count = value + 1 }
    }
    let second = model.$count.sink { log.append("second \($0)") }
    model.count = 1
    expectEqual(log, ["first 0", "second 0", "first 1", "first 2", "first 3", "second 3", "second 2", "second 1"])
    withExtendedLifetime((first, second)) {}
  }

  /// As in Combine, the property stores a value once it has been delivered: subscribers read the old value, a set
  /// from inside the delivery is overwritten by the outer one, stored last, and the property and its publisher
  /// agree on the value kept.
  @Test func thePropertyAndItsPublisherAgreeAfterASetFromInsideADelivery() {
    let model = Model()
    var readInside: [Int] = []
    let first = model.$count.sink { value in
      readInside.append(model.count)
      if value == 1 { model.count = 5 }
    }
    model.count = 1
    var latest: Int?
    let late = model.$count.sink { latest = $0 }
    expectEqual(readInside, [0, 0, 0])
    expectEqual(model.count, 1)
    expectEqual(latest, 1)
    withExtendedLifetime((first, late)) {}
  }

  @Test func objectWillChangeFromInsideASubscriberIsDeliveredNested() {
    let publisher = ObservableObjectPublisher()
    var depth = 0
    var log: [String] = []
    let first = publisher.sink {
      depth += 1
      log.append("first at depth \(depth)")
      if depth < 3 { publisher.send() }
      depth -= 1
    }
    let second = publisher.sink { log.append("second at depth \(depth)") }
    publisher.send()
    #expect(
      log == [
        "first at depth 1", "first at depth 2", "first at depth 3", "second at depth 2", "second at depth 1",
        "second at depth 0",
      ]
    )
    withExtendedLifetime((first, second)) {}
  }

  @Test func objectWillChangeFromAnotherThreadWaitsForTheBusySubscriberAndRunsOnItsOwnThread() {
    let publisher = ObservableObjectPublisher()
    let inReceive = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let calls = StressLocked<[ObjectIdentifier]>([])
    let inside = StressLocked(0)
    let overlaps = StressLocked(0)
    let cancellable = publisher.sink {
      let entered = inside.withLock { count -> Int in
        count += 1
        return count
      }
      if entered > 1 { overlaps.withLock { $0 += 1 } }
      let isFirst = calls.withLock { calls -> Bool in
        calls.append(ObjectIdentifier(Thread.current))
        return calls.count == 1
      }
      if isFirst {
        inReceive.signal()
        release.wait()
      }
      inside.withLock { $0 -= 1 }
    }
    let threadA = StressLocked<ObjectIdentifier?>(nil)
    let threadB = StressLocked<ObjectIdentifier?>(nil)
    let callsSeenByB = StressLocked(0)
    let sentA = SubjectDeliveryTests.onThread {
      threadA.withLock { $0 = ObjectIdentifier(Thread.current) }
      publisher.send()
    }
    inReceive.wait()
    let sentB = SubjectDeliveryTests.onThread {
      threadB.withLock { $0 = ObjectIdentifier(Thread.current) }
      publisher.send()
      callsSeenByB.withLock { $0 = calls.withLock { $0.count } }
    }
    #expect(calls.withLock { $0.count } == 1)
    release.signal()
    sentA.wait()
    sentB.wait()
    #expect(calls.withLock { $0 } == [threadA.withLock { $0 }, threadB.withLock { $0 }])
    #expect(callsSeenByB.withLock { $0 } == 2)
    #expect(overlaps.withLock { $0 } == 0)
    withExtendedLifetime(cancellable) {}
  }

  @Test func aCancelledObjectWillChangeSubscriberIsNotCalledAgain() {
    let publisher = ObservableObjectPublisher()
    var count = 0
    var cancellable: AnyCancellable?
    cancellable = publisher.sink {
      count += 1
      cancellable?.cancel()
      publisher.send()
    }
    publisher.send()
    publisher.send()
    expectEqual(count, 1)
  }
}
