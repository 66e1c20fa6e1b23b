// `public` so that `Locked` can be `@usableFromInline`: the hot paths built on it are `@inlinable`, so client
// code specialises them and pays no run-time generic-metadata lookup per element (PERFORMANCE.md, 2).
public import Synchronization

/// The one lock in Rill: a mutex stored inline next to the state it protects.
///
/// `Locked` never allocates. Keep it in a `let` of a final class. Never call out (downstream, upstream,
/// a scheduler or a user closure) from inside `withLock`: return what needs doing and do it after.
@usableFromInline
struct Locked<State>: ~Copyable {
  @usableFromInline let mutex: Mutex<Void>

  @usableFromInline let cell: _Cell<State>

  @inlinable
  init(_ initialState: consuming State) {
    mutex = Mutex(())
    cell = _Cell(initialState)
  }

  /// Runs `body` with exclusive access to the state.
  @inlinable
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    mutex._unsafeLock()
    defer { mutex._unsafeUnlock() }
    return try body(&cell._address.pointee)
  }
}
