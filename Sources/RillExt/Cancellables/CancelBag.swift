import Dispatch

/// A thread-safe store of cancellables that cancels them all when it is cancelled or freed.
///
/// Keep one in an object whose lifetime bounds some subscriptions, and store each subscription's cancellable in it
/// from any thread:
///
/// ```swift
/// final class Controller {
///   private let cancellables = CancelBag()
///
///   func start() {
///     timer.sink { print($0) }.store(in: cancellables)
///   }
/// }
/// ```
///
/// ``cancel()`` cancels every stored cancellable once, in the order they were stored, and empties the bag. The bag
/// stays usable: a cancellable stored after ``cancel()`` is kept, and cancelled by the next ``cancel()`` or when the
/// bag is freed. A cancellable cancelled from elsewhere stays in the bag until then (cancelling it again does
/// nothing).
///
/// ``RillCore/Publisher/sink(in:receiveCompletion:receiveValue:)`` also stores its cancellable, and takes it out
/// again when the subscription completes or is cancelled, so that a long-lived bag does not grow. A subscription that
/// ends before `sink(in:…)` returns leaves the bag on the main queue's next turn.
///
/// The bag never runs a cancellable while it holds its lock, so a cancellable may store into, or cancel, the same
/// bag while it is being cancelled.
// SAFETY: all mutable state lives in `state`; stored cancellables are cancelled and released outside the lock.
public final class CancelBag: @unchecked Sendable {
  /// A stored cancellable, and the key ``RillCore/Publisher/sink(in:receiveCompletion:receiveValue:)`` finds it by.
  private struct Entry {
    var key: Int?
    var cancellable: AnyCancellable
  }

  private struct State {
    var entries: [Entry] = []
    /// Keys handed out to subscriptions being set up, whose cancellables are not stored yet.
    var pendingKeys: Set<Int> = []
    var nextKey = 0
  }

  private let state = Locked(State())

  /// Whether the bag holds no cancellable.
  public var isEmpty: Bool {
    state.withLock { $0.entries.isEmpty }
  }

  /// Creates an empty bag.
  public init() {}

  deinit {
    cancel()
  }

  /// Adds a cancellable to the bag, keeping an `AnyCancellable`'s identity.
  func store(_ cancellable: some Cancellable) {
    let any = cancellable as? AnyCancellable ?? AnyCancellable(cancellable)
    state.withLock { $0.entries.append(Entry(key: nil, cancellable: any)) }
  }

  /// Reserves a key for a cancellable that will be stored with ``fill(_:with:)`` once it exists.
  @usableFromInline
  func reserveKey() -> Int {
    state.withLock { state in
      state.nextKey += 1
      state.pendingKeys.insert(state.nextKey)
      return state.nextKey
    }
  }

  /// Stores the cancellable of a reserved key.
  ///
  /// If ``release(_:)`` came first (the subscription ended while it was being set up), the cancellable is stored all
  /// the same and taken out on the main queue's next turn, as CombineTraits does.
  @usableFromInline
  func fill(_ key: Int, with cancellable: AnyCancellable) {
    let ended = state.withLock { state -> Bool in
      let isPending = state.pendingKeys.remove(key) != nil
      state.entries.append(Entry(key: key, cancellable: cancellable))
      return !isPending
    }
    if ended {
      DispatchQueue.main.async { [weak self] in self?.release(key) }
    }
  }

  /// Takes out the cancellable of a key, or forgets the key if its cancellable is not stored yet.
  @usableFromInline
  func release(_ key: Int) {
    let removed: AnyCancellable? = state.withLock { state in
      if state.pendingKeys.remove(key) != nil { return nil }
      guard let index = state.entries.firstIndex(where: { $0.key == key }) else { return nil }
      return state.entries.remove(at: index).cancellable
    }
    // Released here, outside the lock.
    _ = removed
  }
}

extension CancelBag: Cancellable {
  /// Cancels every cancellable in the bag, and empties it.
  ///
  /// Each stored cancellable is cancelled once, in the order it was stored, even when several threads cancel the
  /// bag at the same time. The bag can be used again afterwards.
  public func cancel() {
    let entries = state.withLock { state in
      defer { state.entries = [] }
      return state.entries
    }
    for entry in entries {
      entry.cancellable.cancel()
    }
  }
}

extension Cancellable {
  /// Stores this cancellable in a bag, which cancels it when the bag is cancelled or freed.
  ///
  /// An `AnyCancellable` is stored as itself; any other cancellable is wrapped in an `AnyCancellable`.
  ///
  /// - Parameter bag: The bag to store this cancellable in.
  public func store(in bag: CancelBag) {
    bag.store(self)
  }
}
