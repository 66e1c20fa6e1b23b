// apple/swift-atomics: the atomic word of a gate (below). The standard library's `Atomic` needs the 2024 systems.
public import Atomics

// `public` so that `Locked`, which is `@usableFromInline`, can hold a `pthread_mutex_t`: the hot paths built on it
// are `@inlinable`, so client code specialises them and pays no run-time generic-metadata lookup per element.
#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Android)
public import Android
#elseif canImport(Darwin)
public import Darwin
#endif

/// The one lock of the package: a `pthread_mutex_t` and the state it protects, in one allocation.
///
/// Rill, RillCore, RillExt and RillTesting lock state with `Locked` and nothing else; ``DeliveryLock``, the same
/// mutex made recursive, is held only around a call to one subscriber. Keep it in a `let` of a final
/// class. Never call out (downstream, upstream, a scheduler or a user closure) from inside `withLock`: return
/// what needs doing and do it after unlocking, which keeps re-entrant calls and cancellation from another thread
/// from deadlocking. Like swift-nio's `NIOLockedValueBox`, it has reference semantics: a copy shares the state
/// and the lock.
///
/// Why a POSIX mutex and not the standard library's `Mutex`, which would be stored inline and cost no allocation:
/// on Linux, `Mutex` (up to Swift 6.3) is a priority-inheritance futex, which hands the lock straight to the
/// next sleeping waiter. Rill's sections are short and many threads may send into one subject; each hand-off
/// waits for the waiter to be scheduled, and throughput collapses (Benchmarks/, "8 threads send into one
/// subject": tens of microseconds per send against about a hundred nanoseconds with this mutex). glibc's mutex
/// lets a running thread take a lock that was just released. `Mutex` also needs macOS 15 and iOS 18, and Rill
/// deploys where Combine does (macOS 10.15, iOS 13). Once the toolchain's `Mutex` is a plain futex
/// (swiftlang/swift#88440) and those systems are the minimum, that benchmark should decide again; only this file
/// would change.
@usableFromInline
package struct Locked<State> {
  @usableFromInline let storage: LockedStorage<State>

  @inlinable
  package init(_ initialState: consuming State) {
    storage = LockedStorage.make(initialState)
  }

  /// Runs `body` with exclusive access to the state.
  @inlinable
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointers { state, mutex in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&state.pointee)
    }
  }
}

// SAFETY: the state is reached only through `withLock`, under the mutex.
extension Locked: @unchecked Sendable where State: Sendable {}

/// The lock a publisher holds around each call to one subscriber, where Combine holds one: a recursive
/// `pthread_mutex_t`, so that a call from inside the subscriber (a `send` on the subject that is delivering to it)
/// is delivered at once, nested, while another thread waits until the subscriber has returned.
///
/// It is the one exception to ``Locked``'s rule: it is held while calling out, but only around the call to its own
/// subscriber, and it guards no state. Never take a state lock's `withLock` around it: a state lock is never held
/// while waiting for a delivery.
///
/// Its ``gate``, 0 at first, is the word a delivery reads under the lock before it calls the subscriber, to learn
/// whether the subscription has ended meanwhile; it is written without the lock, by whoever ends the subscription.
@usableFromInline
// SAFETY: it guards no state; the mutex is only reached through `withLock`, the gate only atomically.
package struct DeliveryLock<Owner>: @unchecked Sendable {
  @usableFromInline let storage: LockedStorage<Gated<Owner>>

  /// The delivery lock in `storage`'s allocation, made with ``LockedStorage/make(_:recursive:)`` and `recursive`
  /// set; `storage`'s state (`Owner`) is what an owner keeps beside its lock, so that the two take one allocation.
  @inlinable
  init(in storage: LockedStorage<Gated<Owner>>) {
    self.storage = storage
  }

  /// A word beside the lock, read and written atomically without it.
  @inlinable
  package var gate: LockGate<Owner> { LockGate(storage) }

  /// Runs `body`, a call to the subscriber, holding the lock; waits while another thread holds it.
  @inlinable
  package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointerToElements { mutex in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body()
    }
  }

  /// Runs `body`, a call to the subscriber, holding the lock, if the ``gate`` is not negative once the lock is taken;
  /// returns `nil` without calling it if it is (the subscription ended while this call waited for the lock).
  @inlinable
  package func withLockIfOpen<Result>(_ body: () throws -> Result) rethrows -> Result? {
    try withLock { gate.load(ordering: .acquiring) >= 0 ? try body() : nil }
  }
}

extension DeliveryLock where Owner == Void {
  /// A delivery lock in an allocation of its own.
  @inlinable
  package init() {
    storage = LockedStorage.make(Gated(()), recursive: true)
  }
}

/// ``Locked``, and beside its state a ``gate``: a word read and written atomically without the lock.
///
/// For a hot path that must notice, before each element, what another thread did without taking the lock for each:
/// a sequence's delivery loop reads whether the subscription was cancelled. The gate lives in the lock's allocation,
/// where an atomic of its own would cost an allocation per subscription.
@usableFromInline
package struct GatedLocked<State> {
  @usableFromInline let storage: LockedStorage<Gated<State>>

  @inlinable
  package init(_ initialState: consuming State) {
    storage = LockedStorage.make(Gated(initialState))
  }

  /// Runs `body` with exclusive access to the state.
  @inlinable
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointers { header, mutex in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&header.pointee.state)
    }
  }

  /// A word beside the state, 0 at first, read and written atomically without the lock.
  @inlinable
  package var gate: LockGate<State> { LockGate(storage) }
}

