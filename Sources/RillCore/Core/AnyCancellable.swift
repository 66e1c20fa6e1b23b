/// A type-erasing cancellable object that executes a provided closure when cancelled.
///
/// An `AnyCancellable` instance automatically calls ``cancel()`` when deinitialized. The cancel action runs
/// at most once, whichever thread calls it first.
// SAFETY: `action` is written by the initializer, then only under `cancellationLock` in `cancel()`, or by `deinit`,
// when no other reference is left.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
  /// The cancel action, until the first call to ``cancel()`` takes it.
  ///
  /// A closure, as in Combine. One that wraps a cancellable object captures only that object, so wrapping it
  /// allocates nothing more.
  @usableFromInline
  var action: (() -> Void)?

  /// Initializes the cancellable object with the given cancel-time closure.
  public init(_ cancel: @escaping () -> Void) {
    action = cancel
  }

  /// Initializes the cancellable object with the given cancellable.
  ///
  /// The new object cancels the given one when cancelled or deinitialized.
  @inlinable
  public init<C: Cancellable>(_ canceller: C) {
    action = { canceller.cancel() }
  }

  deinit {
    // No other reference is left, so no other thread is cancelling: no lock.
    action.take()?()
  }

  /// Cancels the activity.
  ///
  /// Calling it again does nothing.
  @inlinable
  public func cancel() {
    // Taken under the lock, so that one thread gets it whichever cancels first; run after unlocking.
    cancellationLock.withLock { _ in action.take() }?()
  }

  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
    lhs === rhs
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }

  /// Stores this type-erasing cancellable instance in the specified collection.
  public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
    collection.append(self)
  }

  /// Stores this type-erasing cancellable instance in the specified set.
  public func store(in set: inout Set<AnyCancellable>) {
    set.insert(self)
  }
}

/// The lock under which `AnyCancellable.cancel()` takes its action, one for every cancellable: it is held for a few
/// instructions, and a lock of each cancellable's own would cost an allocation per subscription.
///
/// Its state is an unused word rather than `()`: ThreadSanitizer places an `inout` access to a zero-sized state at
/// the lock object's own address, and reports it as racing with other threads' reads of that object.
@usableFromInline
let cancellationLock = Locked(0)
