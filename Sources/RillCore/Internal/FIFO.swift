/// A first-in, first-out queue that takes from the front without moving the rest each time: the one queue behind
/// the package's drain loops and buffers.
///
/// An element is released as soon as it is taken, not when the storage is next compacted. The storage is compacted
/// when the queue empties, and when the taken prefix is at least 64 elements and half the storage, so each
/// compaction moves fewer elements than were taken since the last one. Emptying keeps the storage, so a queue that
/// fills and empties again and again allocates only while it grows, unless it has grown past 1,024 elements, whose
/// memory it gives back.
@usableFromInline
package struct FIFO<Element> {
  /// `storage[head...]` are the queued elements, oldest first; the slots before `head` hold `nil`.
  @usableFromInline var storage: [Element?] = []
  @usableFromInline var head = 0

  @inlinable
  package init() {}

  @inlinable
  package init(_ elements: some Sequence<Element>) {
    storage = elements.map(Optional.some)
  }

  @inlinable
  package var isEmpty: Bool { head == storage.count }

  @inlinable
  package var count: Int { storage.count - head }

  /// The oldest element, if any.
  @inlinable
  package var first: Element? {
    isEmpty ? nil : storage[head]
  }

  /// The newest element, if any.
  @inlinable
  package var last: Element? {
    isEmpty ? nil : storage[storage.count - 1]
  }

  /// The queued elements, oldest first.
  @inlinable
  package var elements: [Element] {
    storage[head...].map { $0! }
  }

  @inlinable
  package mutating func append(_ element: Element) {
    storage.append(element)
  }

  /// Takes the oldest element; the queue must not be empty.
  @inlinable
  package mutating func removeFirst() -> Element {
    guard let element = storage[head].take() else {
      preconditionFailure("FIFO: removeFirst() on an empty queue")
    }
    head += 1
    if head == storage.count {
      removeAll()
    } else if head >= 64, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Takes every element, leaving the queue empty, for the caller to release after unlocking (WritingAnOperator.md,
  /// "Locks and threads").
  @inlinable
  package mutating func take() -> FIFO {
    var taken = FIFO()
    swap(&self, &taken)
    return taken
  }

  /// Drops every element; only for a queue whose elements have all been taken, or inside no lock.
  @inlinable
  package mutating func removeAll() {
    if storage.count == 1, storage.capacity <= 1_024 {
      // The common case of a queue that holds one element at a time, without the general path's cost.
      storage.removeLast()
    } else {
      storage.removeAll(keepingCapacity: storage.capacity <= 1_024)
    }
    head = 0
  }

  /// Drops the elements that `shouldBeRemoved` picks, keeping the others in order.
  @inlinable
  package mutating func removeAll(where shouldBeRemoved: (Element) -> Bool) {
    var kept: [Element?] = []
    for case let element? in storage[head...] where !shouldBeRemoved(element) {
      kept.append(element)
    }
    storage = kept
    head = 0
  }
}
