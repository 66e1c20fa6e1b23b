extension Publisher {
  /// Publishes the value of a key path.
  ///
  /// ```
  /// upstream:      -a-'bc'-|
  /// map(\.count):  -1-2-|
  /// ```
  ///
  /// - Parameter keyPath: The key path of a property on `Output`.
  /// - Returns: A publisher that publishes the value of the key path.
  @inlinable
  public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
    Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
  }

  /// Publishes the values of two key paths as a tuple.
  ///
  /// ```
  /// upstream:           -a-b-|
  /// map(\.x, \.y):      -'(ax,ay)'-'(bx,by)'-|
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath0: The key path of a property on `Output`.
  ///   - keyPath1: The key path of another property on `Output`.
  /// - Returns: A publisher that publishes the values of two key paths as a tuple.
  @inlinable
  public func map<T0, T1>(
    _ keyPath0: KeyPath<Output, T0>,
    _ keyPath1: KeyPath<Output, T1>
  ) -> Publishers.MapKeyPath2<Self, T0, T1> {
    Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
  }

  /// Publishes the values of three key paths as a tuple.
  ///
  /// ```
  /// upstream:             -a-|
  /// map(\.x, \.y, \.z):   -'(ax,ay,az)'-|
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath0: The key path of a property on `Output`.
  ///   - keyPath1: The key path of another property on `Output`.
  ///   - keyPath2: The key path of a third property on `Output`.
  /// - Returns: A publisher that publishes the values of three key paths as a tuple.
  @inlinable
  public func map<T0, T1, T2>(
    _ keyPath0: KeyPath<Output, T0>,
    _ keyPath1: KeyPath<Output, T1>,
    _ keyPath2: KeyPath<Output, T2>
  ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
    Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
  }
}

extension Publishers {
  /// A publisher that publishes the value of a key path.
  public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The key path of a property to publish.
    public let keyPath: KeyPath<Upstream.Output, Output>

    @inlinable
    init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
      self.upstream = upstream
      self.keyPath = keyPath
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
      let keyPath = self.keyPath
      upstream.subscribe(
        MapKeyPathInner(name: "ValueForKey", downstream: subscriber, keyPaths: [keyPath]) { $0[keyPath: keyPath] }
      )
    }
  }

  /// A publisher that publishes the values of two key paths as a tuple.
  public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
    public typealias Output = (Output0, Output1)

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The key path of a property to publish.
    public let keyPath0: KeyPath<Upstream.Output, Output0>

    /// The key path of a second property to publish.
    public let keyPath1: KeyPath<Upstream.Output, Output1>

    @inlinable
    init(upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>) {
      self.upstream = upstream
      self.keyPath0 = keyPath0
      self.keyPath1 = keyPath1
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
      let (keyPath0, keyPath1) = (self.keyPath0, self.keyPath1)
      upstream.subscribe(
        MapKeyPathInner(name: "ValueForKeys", downstream: subscriber, keyPaths: [keyPath0, keyPath1]) {
          ($0[keyPath: keyPath0], $0[keyPath: keyPath1])
        }
      )
    }
  }

  /// A publisher that publishes the values of three key paths as a tuple.
  public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
    public typealias Output = (Output0, Output1, Output2)

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The key path of a property to publish.
    public let keyPath0: KeyPath<Upstream.Output, Output0>

    /// The key path of a second property to publish.
    public let keyPath1: KeyPath<Upstream.Output, Output1>

    /// The key path of a third property to publish.
    public let keyPath2: KeyPath<Upstream.Output, Output2>

    @inlinable
    init(
      upstream: Upstream,
      keyPath0: KeyPath<Upstream.Output, Output0>,
      keyPath1: KeyPath<Upstream.Output, Output1>,
      keyPath2: KeyPath<Upstream.Output, Output2>
    ) {
      self.upstream = upstream
      self.keyPath0 = keyPath0
      self.keyPath1 = keyPath1
      self.keyPath2 = keyPath2
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
      let (keyPath0, keyPath1, keyPath2) = (self.keyPath0, self.keyPath1, self.keyPath2)
      upstream.subscribe(
        MapKeyPathInner(
          name: "ValueForKeys",
          downstream: subscriber,
          keyPaths: [keyPath0, keyPath1, keyPath2]
        ) {
          ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2])
        }
      )
    }
  }
}

/// The pass-through subscriber of the three key-path maps: demand and cancellation go straight upstream.
@usableFromInline
struct MapKeyPathInner<Input, Failure: Error, Downstream: Subscriber>: Subscriber, CombineDescribable
where Downstream.Failure == Failure {
  @usableFromInline let description: String
  @usableFromInline let downstream: Downstream
  /// The key paths, shown in the mirror as Combine shows them.
  @usableFromInline let keyPaths: [AnyKeyPath]
  @usableFromInline let project: (Input) -> Downstream.Input
  @usableFromInline let combineIdentifier = CombineIdentifier()

  @inlinable
  init(name: String, downstream: Downstream, keyPaths: [AnyKeyPath], project: @escaping (Input) -> Downstream.Input) {
    description = name
    self.downstream = downstream
    self.keyPaths = keyPaths
    self.project = project
  }

  /// One key path is labelled `keyPath`; several are `keyPath0`, `keyPath1`, ...
  @usableFromInline
  var customMirror: Mirror {
    let labels = keyPaths.count == 1 ? ["keyPath"] : keyPaths.indices.map { "keyPath\($0)" }
    return Mirror(self, children: zip(labels, keyPaths).map { (label: $0, value: $1 as Any) })
  }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(project(input))
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }
}
