extension Publisher where Failure == Never {
  /// Assigns each value to a property of each of two objects, and keeps them until the subscription ends.
  ///
  /// ```
  /// upstream:                                        -1-2-|
  /// assign(to: \.a, on: x, and: \.b, on: y), x.a:     -1-2-|   (and y.b the same)
  /// ```
  ///
  /// Each value is assigned to `object1` then to `object2`. The subscription requests unlimited values and holds
  /// both objects strongly until it is cancelled or the publisher finishes.
  ///
  /// - Parameters:
  ///   - keyPath1: The property of `object1` to assign.
  ///   - object1: The first object.
  ///   - keyPath2: The property of `object2` to assign.
  ///   - object2: The second object.
  /// - Returns: A cancellable that ends the assignments, when cancelled or released.
  @inlinable
  public func assign<Root1, Root2>(
    to keyPath1: ReferenceWritableKeyPath<Root1, Output>,
    on object1: Root1,
    and keyPath2: ReferenceWritableKeyPath<Root2, Output>,
    on object2: Root2
  ) -> AnyCancellable {
    sink { value in
      object1[keyPath: keyPath1] = value
      object2[keyPath: keyPath2] = value
    }
  }

  /// Assigns each value to a property of each of three objects, and keeps them until the subscription ends.
  ///
  /// ```
  /// upstream:                                                             -1-2-|
  /// assign(to: \.a, on: x, and: \.b, on: y, and: \.c, on: z), x.a:       -1-2-|   (and y.b, z.c the same)
  /// ```
  ///
  /// Each value is assigned to `object1`, `object2`, then `object3`; see
  /// ``RillCore/Publisher/assign(to:on:and:on:)``.
  ///
  /// - Parameters:
  ///   - keyPath1: The property of `object1` to assign.
  ///   - object1: The first object.
  ///   - keyPath2: The property of `object2` to assign.
  ///   - object2: The second object.
  ///   - keyPath3: The property of `object3` to assign.
  ///   - object3: The third object.
  /// - Returns: A cancellable that ends the assignments, when cancelled or released.
  @inlinable
  public func assign<Root1, Root2, Root3>(
    to keyPath1: ReferenceWritableKeyPath<Root1, Output>,
    on object1: Root1,
    and keyPath2: ReferenceWritableKeyPath<Root2, Output>,
    on object2: Root2,
    and keyPath3: ReferenceWritableKeyPath<Root3, Output>,
    on object3: Root3
  ) -> AnyCancellable {
    sink { value in
      object1[keyPath: keyPath1] = value
      object2[keyPath: keyPath2] = value
      object3[keyPath: keyPath3] = value
    }
  }
}
