/// A type-erasing cancellable object that executes a provided closure when cancelled.
///
/// An `AnyCancellable` instance automatically calls ``cancel()`` when deinitialized. The cancel action runs
/// at most once, whichever thread calls it first.
// SAFETY: `state` is written by the initializer, then only under `cancellationLock` in `cancel()`, or by `deinit`,
// when no other reference is left.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
  /// What cancelling does; a cancellable is kept as itself, so wrapping one allocates nothing more.
  @usableFromInline
  enum Action {
    case closure(() -> Void)
    case cancellable(any Cancellable)
  }

  /// The cancel action, until the first call to ``cancel()`` takes it.
  @usableFromInline
  struct State {
    @usableFromInline var isCancelled = false
    @usableFromInline var action: Action?

    @inlinable
    init(_ action: Action) {
      self.action = action
    }

    /// The action, the first time; `nil` after.
    @inlinable
    mutating func take() -> Action? {
      guard !isCancelled else { return nil }
      isCancelled = true
      return action.take()
    }
  }

  @usableFromInline
  var state: State

  /// Initializes the cancellable object with the given cancel-time closure.
  public init(_ cancel: @escaping () -> Void) {
    state = State(.closure(cancel))
  }

  /// Initializes the cancellable object with the given cancellable.
  ///
  /// The new object cancels the given one when cancelled or deinitialized.
  @inlinable
  public init<C: Cancellable>(_ canceller: C) {
    state = State(.cancellable(canceller))
  }

  deinit {
    // No other reference is left, so no other thread is cancelling: no lock.
    switch state.take() {
    case .closure(let cancel): cancel()
    case .cancellable(let cancellable): cancellable.cancel()
    case nil: break
    }
  }

  /// Cancels the activity.
  ///
  /// Calling it again does nothing.
  @inlinable
  public func cancel() {
    // Taken under the lock, so that one thread gets it whichever cancels first; run after unlocking.
    switch cancellationLock.withLock({ _ in state.take() }) {
    case .closure(let cancel): cancel()
    case .cancellable(let cancellable): cancellable.cancel()
    case nil: break
    }
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
