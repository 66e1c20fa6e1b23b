// The arrays behind `Publishers.Sequence`'s eager `map` and `filter`, written in place.
//
// The standard library's `map` and `filter` append element by element, which checks the array's uniqueness and
// capacity each time and, for `filter`, regrows the buffer as it fills. These write into a buffer sized by
// `underestimatedCount` and fall back to appending for any elements beyond it; a sequence with contiguous storage
// (an array, a slice of one) is read straight from its buffer.

extension Sequence {
  /// `map`, written into a buffer sized by `underestimatedCount`.
  @inlinable
  func eagerMap<T>(_ transform: (Element) -> T) -> [T] {
    if let mapped = withContiguousStorageIfAvailable({ $0.eagerMapFromBuffer(transform) }) {
      return mapped
    }
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
    // An array (or any contiguous sequence) is read through its buffer: its iterator checks every index against a
    // count it reloads after each write to the result.
    if let filtered = withContiguousStorageIfAvailable({ $0.eagerFilterFromBuffer(isIncluded) }) {
      return filtered
    }
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
    return result.trimmedIfMostlyEmpty()
  }
}

extension UnsafeBufferPointer {
  /// `eagerMap` over a buffer: every element is read by index with no check beyond the loop's own.
  @inlinable
  func eagerMapFromBuffer<T>(_ transform: (Element) -> T) -> [T] {
    guard let base = baseAddress else { return [] }
    let total = count
    return [T](unsafeUninitializedCapacity: total) { buffer, count in
      let target = buffer.baseAddress.unsafelyUnwrapped
      while count < total {
        (target + count).initialize(to: transform(base[count]))
        count &+= 1
      }
    }
  }

  /// `eagerFilter` over a buffer: every element is read by index with no check beyond the loop's own.
  @inlinable
  func eagerFilterFromBuffer(_ isIncluded: (Element) -> Bool) -> [Element] {
    guard let base = baseAddress else { return [] }
    let total = count
    let result = [Element](unsafeUninitializedCapacity: total) { buffer, count in
      let target = buffer.baseAddress.unsafelyUnwrapped
      var index = 0
      while index < total {
        let element = base[index]
        if isIncluded(element) {
          (target + count).initialize(to: element)
          count &+= 1
        }
        index &+= 1
      }
    }
    return result.trimmedIfMostlyEmpty()
  }
}

extension Array {
  /// The array, copied to a buffer of its own size if it fills less than a third of its capacity.
  @inlinable
  func trimmedIfMostlyEmpty() -> [Element] {
    count < capacity / 3 ? withUnsafeBufferPointer { Array($0) } : self
  }
}
