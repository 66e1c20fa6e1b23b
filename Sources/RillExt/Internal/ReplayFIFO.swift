/// A first-in, first-out queue that removes from the front without moving the rest every time.
///
/// Emptying it keeps its storage, so a queue that fills and empties again and again allocates only while it grows.
@usableFromInline
struct ReplayFIFO<Element> {
  @usableFromInline
  var storage: [Element]

  @usableFromInline
  var head = 0

  @inlinable
  init(_ elements: [Element]) {
    storage = elements
  }

  @inlinable
  var isEmpty: Bool { head == storage.count }

  @inlinable
  var count: Int { storage.count - head }

  @inlinable
  mutating func append(_ element: Element) {
    storage.append(element)
  }

  @inlinable
  mutating func removeFirst() -> Element {
    let element = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 16 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }
}
