import Synchronization

/// The one lock in Rill: a mutex stored inline next to the state it protects.
///
/// `Locked` never allocates. Keep it in a `let` of a final class. Never call out (downstream, upstream,
/// a scheduler or a user closure) from inside `withLock`: return what needs doing and do it after.
struct Locked<State>: ~Copyable {
  let mutex = Mutex<Void>(())

  let cell: _Cell<State>

  init(_ initialState: consuming State) {
    cell = _Cell(initialState)
  }

  /// Runs `body` with exclusive access to the state.
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    mutex._unsafeLock()
    defer { mutex._unsafeUnlock() }
    return try body(&cell._address.pointee)
  }
}
