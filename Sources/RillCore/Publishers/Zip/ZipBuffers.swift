/// The values a `zip` or `combineLatest` subscription holds for each of its upstreams, kept with their own types
/// so that no value is boxed.
///
/// `zip` queues every value and takes the oldest of each upstream; `combineLatest` keeps only the latest of each
/// upstream and copies them. Upstream `index` is the `index`-th stored queue. The subscriber of each upstream
/// stores its values (``FIFO/queue(_:)`` for `zip`, ``FIFO/replace(with:)`` for `combineLatest`), and takes out the
/// value a `combineLatest` upstream replaces, to release it after unlocking.
@usableFromInline
package protocol ZipBuffers {
  associatedtype Output

  /// Whether every upstream has at least one value stored.
  var everyUpstreamHasAValue: Bool { get }

  /// Whether upstream `index` has no value stored.
  func isEmpty(_ index: Int) -> Bool

  /// Removes the oldest value of every upstream and returns them together; every upstream must have one.
  mutating func removeFirst() -> Output

  /// The latest value of every upstream; every upstream must have one.
  func latest() -> Output

  /// Takes every stored value out, leaving the buffers empty, for the caller to release after unlocking.
  mutating func takeAll() -> Self
}

extension FIFO {
  /// Stores a value of `zip`, which queues every value: appends `element`, and replaces nothing.
  @inlinable
  mutating func queue(_ element: Element) -> Element? {
    append(element)
    return nil
  }

  /// Stores a value of `combineLatest`, which holds only the latest value: returns the one `element` replaces, for
  /// the caller to release after unlocking.
  @inlinable
  mutating func replace(with element: Element) -> Element? {
    guard !isEmpty else {
      append(element)
      return nil
    }
    var replaced: Element? = element
    swap(&storage[storage.count - 1], &replaced)
    return replaced
  }
}

/// The buffers of a `zip` or `combineLatest` of two upstreams.
@usableFromInline
struct ZipBuffers2<A, B>: ZipBuffers {
  @usableFromInline var a = FIFO<A>()
  @usableFromInline var b = FIFO<B>()

  @inlinable
  init() {}

  @inlinable
  var everyUpstreamHasAValue: Bool { !a.isEmpty && !b.isEmpty }

  @inlinable
  func isEmpty(_ index: Int) -> Bool { index == 0 ? a.isEmpty : b.isEmpty }

  @inlinable
  mutating func removeFirst() -> (A, B) { (a.removeFirst(), b.removeFirst()) }

  @inlinable
  func latest() -> (A, B) { (a.last!, b.last!) }

  @inlinable
  mutating func takeAll() -> Self {
    var taken = Self()
    swap(&self, &taken)
    return taken
  }
}

/// The buffers of a `zip` or `combineLatest` of three upstreams.
@usableFromInline
struct ZipBuffers3<A, B, C>: ZipBuffers {
  @usableFromInline var a = FIFO<A>()
  @usableFromInline var b = FIFO<B>()
  @usableFromInline var c = FIFO<C>()

  @inlinable
  init() {}

  @inlinable
  var everyUpstreamHasAValue: Bool { !a.isEmpty && !b.isEmpty && !c.isEmpty }

  @inlinable
  func isEmpty(_ index: Int) -> Bool {
    switch index {
    case 0: a.isEmpty
    case 1: b.isEmpty
    default: c.isEmpty
    }
  }

  @inlinable
  mutating func removeFirst() -> (A, B, C) { (a.removeFirst(), b.removeFirst(), c.removeFirst()) }

  @inlinable
  func latest() -> (A, B, C) { (a.last!, b.last!, c.last!) }

  @inlinable
  mutating func takeAll() -> Self {
    var taken = Self()
    swap(&self, &taken)
    return taken
  }
}

/// The buffers of a `zip` or `combineLatest` of four upstreams.
@usableFromInline
struct ZipBuffers4<A, B, C, D>: ZipBuffers {
  @usableFromInline var a = FIFO<A>()
  @usableFromInline var b = FIFO<B>()
  @usableFromInline var c = FIFO<C>()
  @usableFromInline var d = FIFO<D>()

  @inlinable
  init() {}

  @inlinable
  var everyUpstreamHasAValue: Bool { !a.isEmpty && !b.isEmpty && !c.isEmpty && !d.isEmpty }

  @inlinable
  func isEmpty(_ index: Int) -> Bool {
    switch index {
    case 0: a.isEmpty
    case 1: b.isEmpty
    case 2: c.isEmpty
    default: d.isEmpty
    }
  }

  @inlinable
  mutating func removeFirst() -> (A, B, C, D) {
    (a.removeFirst(), b.removeFirst(), c.removeFirst(), d.removeFirst())
  }

  @inlinable
  func latest() -> (A, B, C, D) { (a.last!, b.last!, c.last!, d.last!) }

  @inlinable
  mutating func takeAll() -> Self {
    var taken = Self()
    swap(&self, &taken)
    return taken
  }
}

/// The buffers of a `zip` or `combineLatest` of any number of upstreams of one type, whose output is an array.
///
/// It counts the upstreams with nothing stored, so that a value finds out whether an output is complete in constant
/// time however many upstreams there are.
@usableFromInline
package struct ZipBuffersArray<Input>: ZipBuffers {
  @usableFromInline var queues: [FIFO<Input>]
  /// The number of upstreams with no value stored.
  @usableFromInline var emptyCount: Int

  /// Empty buffers for `count` upstreams.
  @inlinable
  package init(count: Int) {
    queues = Array(repeating: FIFO(), count: count)
    emptyCount = count
  }

  /// Stores a value of upstream `index` for `zip`, which queues every value.
  @inlinable
  package mutating func queue(_ value: Input, at index: Int) -> Input? {
    if queues[index].isEmpty { emptyCount -= 1 }
    return queues[index].queue(value)
  }

  /// Stores a value of upstream `index` for `combineLatest`, which holds only the latest value; returns the one it
  /// replaces, for the caller to release after unlocking.
  @inlinable
  package mutating func replace(_ value: Input, at index: Int) -> Input? {
    if queues[index].isEmpty { emptyCount -= 1 }
    return queues[index].replace(with: value)
  }

  @inlinable
  package var everyUpstreamHasAValue: Bool { emptyCount == 0 }

  @inlinable
  package func isEmpty(_ index: Int) -> Bool { queues[index].isEmpty }

  @inlinable
  package mutating func removeFirst() -> [Input] {
    var output: [Input] = []
    output.reserveCapacity(queues.count)
    for index in queues.indices {
      output.append(queues[index].removeFirst())
      if queues[index].isEmpty { emptyCount += 1 }
    }
    return output
  }

  @inlinable
  package func latest() -> [Input] {
    queues.map { queue in
      guard let latest = queue.last else { preconditionFailure("ZipBuffersArray: an upstream has no value") }
      return latest
    }
  }

  @inlinable
  package mutating func takeAll() -> Self {
    var taken = Self(count: queues.count)
    swap(&self, &taken)
    return taken
  }
}
