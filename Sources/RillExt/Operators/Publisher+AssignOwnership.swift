/// How an assigning subscription holds the objects it assigns to.
public enum ObjectOwnership {
  /// Holds them strongly: they live at least as long as the subscription.
  case strong

  /// Holds them weakly: once an object is gone, its assignments are skipped.
  case weak

  /// Holds them unowned: they must outlive the subscription, or an assignment traps.
  case unowned
}

extension Publisher where Failure == Never {
  /// Assigns each value to a property of an object, holding the object as `ownership` says.
  ///
  /// ```
  /// upstream:                                      -1-2-|
  /// assign(to: \.a, on: x, ownership: .weak), x.a:  -1-2-|
  /// ```
  ///
  /// With `.strong`, this is Combine's `assign(to:on:)`. With `.weak` or `.unowned`, the subscription does not keep
  /// `object` alive, which breaks the cycle of an object that assigns a publisher to its own property and stores
  /// the cancellable. The subscription requests unlimited values.
  ///
  /// - Parameters:
  ///   - keyPath: The property to assign.
  ///   - object: The object that has the property.
  ///   - ownership: How the subscription holds `object`; `.strong` by default.
  /// - Returns: A cancellable that ends the assignments, when cancelled or released.
  @inlinable
  public func assign<Root: AnyObject>(
    to keyPath: ReferenceWritableKeyPath<Root, Output>,
    on object: Root,
    ownership: ObjectOwnership = .strong
  ) -> AnyCancellable {
    switch ownership {
    case .strong:
      let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
      subscribe(subscriber)
      return AnyCancellable(subscriber)
    case .weak:
      return sink { [weak object] value in object?[keyPath: keyPath] = value }
    case .unowned:
      return sink { [unowned object] value in object[keyPath: keyPath] = value }
    }
  }

  /// Assigns each value to a property of each of two objects, holding them as `ownership` says.
  ///
  /// ```
  /// upstream:                                                        -1-2-|
  /// assign(to: \.a, on: x, and: \.b, on: y, ownership: .weak), x.a:  -1-2-|   (and y.b the same)
  /// ```
  ///
  /// See ``RillCore/Publisher/assign(to:on:ownership:)-4jvfx``.
  ///
  /// - Parameters:
  ///   - keyPath1: The property of `object1` to assign.
  ///   - object1: The first object.
  ///   - keyPath2: The property of `object2` to assign.
  ///   - object2: The second object.
  ///   - ownership: How the subscription holds the objects; `.strong` by default.
  /// - Returns: A cancellable that ends the assignments, when cancelled or released.
  @inlinable
  public func assign<Root1: AnyObject, Root2: AnyObject>(
    to keyPath1: ReferenceWritableKeyPath<Root1, Output>,
    on object1: Root1,
    and keyPath2: ReferenceWritableKeyPath<Root2, Output>,
    on object2: Root2,
    ownership: ObjectOwnership = .strong
  ) -> AnyCancellable {
    switch ownership {
    case .strong:
      return sink { value in
        object1[keyPath: keyPath1] = value
        object2[keyPath: keyPath2] = value
      }
    case .weak:
      return sink { [weak object1, weak object2] value in
        object1?[keyPath: keyPath1] = value
        object2?[keyPath: keyPath2] = value
      }
    case .unowned:
      return sink { [unowned object1, unowned object2] value in
        object1[keyPath: keyPath1] = value
        object2[keyPath: keyPath2] = value
      }
    }
  }

  /// Assigns each value to a property of each of three objects, holding them as `ownership` says.
  ///
  /// ```
  /// upstream:                                                                      -1-2-|
  /// assign(to: \.a, on: x, and: \.b, on: y, and: \.c, on: z, ownership: .weak), x.a:  -1-2-|
  /// ```
  ///
  /// See ``RillCore/Publisher/assign(to:on:ownership:)-4jvfx``.
  ///
  /// - Parameters:
  ///   - keyPath1: The property of `object1` to assign.
  ///   - object1: The first object.
  ///   - keyPath2: The property of `object2` to assign.
  ///   - object2: The second object.
  ///   - keyPath3: The property of `object3` to assign.
  ///   - object3: The third object.
  ///   - ownership: How the subscription holds the objects; `.strong` by default.
  /// - Returns: A cancellable that ends the assignments, when cancelled or released.
  @inlinable
  public func assign<Root1: AnyObject, Root2: AnyObject, Root3: AnyObject>(
    to keyPath1: ReferenceWritableKeyPath<Root1, Output>,
    on object1: Root1,
    and keyPath2: ReferenceWritableKeyPath<Root2, Output>,
    on object2: Root2,
    and keyPath3: ReferenceWritableKeyPath<Root3, Output>,
    on object3: Root3,
    ownership: ObjectOwnership = .strong
  ) -> AnyCancellable {
    switch ownership {
    case .strong:
      return sink { value in
        object1[keyPath: keyPath1] = value
        object2[keyPath: keyPath2] = value
        object3[keyPath: keyPath3] = value
      }
    case .weak:
      return sink { [weak object1, weak object2, weak object3] value in
        object1?[keyPath: keyPath1] = value
        object2?[keyPath: keyPath2] = value
        object3?[keyPath: keyPath3] = value
      }
    case .unowned:
      return sink { [unowned object1, unowned object2, unowned object3] value in
        object1[keyPath: keyPath1] = value
        object2[keyPath: keyPath2] = value
        object3[keyPath: keyPath3] = value
      }
    }
  }
}
