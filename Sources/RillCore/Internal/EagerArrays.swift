// The arrays behind `Publishers.Sequence`'s eager `map` and `filter`, written in place.
//
// The standard library's `map` and `filter` append element by element, which checks the array's uniqueness and
// capacity each time and, for `filter`, regrows the buffer as it fills. These write into a buffer sized by
// `underestimatedCount` and fall back to appending for any elements beyond it.

extension Sequence {
  /// `map`, written into a buffer sized by `underestimatedCount`.
  @inlinable
  func eagerMap<T>(_ transform: (Element) -> T) -> [T] {
    var iterator = makeIterator()
    let expected = underestimatedCount
    var result = [T](unsafeUninitializedCapacity: expected) { buffer, count in
      while count < expected, let element = iterator.next() {
        (buffer.baseAddress.unsafelyUnwrapped + count).initialize(to: transform(element))
        count += 1
      }
    }
    while let element = iterator.next() {
      result.append(transform(element))
    }
    return result
  }

  /// `filter`, written into a buffer sized by `underestimatedCount` and copied to a smaller one if it ends up
  /// less than a third full, so the publisher never keeps more than three times the memory its elements need.
  @inlinable
  func eagerFilter(_ isIncluded: (Element) -> Bool) -> [Element] {
    var iterator = makeIterator()
    let expected = underestimatedCount
    var result = [Element](unsafeUninitializedCapacity: expected) { buffer, count in
      var seen = 0
      while seen < expected, let element = iterator.next() {
        seen += 1
        if isIncluded(element) {
          (buffer.baseAddress.unsafelyUnwrapped + count).initialize(to: element)
          count += 1
        }
      }
    }
    while let element = iterator.next() {
      if isIncluded(element) { result.append(element) }
    }
    if result.count < result.capacity / 3 {
      result = result.withUnsafeBufferPointer { Array($0) }
    }
    return result
  }
}
