import Synchronization

/// A mutex and the state it protects, for RillTesting's own types.
///
/// RillTesting cannot see RillCore's internal `Locked`, so it keeps this tiny equivalent. As with `Locked`,
/// never call out (a subscriber, a subscription, a scheduled action, a user closure) from inside `withLock`.
// SAFETY: `state` is only read or written while `mutex` is held.
final class TestingLock<State>: @unchecked Sendable {
  private let mutex = Mutex<Void>(())

  private var state: State

  init(_ initialState: State) {
    state = initialState
  }

  /// Runs `body` with exclusive access to the state.
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    mutex._unsafeLock()
    defer { mutex._unsafeUnlock() }
    return try body(&state)
  }
}
