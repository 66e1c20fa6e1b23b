import Synchronization

/// A mutex next to the state it protects, for RillExt's operators and bridges.
///
/// RillCore keeps its own lock internal, so RillExt has this small equivalent, used the same way: keep it in a
/// `let` of a final class, and never call out (a subscriber, a subscription or a closure of the user's) from inside
/// `withLock`; return what needs doing and do it after unlocking.
// SAFETY: `state` is only read or written while `mutex` is held.
final class ExtLocked<State>: @unchecked Sendable {
  private let mutex = Mutex<Void>(())

  private var state: State

  init(_ state: State) {
    self.state = state
  }

  /// Runs `body` with exclusive access to the state.
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    mutex._unsafeLock()
    defer { mutex._unsafeUnlock() }
    return try body(&state)
  }
}
