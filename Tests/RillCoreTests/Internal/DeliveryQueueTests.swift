import Testing

@testable import RillCore

/// The drain loop's queue, call by call, without threads.
@Suite struct DeliveryQueueTests {
  @Test func thePusherOfAnIdleQueueDeliversAtOnce() {
    var queue = DeliveryQueue<String>()
    #expect(queue.push("a") == "a")
    #expect(queue.isDraining)
    #expect(queue.next() == nil)
    #expect(!queue.isDraining)
  }

  @Test func eventsPushedDuringADrainWaitInOrder() {
    var queue = DeliveryQueue<String>()
    #expect(queue.push("a") == "a")
    #expect(queue.push("b") == nil)
    #expect(queue.push("c") == nil)
    #expect(queue.next() == "b")
    #expect(queue.push("d") == nil)
    #expect(queue.next() == "c")
    #expect(queue.next() == "d")
    #expect(queue.next() == nil)
    #expect(queue.push("e") == "e")
  }

  @Test func removeAllEndsTheDrainAtItsNextStepAndLaterPushesAreDelivered() {
    var queue = DeliveryQueue<String>()
    _ = queue.push("a")
    _ = queue.push("b")
    // What it drops it hands back, to be released after unlocking.
    #expect(queue.removeAll().elements == ["b"])
    #expect(queue.push("failure") == nil)
    #expect(queue.next() == "failure")
    #expect(queue.next() == nil)
  }

  @Test func scheduledEventsAreReleasedOldestFirstWhicheverActionRuns() {
    var queue = DeliveryQueue<String>()
    queue.enqueue("a")
    queue.enqueue("b")
    queue.enqueue("c")
    #expect(queue.release() == "a")
    #expect(queue.release() == nil)
    #expect(queue.next() == "b")
    #expect(queue.next() == nil)
    #expect(queue.release() == "c")
    #expect(queue.next() == nil)
  }

  @Test func aPushBehindEnqueuedEventsReleasesTheOldest() {
    var queue = DeliveryQueue<String>()
    queue.enqueue("scheduled")
    #expect(queue.push("now") == "scheduled")
    #expect(queue.next() == nil)
    #expect(queue.release() == "now")
    #expect(queue.next() == nil)
  }

  @Test func actionsOfDroppedEventsFindNothingToRelease() {
    var queue = DeliveryQueue<String>()
    queue.enqueue("a")
    queue.enqueue("b")
    #expect(queue.removeAll().elements == ["a", "b"])
    #expect(queue.release() == nil)
    #expect(queue.release() == nil)
    #expect(!queue.isDraining)
  }

  @Test func manyEventsQueuedDuringOneDrainComeOutInOrder() {
    var queue = DeliveryQueue<Int>()
    #expect(queue.push(0) == 0)
    var delivered: [Int] = []
    for round in 0..<5 {
      for value in 1...100 { #expect(queue.push(round * 100 + value) == nil) }
      for _ in 0..<50 { delivered.append(queue.next()!) }
    }
    while let value = queue.next() { delivered.append(value) }
    #expect(delivered == Array(1...500))
  }
}
