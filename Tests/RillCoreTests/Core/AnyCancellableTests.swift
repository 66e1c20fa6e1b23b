import RillCore
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
    #expect(count == 1)
  }

  @Test func cancelsOnDeinit() {
    var count = 0
    do {
      _ = AnyCancellable { count += 1 }
    }
    #expect(count == 1)
  }

  @Test func wrapsACancellable() {
    let counter = Counter()
    do {
      let cancellable = AnyCancellable(counter)
      cancellable.cancel()
    }
    #expect(counter.count == 1)
  }

  @Test func storesInSetAndArray() {
    var set = Set<AnyCancellable>()
    var array: [AnyCancellable] = []
    var count = 0
    AnyCancellable { count += 1 }.store(in: &set)
    AnyCancellable { count += 1 }.store(in: &array)
    Counter().store(in: &set)
    Counter().store(in: &array)
    #expect(set.count == 2)
    #expect(array.count == 2)
    set.removeAll()
    array.removeAll()
    #expect(count == 2)
  }

  @Test func hashableByIdentity() {
    let first = AnyCancellable {}
    let second = AnyCancellable {}
    #expect(first == first)
    #expect(first != second)
    #expect(Set([first, second, first]).count == 2)
  }
}
