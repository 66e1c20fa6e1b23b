import RillTestSupport
import Testing

@testable import RillCore

/// The drain loop's queue, call by call, without threads.
@Suite struct DeliveryQueueTests {
  @Test func thePusherOfAnIdleQueueDeliversAtOnce() {
    var queue = DeliveryQueue<String>()
    expectEqual(queue.push("a"), "a")
    #expect(queue.isDraining)
    #expect(queue.next() == nil)
    #expect(!queue.isDraining)
  }

  @Test func eventsPushedDuringADrainWaitInOrder() {
    var queue = DeliveryQueue<String>()
    expectEqual(queue.push("a"), "a")
    #expect(queue.push("b") == nil)
    #expect(queue.push("c") == nil)
    expectEqual(queue.next(), "b")
    #expect(queue.push("d") == nil)
    expectEqual(queue.next(), "c")
    expectEqual(queue.next(), "d")
    #expect(queue.next() == nil)
    expectEqual(queue.push("e"), "e")
  }

  @Test func removeAllEndsTheDrainAtItsNextStepAndLaterPushesAreDelivered() {
    var queue = DeliveryQueue<String>()
    _ = queue.push("a")
    _ = queue.push("b")
    // What it drops it hands back, to be released after unlocking.
    expectEqual(queue.removeAll().elements, ["b"])
    #expect(queue.push("failure") == nil)
    expectEqual(queue.next(), "failure")
    #expect(queue.next() == nil)
  }

  @Test func scheduledEventsAreReleasedOldestFirstWhicheverActionRuns() {
    var queue = DeliveryQueue<String>()
    queue.enqueue("a")
    queue.enqueue("b")
    queue.enqueue("c")
    expectEqual(queue.release(), "a")
    #expect(queue.release() == nil)
    expectEqual(queue.next(), "b")
    #expect(queue.next() == nil)
    expectEqual(queue.release(), "c")
    #expect(queue.next() == nil)
  }

  @Test func aPushBehindEnqueuedEventsReleasesTheOldest() {
    var queue = DeliveryQueue<String>()
    queue.enqueue("scheduled")
    expectEqual(queue.push("now"), "scheduled")
    #expect(queue.next() == nil)
    expectEqual(queue.release(), "now")
    #expect(queue.next() == nil)
  }

  @Test func actionsOfDroppedEventsFindNothingToRelease() {
    var queue = DeliveryQueue<String>()
    queue.enqueue("a")
    queue.enqueue("b")
    expectEqual(queue.removeAll().elements, ["a", "b"])
    #expect(queue.release() == nil)
    #expect(queue.release() == nil)
    #expect(!queue.isDraining)
  }

  @Test func manyEventsQueuedDuringOneDrainComeOutInOrder() {
    var queue = DeliveryQueue<Int>()
    expectEqual(queue.push(0), 0)
    var delivered: [Int] = []
    for round in 0..<5 {
      for value in 1...100 { #expect(queue.push(round * 100 + value) == nil) }
      for _ in 0..<50 { delivered.append(queue.next()!) }
    }
    while let value = queue.next() { delivered.append(value) }
    expectEqual(delivered, Array(1...500))
  }
}
