/// The values a `zip` or `combineLatest` subscription holds for each of its upstreams, kept with their own types
/// so that no value is boxed.
///
/// `zip` queues every value and takes the oldest of each upstream; `combineLatest` keeps only the latest of each
/// upstream and copies them. Upstream `index` is the `index`-th stored array.
@usableFromInline
protocol ZipBuffers {
  associatedtype Output

  /// Empty buffers.
  init()

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
