public import Synchronization

/// A type-erasing cancellable object that executes a provided closure when cancelled.
///
/// An `AnyCancellable` instance automatically calls ``cancel()`` when deinitialized. The cancel action runs
/// at most once, whichever thread calls it first.
// SAFETY: `action` is written by the initializer, then read and cleared only by the one call to `cancel()` that
// wins `isCancelled`'s exchange.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
  /// What cancelling does; a cancellable is kept as itself, so wrapping one allocates nothing more.
  @usableFromInline
  enum Action {
    case closure(() -> Void)
    case cancellable(any Cancellable)
  }

  @usableFromInline
  var action: Action?

  /// Set by the first call to ``cancel()``: an atomic flag rather than a lock, so that an idle subscription's
  /// cancellable costs one small allocation.
  @usableFromInline
  let isCancelled = Atomic<Bool>(false)

  /// Initializes the cancellable object with the given cancel-time closure.
  public init(_ cancel: @escaping () -> Void) {
    action = .closure(cancel)
  }

  /// Initializes the cancellable object with the given cancellable.
  ///
  /// The new object cancels the given one when cancelled or deinitialized.
  @inlinable
  public init<C: Cancellable>(_ canceller: C) {
    action = .cancellable(canceller)
  }

  deinit {
    cancel()
  }

  /// Cancels the activity.
  ///
  /// Calling it again does nothing.
  public func cancel() {
    guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
    switch action.take() {
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
