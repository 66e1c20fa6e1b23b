/// A type of object with a publisher that emits before the object has changed.
///
/// ```
/// object.name = "a"; object.name = "b":   -()-()-
/// ```
///
/// By default an `ObservableObject` synthesizes an `objectWillChange` publisher that emits before any of its
/// `@Published` properties changes; the synthesized publisher is shared by all of them and found by reflection
/// on the object, its superclasses included. An object without `@Published` properties gets one publisher for its
/// whole lifetime, as in Combine: send to it from a property's `willSet` to announce changes yourself.
public protocol ObservableObject: AnyObject {
  /// The type of publisher that emits before the object has changed.
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
  where ObjectWillChangePublisher.Failure == Never

  /// A publisher that emits before the object has changed.
  var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
  /// A publisher that emits before the object has changed.
  public var objectWillChange: ObservableObjectPublisher {
    var shared: ObservableObjectPublisher?
    var mirror: Mirror? = Mirror(reflecting: self)
    while let current = mirror {
      for child in current.children {
        guard let storage = child.value as? any PublishedWillChangeStorage else { continue }
        if let shared {
          storage.adoptObjectWillChange(shared)
        } else {
          shared = storage.objectWillChangeForEnclosingObject()
        }
      }
      mirror = current.superclassMirror
    }
    return shared ?? ObservableObjectPublisher.ownPublisher(of: self)
  }
}

extension ObservableObjectPublisher {
  /// The publisher of each object without `@Published` properties that has asked for one, held beside the object
  /// rather than in it: a weak reference tells whether the object that asked is still the one at its address.
  private struct Owned {
    weak var object: AnyObject?
    let publisher: ObservableObjectPublisher
  }

  private struct OwnedTable {
    var entries: [ObjectIdentifier: Owned] = [:]
    /// The entry count above which the next insertion first drops the entries of freed objects.
    var sweepThreshold = 64
  }

  // SAFETY: all mutable state is in `table`.
  private final class OwnedPublishers: @unchecked Sendable {
    let table = Locked(OwnedTable())
  }

  private static let owned = OwnedPublishers()

  /// Returns the publisher of `object`, made on its first call, the same for as long as the object lives.
  ///
  /// The object is not kept alive: the table holds it weakly. A freed object's entry stays until the table next
  /// sweeps, which it does when it has doubled since the last sweep, so it never holds more than about twice the
  /// live objects' entries; a new object at a freed object's address gets a new publisher.
  static func ownPublisher(of object: AnyObject) -> ObservableObjectPublisher {
    let key = ObjectIdentifier(object)
    let (publisher, dropped) = owned.table.withLock { table -> (ObservableObjectPublisher, [Owned]) in
      if let entry = table.entries[key], entry.object === object { return (entry.publisher, []) }
      var dropped: [Owned] = []
      if let stale = table.entries[key] { dropped.append(stale) }
      if table.entries.count >= table.sweepThreshold {
        let freed = table.entries.filter { $0.value.object == nil }
        for (freedKey, entry) in freed {
          table.entries[freedKey] = nil
          dropped.append(entry)
        }
        table.sweepThreshold = Swift.max(64, 2 * table.entries.count)
      }
      let made = ObservableObjectPublisher()
      table.entries[key] = Owned(object: object, publisher: made)
      return (made, dropped)
    }
    // The publishers of freed objects are released here, outside the lock: releasing one may free its subscribers.
    _ = dropped
    return publisher
  }
}

/// A publisher that publishes changes from observable objects.
///
/// ```
/// send(); send():   -()-()-
/// ```
///
/// It never fails or finishes. As in Combine, it signals every subscriber that has made a request on each `send()`,
/// whatever demand it asked for, on the thread that calls `send()` and before `send()` returns; a `send()` from another
/// thread waits while a subscriber is busy, and one from inside a subscriber reaches it at once.
// SAFETY: all mutable state is in `subscriptions`; subscribers are called outside the lock.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
  public typealias Output = Void
  public typealias Failure = Never

  private let subscriptions = Locked<[ObservableObjectSubscriptionBase]>([])

  /// Creates an observable object publisher instance.
  public init() {}

  public func receive<S: Subscriber>(subscriber: S) where S.Failure == Never, S.Input == Void {
    let subscription = ObservableObjectSubscription(parent: self, downstream: subscriber)
    subscription.delivery.withLock {
      subscriptions.withLock { $0.append(subscription) }
      subscriber.receive(subscription: subscription)
    }
  }

  /// Sends the changed value to the downstream subscriber.
  public func send() {
    let current = subscriptions.withLock { $0 }
    for subscription in current { subscription.signal() }
  }

  fileprivate func remove(_ subscription: ObservableObjectSubscriptionBase) {
    let removed = subscriptions.withLock { subscriptions -> ObservableObjectSubscriptionBase? in
      guard let index = subscriptions.firstIndex(where: { $0 === subscription }) else { return nil }
      return subscriptions.remove(at: index)
    }
    _ = removed
  }
}

/// A subscription to an `ObservableObjectPublisher`, whatever its subscriber's type.
// SAFETY: no state of its own.
private class ObservableObjectSubscriptionBase: @unchecked Sendable {
  func signal() { fatalError("abstract") }
}

// SAFETY: all mutable state is in `state`; the subscriber and the publisher are called, and released, outside the
// state lock; the subscriber is called under `delivery`.
private final class ObservableObjectSubscription<Downstream: Subscriber>: ObservableObjectSubscriptionBase,
  Subscription, CombineDescribable, @unchecked Sendable
where Downstream.Input == Void, Downstream.Failure == Never {
  private struct State {
    weak var parent: ObservableObjectPublisher?
    var downstream: Downstream?
    /// Whether the subscriber has made a request: as in Combine, it is signalled from its first request on.
    var isActive = false
  }

  private let state: Locked<State>

  init(parent: ObservableObjectPublisher, downstream: Downstream) {
    state = Locked(State(parent: parent, downstream: downstream))
  }

  var description: String { "ObservableObjectPublisher" }

  var customMirror: Mirror { Mirror(self, children: ["downstream": state.withLock { $0.downstream } as Any]) }

  /// Held around each call to the subscriber: a `send()` from another thread waits while it is busy, and one from
  /// inside it is delivered at once, as in Combine.
  let delivery = DeliveryLock()

  override func signal() {
    delivery.withLock {
      // Read under the delivery lock, so that a cancel that has returned stops every later call.
      guard let downstream = state.withLock({ $0.isActive ? $0.downstream : nil }) else { return }
      _ = downstream.receive()
    }
  }

  func request(_ demand: Subscribers.Demand) {
    state.withLock { $0.isActive = true }
  }

  func cancel() {
    let (parent, downstream) = state.withLock { state in (state.parent, state.downstream.take()) }
    guard downstream != nil else { return }
    parent?.remove(self)
  }
}

/// What `@Published` storage offers the synthesized `objectWillChange`.
protocol PublishedWillChangeStorage {
  /// Returns the enclosing object's publisher, creating it if this storage holds none yet.
  func objectWillChangeForEnclosingObject() -> ObservableObjectPublisher

  /// Uses `publisher` as the enclosing object's publisher if this storage holds none yet.
  func adoptObjectWillChange(_ publisher: ObservableObjectPublisher)
}
