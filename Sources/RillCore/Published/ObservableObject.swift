/// A type of object with a publisher that emits before the object has changed.
///
/// ```
/// object.name = "a"; object.name = "b":   -()-()-
/// ```
///
/// By default an `ObservableObject` synthesizes an `objectWillChange` publisher that emits before any of its
/// `@Published` properties changes; the synthesized publisher is shared by all of them, its superclasses' included,
/// which it finds from the class's type metadata, without reading the object's other properties. An object without
/// `@Published` properties gets one publisher for its whole lifetime, as in Combine: send to it from a property's
/// `willSet` to announce changes yourself.
public protocol ObservableObject: AnyObject {
  /// The type of publisher that emits before the object has changed.
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
  where ObjectWillChangePublisher.Failure == Never

  /// A publisher that emits before the object has changed.
  var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
  /// A publisher that emits before the object has changed.
  ///
  /// The first access makes it, and every later one returns the same publisher, from any thread. The `@Published`
  /// properties are found from the class, not from the object's values: the object's other stored properties are
  /// never read, and a custom mirror does not hide them.
  public var objectWillChange: ObservableObjectPublisher {
    var shared: ObservableObjectPublisher?
    PublishedFields.forEachStorage(in: self) { storage in
      if let shared {
        storage.adoptObjectWillChange(shared)
      } else {
        shared = storage.objectWillChangeForEnclosingObject()
      }
    }
    return shared ?? ObservableObjectPublisher.ownPublisher(of: self)
  }
}

/// What `@Published` storage offers the synthesized `objectWillChange`.
protocol PublishedWillChangeStorage {
  /// Returns the enclosing object's publisher, creating it if this storage holds none yet.
  func objectWillChangeForEnclosingObject() -> ObservableObjectPublisher

  /// Uses `publisher` as the enclosing object's publisher if this storage holds none yet.
  func adoptObjectWillChange(_ publisher: ObservableObjectPublisher)
}
