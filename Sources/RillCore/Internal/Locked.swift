// `public` so that `Locked` can be `@usableFromInline`: the hot paths built on it are `@inlinable`, so client
// code specialises them and pays no run-time generic-metadata lookup per element (PERFORMANCE.md, 2).
public import Synchronization

/// The one lock in Rill: a mutex stored inline next to the state it protects.
///
/// `Locked` never allocates. Keep it in a `let` of a final class. Never call out (downstream, upstream,
/// a scheduler or a user closure) from inside `withLock`: return what needs doing and do it after.
///
/// The state comes first: ThreadSanitizer attributes an access through `withLock` to the start of `Locked`, which
/// must not be the mutex word. ThreadSanitizer does not see `Mutex`'s own ordering either, so a build with
/// `-Xswiftc -DRILL_TSAN` (CI's sanitizer run) tells it about each acquire and release.
@usableFromInline
struct Locked<State>: ~Copyable {
  @usableFromInline let cell: _Cell<State>

  @usableFromInline let mutex: Mutex<Void>

  @inlinable
  init(_ initialState: consuming State) {
    cell = _Cell(initialState)
    mutex = Mutex(())
  }

  /// Runs `body` with exclusive access to the state.
  @inlinable
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
@usableFromInline
@_silgen_name("__tsan_acquire")
func _rillTSanAcquire(_ address: UnsafeRawPointer)

@usableFromInline
@_silgen_name("__tsan_release")
func _rillTSanRelease(_ address: UnsafeRawPointer)
#endif
