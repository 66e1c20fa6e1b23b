import RillTestSupport
import Testing

@testable import RillCore

/// The queue behind the drain loops and buffers, without threads.
@Suite struct FIFOTests {
  private final class Token {}

  @Test func takesElementsInTheOrderTheyCame() {
    var queue = FIFO<Int>()
    #expect(queue.isEmpty)
    #expect(queue.first == nil)
    for value in 1...3 { queue.append(value) }
    expectEqual(queue.count, 3)
    expectEqual(queue.first, 1)
    expectEqual(queue.removeFirst(), 1)
    queue.append(4)
    expectEqual(queue.elements, [2, 3, 4])
    expectEqual(queue.removeFirst(), 2)
    expectEqual(queue.removeFirst(), 3)
    expectEqual(queue.removeFirst(), 4)
    #expect(queue.isEmpty)
  }

  @Test func keepsTheOrderAcrossCompactions() {
    var queue = FIFO<Int>()
    var next = 0
    var taken: [Int] = []
    // Appends and takes in waves, so the taken prefix passes 64 elements and half the storage many times.
    for wave in 1...20 {
      for _ in 0..<(wave * 13) {
        queue.append(next)
        next += 1
      }
      for _ in 0..<(wave * 11) { taken.append(queue.removeFirst()) }
      // The taken prefix never stays both past 64 elements and half the storage.
      #expect(queue.head < 64 || queue.head * 2 < queue.storage.count)
    }
    while !queue.isEmpty { taken.append(queue.removeFirst()) }
    expectEqual(taken, Array(0..<next))
  }

  @Test func releasesAnElementAsSoonAsItIsTaken() {
    var queue = FIFO<Token>()
    weak var first: Token?
    do {
      let token = Token()
      first = token
      queue.append(token)
    }
    queue.append(Token())
    _ = queue.removeFirst()
    #expect(first == nil)
    expectEqual(queue.count, 1)
  }

  @Test func removeAllWhereKeepsTheOthersInOrder() {
    var queue = FIFO(1...10)
    _ = queue.removeFirst()
    queue.removeAll { $0.isMultiple(of: 3) }
    expectEqual(queue.elements, [2, 4, 5, 7, 8, 10])
    expectEqual(queue.removeFirst(), 2)
  }

  @Test func emptyingKeepsSmallStorageAndGivesBackLargeStorage() {
    var small = FIFO(0..<10)
    while !small.isEmpty { _ = small.removeFirst() }
    #expect(small.storage.capacity >= 10)

    var large = FIFO(0..<5_000)
    large.removeAll()
    #expect(large.isEmpty)
    #expect(large.storage.capacity < 5_000)
  }

  @Test func takeHandsBackEveryElementAndLeavesTheQueueEmpty() {
    var queue = FIFO([1, 2, 3])
    _ = queue.removeFirst()
    let taken = queue.take()
    expectEqual(taken.elements, [2, 3])
    #expect(queue.isEmpty)
    queue.append(4)
    expectEqual(queue.elements, [4])
  }
}
