/// The values a `zip` or `combineLatest` subscription holds for each of its upstreams, kept with their own types
/// so that no value is boxed.
///
/// `zip` queues every value and takes the oldest of each upstream; `combineLatest` keeps only the latest of each
/// upstream and copies them. Upstream `index` is the `index`-th stored queue.
@usableFromInline
package protocol ZipBuffers {
  associatedtype Output

  /// Whether every upstream has at least one value stored.
  var everyUpstreamHasAValue: Bool { get }

  /// Whether upstream `index` has no value stored.
  func isEmpty(_ index: Int) -> Bool

  /// Drops all but the latest value of upstream `index`.
  mutating func keepLatest(_ index: Int)

  /// Removes the oldest value of every upstream and returns them together; every upstream must have one.
  mutating func removeFirst() -> Output

  /// The latest value of every upstream; every upstream must have one.
  func latest() -> Output

  /// Drops every stored value.
  mutating func removeAll()
}

extension Array {
  @inlinable
  mutating func zipKeepLatest() {
    if count > 1 { removeFirst(count - 1) }
  }
}

/// The buffers of a `zip` or `combineLatest` of two upstreams.
@usableFromInline
struct ZipBuffers2<A, B>: ZipBuffers {
  @usableFromInline var a: [A] = []
  @usableFromInline var b: [B] = []

  @inlinable
  init() {}

  @inlinable
  var everyUpstreamHasAValue: Bool { !a.isEmpty && !b.isEmpty }

  @inlinable
  func isEmpty(_ index: Int) -> Bool { index == 0 ? a.isEmpty : b.isEmpty }

  @inlinable
  mutating func keepLatest(_ index: Int) {
    if index == 0 { a.zipKeepLatest() } else { b.zipKeepLatest() }
  }

  @inlinable
  mutating func removeFirst() -> (A, B) { (a.removeFirst(), b.removeFirst()) }

  @inlinable
  func latest() -> (A, B) { (a[a.count - 1], b[b.count - 1]) }

  @inlinable
  mutating func removeAll() {
    a.removeAll()
    b.removeAll()
  }
}

/// The buffers of a `zip` or `combineLatest` of three upstreams.
@usableFromInline
struct ZipBuffers3<A, B, C>: ZipBuffers {
  @usableFromInline var a: [A] = []
  @usableFromInline var b: [B] = []
  @usableFromInline var c: [C] = []

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
  mutating func keepLatest(_ index: Int) {
    switch index {
    case 0: a.zipKeepLatest()
    case 1: b.zipKeepLatest()
    default: c.zipKeepLatest()
    }
  }

  @inlinable
  mutating func removeFirst() -> (A, B, C) { (a.removeFirst(), b.removeFirst(), c.removeFirst()) }

  @inlinable
  func latest() -> (A, B, C) { (a[a.count - 1], b[b.count - 1], c[c.count - 1]) }

  @inlinable
  mutating func removeAll() {
    a.removeAll()
    b.removeAll()
    c.removeAll()
  }
}

/// The buffers of a `zip` or `combineLatest` of four upstreams.
@usableFromInline
struct ZipBuffers4<A, B, C, D>: ZipBuffers {
  @usableFromInline var a: [A] = []
  @usableFromInline var b: [B] = []
  @usableFromInline var c: [C] = []
  @usableFromInline var d: [D] = []

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
  mutating func keepLatest(_ index: Int) {
    switch index {
    case 0: a.zipKeepLatest()
    case 1: b.zipKeepLatest()
    case 2: c.zipKeepLatest()
    default: d.zipKeepLatest()
    }
  }

  @inlinable
  mutating func removeFirst() -> (A, B, C, D) {
    (a.removeFirst(), b.removeFirst(), c.removeFirst(), d.removeFirst())
  }

  @inlinable
  func latest() -> (A, B, C, D) { (a[a.count - 1], b[b.count - 1], c[c.count - 1], d[d.count - 1]) }

  @inlinable
  mutating func removeAll() {
    a.removeAll()
    b.removeAll()
    c.removeAll()
    d.removeAll()
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

  /// Stores a value of upstream `index`.
  @inlinable
  package mutating func append(_ value: Input, at index: Int) {
    if queues[index].isEmpty { emptyCount -= 1 }
    queues[index].append(value)
  }

  @inlinable
  package var everyUpstreamHasAValue: Bool { emptyCount == 0 }

  @inlinable
  package func isEmpty(_ index: Int) -> Bool { queues[index].isEmpty }

  @inlinable
  package mutating func keepLatest(_ index: Int) {
    guard queues[index].count > 1, let latest = queues[index].last else { return }
    queues[index].removeAll()
    queues[index].append(latest)
  }

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
  package mutating func removeAll() {
    for index in queues.indices { queues[index].removeAll() }
    emptyCount = queues.count
  }
}
