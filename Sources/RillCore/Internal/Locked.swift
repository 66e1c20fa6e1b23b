import Synchronization

/// The one lock in Rill: a mutex stored inline next to the state it protects.
///
/// `Locked` never allocates. Keep it in a `let` of a final class. Never call out (downstream, upstream,
/// a scheduler or a user closure) from inside `withLock`: return what needs doing and do it after.
///
/// The state comes first: ThreadSanitizer attributes an access through `withLock` to the start of `Locked`, which
/// must not be the mutex word. ThreadSanitizer does not see `Mutex`'s own ordering either, so a build with
/// `-Xswiftc -DRILL_TSAN` (CI's sanitizer run) tells it about each acquire and release.
struct Locked<State>: ~Copyable {
  let cell: _Cell<State>

  let mutex = Mutex<Void>(())

  init(_ initialState: consuming State) {
    cell = _Cell(initialState)
  }

  /// Runs `body` with exclusive access to the state.
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    mutex._unsafeLock()
    #if RILL_TSAN
    _rillTSanAcquire(UnsafeRawPointer(cell._address))
    #endif
    defer {
      #if RILL_TSAN
      _rillTSanRelease(UnsafeRawPointer(cell._address))
      #endif
      mutex._unsafeUnlock()
    }
    return try body(&cell._address.pointee)
  }
}

#if RILL_TSAN
@_silgen_name("__tsan_acquire")
private func _rillTSanAcquire(_ address: UnsafeRawPointer)

@_silgen_name("__tsan_release")
private func _rillTSanRelease(_ address: UnsafeRawPointer)
#endif