/// The header of a lock with a gate: the state the lock guards, then the gate, at the state's size rounded up to the
/// gate's alignment (Swift lays out a struct's stored properties in order, each at its alignment).
///
/// The state comes first so that the lock's `inout` access to it, which ThreadSanitizer records at the header's
/// address, never covers the gate, which other threads read atomically at the same time.
@usableFromInline
struct Gated<State> {
  @usableFromInline var state: State
  @usableFromInline var gate: UnsafeAtomic<Int>.Storage

  @inlinable
  init(_ state: consuming State) {
    self.state = state
    gate = UnsafeAtomic<Int>.Storage(0)
  }

  /// The gate's offset in the header.
  @inlinable @inline(__always)
  static var gateOffset: Int {
    let alignment = MemoryLayout<UnsafeAtomic<Int>.Storage>.alignment
    return (MemoryLayout<State>.size + alignment - 1) & ~(alignment - 1)
  }
}

/// The gate of a ``GatedLocked`` or a ``DeliveryLock``: one `Int`, read and written atomically, never under the lock.
///
/// Its operations and their orderings are swift-atomics' (`UnsafeAtomic`); the lock's allocation keeps the word.
@usableFromInline
package struct LockGate<State> {
  @usableFromInline let storage: LockedStorage<Gated<State>>

  @inlinable
  init(_ storage: LockedStorage<Gated<State>>) {
    self.storage = storage
  }

  /// Runs `body` on the gate's word, at ``Gated/gateOffset`` in the header.
  @inlinable @inline(__always)
  func withAtomic<Result>(_ body: (UnsafeAtomic<Int>) -> Result) -> Result {
    storage.withUnsafeMutablePointerToHeader { header in
      let word = (UnsafeMutableRawPointer(header) + Gated<State>.gateOffset)
        .assumingMemoryBound(to: UnsafeAtomic<Int>.Storage.self)
      return body(UnsafeAtomic(at: word))
    }
  }

  @_semantics("atomics.requires_constant_orderings") @inlinable @inline(__always)
  package func load(ordering: AtomicLoadOrdering) -> Int {
    withAtomic { $0.load(ordering: ordering) }
  }

  @_semantics("atomics.requires_constant_orderings") @inlinable @inline(__always)
  package func store(_ value: Int, ordering: AtomicStoreOrdering) {
    withAtomic { $0.store(value, ordering: ordering) }
  }

  @_semantics("atomics.requires_constant_orderings") @inlinable @inline(__always)
  package func exchange(_ value: Int, ordering: AtomicUpdateOrdering) -> Int {
    withAtomic { $0.exchange(value, ordering: ordering) }
  }

  @_semantics("atomics.requires_constant_orderings") @inlinable @inline(__always)
  package func compareExchange(
    expected: Int,
    desired: Int,
    ordering: AtomicUpdateOrdering
  ) -> (exchanged: Bool, original: Int) {
    withAtomic { $0.compareExchange(expected: expected, desired: desired, ordering: ordering) }
  }

  /// Sets the bits of `mask`; returns the value before.
  @_semantics("atomics.requires_constant_orderings") @inlinable @inline(__always)
  package func loadThenBitwiseOr(with mask: Int, ordering: AtomicUpdateOrdering) -> Int {
    withAtomic { $0.loadThenBitwiseOr(with: mask, ordering: ordering) }
  }
}

/// The state (the buffer's header) and its mutex (the buffer's one element), whose address never changes.
///
/// Not final: an object that needs a delivery lock of its own can be the lock's storage, so that the two take one
/// allocation (``SubjectConduit``). Like any `ManagedBuffer`, a subclass has no stored property: what it keeps is in
/// the state.
@usableFromInline
class LockedStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
  @inlinable
  static func make(_ initialState: State, recursive: Bool = false) -> LockedStorage {
    let buffer = create(minimumCapacity: 1) { _ in initialState }
    let storage = unsafeDowncast(buffer, to: LockedStorage.self)
    storage.withUnsafeMutablePointerToElements { mutex in
      mutex.initialize(to: pthread_mutex_t())
      let status: Int32
      if recursive {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        status = pthread_mutex_init(mutex, &attributes)
      } else {
        status = pthread_mutex_init(mutex, nil)
      }
      precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }
    return storage
  }

  /// Reads what the storage's owner keeps beside its lock, the state of a ``Gated`` header, in place.
  ///
  /// Never a copy of the whole header, whose gate other threads write atomically. Only for state written once, when
  /// the storage was made, and never changed.
  @inlinable
  func readOwned<Owner, Result>(_ body: (Owner) -> Result) -> Result where State == Gated<Owner> {
    withUnsafeMutablePointerToHeader { body($0.pointee.state) }
  }

  @inlinable
  deinit {
    withUnsafeMutablePointerToElements { mutex in
      _ = pthread_mutex_destroy(mutex)
      mutex.deinitialize(count: 1)
    }
  }
}
