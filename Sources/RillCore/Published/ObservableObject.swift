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
/// It never fails or finishes; each subscriber receives the signals sent while it has demand.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
  public typealias Output = Void
  public typealias Failure = Never

  // SAFETY: the subject is thread-safe and never reassigned.
  private let subject = PassthroughSubject<Void, Never>()

  /// Creates an observable object publisher instance.
  public init() {}

  public func receive<S: Subscriber>(subscriber: S) where S.Failure == Never, S.Input == Void {
    subject.receive(subscriber: subscriber)
  }

  /// Sends the changed value to the downstream subscriber.
  public func send() {
    subject.send()
  }
}

/// What `@Published` storage offers the synthesized `objectWillChange`.
protocol PublishedWillChangeStorage {
  /// Returns the enclosing object's publisher, creating it if this storage holds none yet.
  func objectWillChangeForEnclosingObject() -> ObservableObjectPublisher

  /// Uses `publisher` as the enclosing object's publisher if this storage holds none yet.
  func adoptObjectWillChange(_ publisher: ObservableObjectPublisher)
}
