@_spi(Reflection) import Swift

/// The `@Published` fields of an object's class and its superclasses, found from the class's type metadata once per
/// class and kept.
///
/// Finding them reads no stored value: only the `@Published` fields themselves are read, through a key path made
/// from each one's offset, so an object's other properties are never touched, whatever guards them and however its
/// mirror presents it, as in Combine.
enum PublishedFields {
  /// Calls `body` with the storage of each `@Published` field of `object`, its superclasses' fields included.
  static func forEachStorage(in object: AnyObject, _ body: (any PublishedWillChangeStorage) -> Void) {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      for keyPath in keyPaths.value(for: type(of: object), make: makeKeyPaths) {
        if let storage = read(keyPath, of: object) { body(storage) }
      }
    } else {
      forEachStorageThroughMirror(in: object, body)
    }
  }

  /// Reads the field at `keyPath`, whose root is `object`'s class.
  private static func read<Root: AnyObject>(_ keyPath: AnyKeyPath, of object: Root) -> (any PublishedWillChangeStorage)?
  {
    object[keyPath: keyPath] as? any PublishedWillChangeStorage
  }

  private static let keyPaths = ClassCache<[AnyKeyPath]>()

  /// A key path to each `@Published` field of `type`, its superclasses' included.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  private static func makeKeyPaths(of type: AnyClass) -> [AnyKeyPath] {
    var keyPaths: [AnyKeyPath] = []
    // `_EachFieldOptions.classType`, spelled by its raw value: the option is a mutable static, which strict
    // concurrency checking does not let code read.
    _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) { _, offset, fieldType, _ in
      if fieldType is any PublishedWillChangeStorage.Type {
        keyPaths.append(_createOffsetBasedKeyPath(root: type, value: fieldType, offset: offset))
      }
      return true
    }
    return keyPaths
  }

  /// Calls `body` with the storage of each `@Published` field of `object`, found through its mirror.
  ///
  /// For systems whose standard library cannot make a key path from a field's offset (Apple systems before macOS 14
  /// and iOS 17): the mirror reads only the children asked for, at the indices the type metadata gives. A custom
  /// mirror shows other children, so the fields of an object that has one are not found; and where the metadata
  /// cannot be enumerated either (before macOS 10.15.4 and iOS 13.4), every child is read.
  static func forEachStorageThroughMirror(in object: AnyObject, _ body: (any PublishedWillChangeStorage) -> Void) {
    guard !(object is any CustomReflectable) else { return }
    var mirror: Mirror? = Mirror(reflecting: object)
    var level: AnyClass? = type(of: object)
    while let current = mirror, let levelType = level {
      let children = current.children
      if #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *) {
        for index in ownFieldIndices.value(for: levelType, make: makeOwnFieldIndices) where index < children.count {
          let child = children[children.index(children.startIndex, offsetBy: index)]
          if let storage = child.value as? any PublishedWillChangeStorage { body(storage) }
        }
      } else {
        for child in children {
          if let storage = child.value as? any PublishedWillChangeStorage { body(storage) }
        }
      }
      mirror = current.superclassMirror
      level = _getSuperclass(levelType)
    }
  }

  private static let ownFieldIndices = ClassCache<[Int]>()

  /// The indices, among the stored properties that `type` declares itself, of its `@Published` fields.
  @available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
  private static func makeOwnFieldIndices(of type: AnyClass) -> [Int] {
    // The enumeration lists the superclasses' fields first.
    let inherited = _getSuperclass(type).map(fieldCount) ?? 0
    var indices: [Int] = []
    var index = 0
    _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) { _, _, fieldType, _ in
      if index >= inherited, fieldType is any PublishedWillChangeStorage.Type { indices.append(index - inherited) }
      index += 1
      return true
    }
    return indices
  }

  @available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
  private static func fieldCount(of type: AnyClass) -> Int {
    var count = 0
    _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) { _, _, _, _ in
      count += 1
      return true
    }
    return count
  }
}

/// A value worked out once per class and kept for the life of the process, as classes are.
// SAFETY: all mutable state is in `table`; `make` runs outside the lock.
private final class ClassCache<Value>: @unchecked Sendable {
  private let table = Locked<[ObjectIdentifier: Value]>([:])

  /// The value for `type`, made by `make` the first time; threads that ask at once may each make it, and the first
  /// one kept is the one every later call returns.
  func value(for type: AnyClass, make: (AnyClass) -> Value) -> Value {
    let key = ObjectIdentifier(type)
    if let value = table.withLock({ $0[key] }) { return value }
    let made = make(type)
    return table.withLock { table in
      if let value = table[key] { return value }
      table[key] = made
      return made
    }
  }
}
