/// A type of object with a publisher that emits before the object has changed.
///
/// ```
/// object.name = "a"; object.name = "b":   -()-()-
/// ```
///
/// By default an `ObservableObject` synthesizes an `objectWillChange` publisher that emits before any of its
/// `@Published` properties changes; the synthesized publisher is shared by all of them and found by reflection
/// on the object, its superclasses included. An object without `@Published` properties gets a new, silent
/// publisher each time.
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
    return shared ?? ObservableObjectPublisher()
  }
}

/// A publisher that publishes changes from observable objects.
///
/// ```
/// send(); send():   -()-()-
/// ```
///
/// It never fails or finishes. As in Combine, it signals every subscriber on each `send()`, whatever demand the
/// subscriber has asked for.
// SAFETY: all mutable state is in `subscriptions`; subscribers are called outside the lock.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
  public typealias Output = Void
  public typealias Failure = Never

  private let subscriptions = Locked<[ObservableObjectSubscriptionBase]>([])

  /// Creates an observable object publisher instance.
  public init() {}

  public func receive<S: Subscriber>(subscriber: S) where S.Failure == Never, S.Input == Void {
    let subscription = ObservableObjectSubscription(parent: self, downstream: subscriber)
    subscriptions.withLock { $0.append(subscription) }
    subscriber.receive(subscription: subscription)
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
// lock.
private final class ObservableObjectSubscription<Downstream: Subscriber>: ObservableObjectSubscriptionBase,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Void, Downstream.Failure == Never {
  private struct State {
    weak var parent: ObservableObjectPublisher?
    var downstream: Downstream?
  }

  private let state: Locked<State>

  init(parent: ObservableObjectPublisher, downstream: Downstream) {
    state = Locked(State(parent: parent, downstream: downstream))
  }

  var description: String { "ObservableObjectPublisher" }

  var customMirror: Mirror { Mirror(self, children: ["downstream": state.withLock { $0.downstream } as Any]) }

  var playgroundDescription: Any { description }

  override func signal() {
    guard let downstream = state.withLock({ $0.downstream }) else { return }
    _ = downstream.receive()
  }

  func request(_ demand: Subscribers.Demand) {}

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
