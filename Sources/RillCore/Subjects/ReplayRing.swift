/// The latest `capacity` values, oldest first.
@usableFromInline
package struct ReplayRing<Element> {
  @usableFromInline
  let capacity: Int

  @usableFromInline
  var storage: [Element] = []

  /// Where the oldest value is once `storage` is full.
  @usableFromInline
  var start = 0

  @inlinable
  package init(capacity: Int) {
    self.capacity = capacity
  }

  @inlinable
  package var elements: [Element] {
    start == 0 ? storage : Array(storage[start...] + storage[..<start])
  }

  /// Keeps `element`; returns the value it pushes out, for the caller to release once it has unlocked.
  @inlinable
  package mutating func append(_ element: Element) -> Element? {
    guard capacity > 0 else { return nil }
    guard storage.count == capacity else {
      storage.append(element)
      return nil
    }
    let evicted = storage[start]
    storage[start] = element
    start = start + 1 == capacity ? 0 : start + 1
    return evicted
  }
}
