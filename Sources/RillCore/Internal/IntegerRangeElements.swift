/// The integers of a `Range<Int>` or `ClosedRange<Int>`, as `Publishers.Sequence` delivers them.
///
/// A range's own iterator checks, for every element, that its index is inside the range and that advancing it
/// does not overflow; in a delivery loop that calls out between elements the optimiser cannot drop those checks,
/// and in a pipeline such as `(0..<n).publisher.flatMap { Just($0) }.sink` they cost more than a simple operator
/// does. This iterator counts up to the end and checks nothing else.
///
/// `Element` is the publisher's output, which is `Int` whenever the initialiser succeeds; it is generic only so
/// that `SequenceSubscription` can name it as the subscriber's input.
@usableFromInline
struct IntegerRangeElements<Element>: Sequence {
  @usableFromInline let start: Int
  @usableFromInline let end: Int

  /// The integers of `elements` if it is a `Range<Int>`, or a `ClosedRange<Int>` that does not end at `Int.max`;
  /// `nil` for any other sequence.
  ///
  /// In code specialised for the sequence's type, the casts are decided at compile time.
  @inlinable
  init?(_ elements: some Sequence<Element>) {
    guard Element.self == Int.self else { return nil }
    if let range = elements as? Range<Int> {
      start = range.lowerBound
      end = range.upperBound
    } else if let range = elements as? ClosedRange<Int>, range.upperBound < Int.max {
      start = range.lowerBound
      end = range.upperBound + 1
    } else {
      return nil
    }
  }

  @inlinable
  func makeIterator() -> Iterator {
    Iterator(current: start, end: end)
  }

  @usableFromInline
  struct Iterator: IteratorProtocol {
    @usableFromInline var current: Int
    @usableFromInline let end: Int

    @inlinable
    init(current: Int, end: Int) {
      self.current = current
      self.end = end
    }

    @inlinable
    mutating func next() -> Element? {
      guard current < end else { return nil }
      let element = current as! Element
      current &+= 1
      return element
    }
  }
}
