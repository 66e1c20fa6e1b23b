/// The publisher behind `zip(with:)`, `combineLatest(with:)`, and `Collection`'s `zip()` and `combineLatest()`.
///
/// It runs the engine of Combine's `zip` and `combineLatest` over every publisher at once: one subscription, one
/// child subscriber per publisher and one lock, whatever the number of publishers, so that a collection of any size
/// subscribes without nesting, and a value costs the same with a hundred thousand publishers as with two. It
/// requests, buffers, finishes and fails as those operators do.
@usableFromInline
struct CombiningMany<First: Publisher, Others: Collection>: Publisher
where Others.Element: Publisher, Others.Element.Output == First.Output, Others.Element.Failure == First.Failure {
  @usableFromInline typealias Output = [First.Output]

  @usableFromInline typealias Failure = First.Failure

  @usableFromInline typealias Mode = ZipStateMachine<ZipBuffersArray<First.Output>, Failure>.Mode

  @usableFromInline let mode: Mode

  @usableFromInline let first: First

  @usableFromInline let others: Others

  @inlinable
  init(mode: Mode, first: First, others: Others) {
    self.mode = mode
    self.first = first
    self.others = others
  }

  @inlinable
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let count = others.count + 1
    let engine = ZipSubscription<ZipBuffersArray<First.Output>, S>.start(
      subscriber,
      mode: mode,
      count: count,
      buffers: ZipBuffersArray(count: count)
    )
    // `zip` queues every value; `combineLatest` keeps the latest, and hands back the value it replaces.
    let keepsLatest = mode == .combineLatest
    let store: (inout ZipBuffersArray<First.Output>, First.Output, Int) -> First.Output? = { buffers, value, index in
      keepsLatest ? buffers.replace(value, at: index) : buffers.queue(value, at: index)
    }
    first.subscribe(engine.child(0) { store(&$0, $1, 0) })
    for (offset, other) in others.enumerated() {
      let index = offset + 1
      other.subscribe(engine.child(index) { store(&$0, $1, index) })
    }
  }
}
