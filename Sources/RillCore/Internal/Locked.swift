// `public` so that `Locked` can be `@usableFromInline`: the hot paths built on it are `@inlinable`, so client
// code specialises them and pays no run-time generic-metadata lookup per element (PERFORMANCE.md, 2).
public import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The one lock in Rill: a lock word stored inline next to the state it protects.
///
/// `Locked` never allocates. Keep it in a `let` of a final class. Never call out (downstream, upstream,
/// a scheduler or a user closure) from inside `withLock`: return what needs doing and do it after.
///
/// The state comes first: ThreadSanitizer attributes an access through `withLock` to the start of `Locked`, which
/// must not be the lock word.
@usableFromInline
struct Locked<State>: ~Copyable {
  @usableFromInline let cell: _Cell<State>

  @usableFromInline let lock: RillLock

  @inlinable
  init(_ initialState: consuming State) {
    cell = _Cell(initialState)
    lock = RillLock()
  }

  /// Runs `body` with exclusive access to the state.
  @inlinable
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&cell._address.pointee)
  }
}

#if os(Linux) || os(Android)
/// A lock that costs one atomic read-modify-write per acquire-and-release when nobody waits.
///
/// Acquiring is a compare-and-swap; releasing is a plain store with release ordering, which on x86-64 and
/// AArch64 is an ordinary store, not a locked instruction. A blocking mutex cannot release that cheaply: it must
/// swap the word to learn whether to wake a sleeper. `Locked`'s sections are a few dozen instructions and never
/// call out, so a waiter first spins briefly, then yields the processor, then sleeps for growing intervals of at
/// most 50 microseconds, and never misses a release.
///
/// Linux has no priority inheritance for ordinary threads to lose by this. Other platforms keep the system's
/// mutex (`os_unfair_lock` on Darwin), which donates priority to the holder.
@usableFromInline
struct RillLock: ~Copyable {
  @usableFromInline let word: Atomic<UInt32>

  @inlinable
  init() {
    word = Atomic(0)
  }

  @inlinable
  func lock() {
    if !word.compareExchange(expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged
    {
      lockContended()
    }
  }

  @inlinable
  func unlock() {
    word.store(0, ordering: .releasing)
  }

  @usableFromInline
  func lockContended() {
    var attempts = 0
    var nap = 1_000  // nanoseconds
    while true {
      if word.load(ordering: .relaxed) == 0,
        word.compareExchange(expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged
      {
        return
      }
      attempts += 1
      if attempts < 100 {
        continue
      } else if attempts < 200 {
        sched_yield()
      } else {
        var interval = timespec(tv_sec: 0, tv_nsec: nap)
        _ = nanosleep(&interval, nil)
        nap = min(nap * 2, 50_000)
      }
    }
  }
}
#else
/// The system's mutex, which on Darwin donates priority to the holder.
@usableFromInline
struct RillLock: ~Copyable {
  @usableFromInline let mutex: Mutex<Void>

  @inlinable
  init() {
    mutex = Mutex(())
  }

  @inlinable
  func lock() {
    mutex._unsafeLock()
  }

  @inlinable
  func unlock() {
    mutex._unsafeUnlock()
  }
}
#endif
