/// A type that publishes a property marked with an attribute.
///
/// ```
/// initial 0; value = 1; value = 2:   0-1-2-
/// $value:                            0-1-2-
/// ```
///
/// `$property` is a publisher that sends the current value on subscription, then each new value in the
/// property's `willSet`, so subscribers see it before the property holds it. When the enclosing class is an
/// ``ObservableObject`` with a synthesized `objectWillChange`, that publisher emits first. `@Published` is only
/// available on properties of classes.
@propertyWrapper
public struct Published<Value> {
  @usableFromInline
  let storage: PublishedStorage<Value>

  /// Creates the published instance with an initial wrapped value.
  @inlinable
  public init(wrappedValue: Value) {
    storage = PublishedStorage(wrappedValue)
  }

  /// Creates the published instance with an initial value.
  @inlinable
  public init(initialValue: Value) {
    self.init(wrappedValue: initialValue)
  }

  /// The property that the wrapper publishes; only reachable through the enclosing class.
  @available(*, unavailable, message: "@Published is only available on properties of classes")
  public var wrappedValue: Value {
    get { fatalError("@Published is only available on properties of classes") }
    set { fatalError("@Published is only available on properties of classes") }
  }

  /// The property's publisher.
  @inlinable
  public var projectedValue: Published<Value>.Publisher {
    mutating get { Publisher(storage: storage) }
    set {}
  }

  /// Reads and writes the property through the enclosing class instance.
  @inlinable
  public static subscript<EnclosingSelf: AnyObject>(
    _enclosingInstance object: EnclosingSelf,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
  ) -> Value {
    get { object[keyPath: storageKeyPath].storage.value }
    set { object[keyPath: storageKeyPath].storage.set(newValue) }
  }

  /// A publisher for properties marked with the `@Published` attribute.
  public struct Publisher: RillCore.Publisher {
    public typealias Output = Value
    public typealias Failure = Never

    @usableFromInline
    let storage: PublishedStorage<Value>

    /// Creates a publisher of the values of a `@Published` property.
    @inlinable
    init(storage: PublishedStorage<Value>) {
      self.storage = storage
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Value == S.Input, S.Failure == Never {
      storage.subject.receive(subscriber: subscriber)
    }
  }
}

extension Published: PublishedWillChangeStorage {
  @inlinable
  func objectWillChangeForEnclosingObject() -> ObservableObjectPublisher {
    storage.objectWillChangeForEnclosingObject()
  }

  @inlinable
  func adoptObjectWillChange(_ publisher: ObservableObjectPublisher) {
    storage.adoptObjectWillChange(publisher)
  }
}

extension RillCore.Publisher where Failure == Never {
  /// Republishes elements received from a publisher, by assigning them to a property marked as a publisher.
  ///
  /// ```
  /// upstream:         -1-2-|
  /// $value receives:  -1-2-
  /// ```
  ///
  /// The subscription lives as long as the property's storage: no cancellable is returned, and it ends when
  /// the enclosing object is freed or the upstream finishes. Each value goes through the property's setter
  /// path, so `objectWillChange` emits before it.
  ///
  /// - Parameter published: A property marked with the `@Published` attribute, which receives and republishes
  ///   all elements received from the upstream publisher.
  @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
  @inlinable
  public func assign(to published: inout Published<Output>.Publisher) {
    let storage = published.storage
    let cancellable = sink { [weak storage] value in
      storage?.set(value)
    }
    storage.retain(cancellable)
  }
}

/// The shared storage behind one `@Published` property: its publisher, whose current value is the property's
/// value, as in Combine, and the enclosing object's `objectWillChange`.
// SAFETY: all mutable state is in `state` and in the subject; publishers are called outside the lock.
@usableFromInline
final class PublishedStorage<Value>: @unchecked Sendable {
  @usableFromInline
  struct State {
    @usableFromInline
    var objectWillChange: ObservableObjectPublisher?
    @usableFromInline
    var assignments: [AnyCancellable] = []

    @inlinable
    init() {}
  }

  @usableFromInline
  let subject: PublishedSubject<Value>
  @usableFromInline
  let state: Locked<State>

  @inlinable
  init(_ value: Value) {
    subject = PublishedSubject(value)
    state = Locked(State())
  }

  /// The property's value; during `set`, subscribers still read the old one, as in a `willSet`.
  @inlinable
  var value: Value { subject.core.current }

  /// Emits `objectWillChange`, then the new value, which the property then holds.
  ///
  /// As in Combine, the value is stored once it has been delivered: a subscriber reads the old value, a subscriber
  /// that attaches meanwhile is owed the old value, and when a subscriber sets the property again from inside the
  /// delivery, the outer value, stored last, is the one the property keeps.
  @inlinable
  func set(_ newValue: Value) {
    state.withLock { $0.objectWillChange }?.send()
    subject.core.send(newValue, updatingCurrent: false)
    subject.core.replaceCurrent(with: newValue)
  }

  @inlinable
  func retain(_ cancellable: AnyCancellable) {
    state.withLock { $0.assignments.append(cancellable) }
  }

  @inlinable
  func objectWillChangeForEnclosingObject() -> ObservableObjectPublisher {
    let created = ObservableObjectPublisher()
    return state.withLock { state in
      if let existing = state.objectWillChange { return existing }
      state.objectWillChange = created
      return created
    }
  }

  @inlinable
  func adoptObjectWillChange(_ publisher: ObservableObjectPublisher) {
    state.withLock { state in
      if state.objectWillChange == nil { state.objectWillChange = publisher }
    }
  }
}
