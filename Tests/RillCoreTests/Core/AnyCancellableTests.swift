import RillCore
import RillTestSupport
import Testing

@Suite struct AnyCancellableTests {
  private final class Counter: Cancellable, @unchecked Sendable {
    var count = 0
    func cancel() { count += 1 }
  }

  @Test func cancelsOnceWhenCancelledTwice() {
    var count = 0
    let cancellable = AnyCancellable { count += 1 }
    cancellable.cancel()
    cancellable.cancel()
    expectEqual(count, 1)
  }

  @Test func cancelsOnDeinit() {
    var count = 0
    do {
      _ = AnyCancellable { count += 1 }
    }
    expectEqual(count, 1)
  }

  @Test func wrapsACancellable() {
    let counter = Counter()
    do {
      let cancellable = AnyCancellable(counter)
      cancellable.cancel()
    }
    expectEqual(counter.count, 1)
  }

  @Test func storesInSetAndArray() {
    var set = Set<AnyCancellable>()
    var array: [AnyCancellable] = []
    var count = 0
    AnyCancellable { count += 1 }.store(in: &set)
    AnyCancellable { count += 1 }.store(in: &array)
    Counter().store(in: &set)
    Counter().store(in: &array)
    expectEqual(set.count, 2)
    expectEqual(array.count, 2)
    set.removeAll()
    array.removeAll()
    expectEqual(count, 2)
  }

  @Test func cancelFromInsideTheActionReturnsAtOnce() {
    var count = 0
    let holder = StressLocked<AnyCancellable?>(nil)
    let cancellable = AnyCancellable {
      count += 1
      holder.withLock { $0 }?.cancel()
    }
    holder.withLock { $0 = cancellable }
    cancellable.cancel()
    expectEqual(count, 1)
  }

  /// Cancellables share a few locks: an action that cancels others, whichever lock they use, runs after unlocking.
  @Test func actionsThatCancelOtherCancellablesDoNotDeadlock() {
    var cancelled: [Int] = []
    var chain: [AnyCancellable] = []
    for index in 0..<500 {
      let next = chain.last
      chain.append(
        AnyCancellable {
          cancelled.append(index)
          next?.cancel()
        }
      )
    }
    chain.last?.cancel()
    expectEqual(cancelled, Array((0..<500).reversed()))
  }

  @Test(.tags(.stress)) func concurrentCancelsRunTheActionOnce() {
    let rounds = StressThreads.scaled(2_000)
    let runs = StressLocked(0)
    let cancellables = (0..<rounds).map { _ in AnyCancellable { runs.withLock { $0 += 1 } } }
    let shared = StressUnchecked(cancellables)
    #expect(StressThreads.run(4) { _ in for cancellable in shared.value { cancellable.cancel() } })
    #expect(runs.withLock { $0 } == rounds)
  }

  @Test func hashableByIdentity() {
    let first = AnyCancellable {}
    let second = AnyCancellable {}
    expectEqual(first, first)
    #expect(first != second)
    expectEqual(Set([first, second, first]).count, 2)
  }
}
