import Synchronization

/// The lock of the Foundation integrations: RillCore's `Locked` is internal to RillCore, so `Rill` keeps the
/// same discipline with this class: a mutex next to the state it protects, never held while calling out.
// SAFETY: `state` is only touched while `mutex` is held.
final class FoundationLocked<State>: @unchecked Sendable {
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
