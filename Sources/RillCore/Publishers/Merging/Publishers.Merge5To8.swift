extension Publishers {
  /// A publisher created by applying the merge function to five upstream publishers.
  ///
  /// It asks each upstream for one element at a time (or for `.unlimited` once downstream demand is unlimited).
  /// As in Combine, an element that finds demand reaches the subscriber on the thread that sent it, before that
  /// upstream's call returns, once the subscriber has returned from any other element; one sent from inside the
  /// subscriber arrives at once, nested; one without demand waits until the subscriber asks for more.
  public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
  where
    A.Failure == B.Failure,
    A.Output == B.Output,
    A.Failure == C.Failure,
    A.Output == C.Output,
    A.Failure == D.Failure,
    A.Output == D.Output,
    A.Failure == E.Failure,
    A.Output == E.Output
  {
    public typealias Output = A.Output

    public typealias Failure = A.Failure

    /// The first upstream publisher.
    public let a: A

    /// The second upstream publisher.
    public let b: B

    /// The third upstream publisher.
    public let c: C

    /// The fourth upstream publisher.
    public let d: D

    /// The fifth upstream publisher.
    public let e: E

    /// Creates a publisher created by applying the merge function to five upstream publishers.
    ///
    /// - Parameters:
    ///   - a: The first upstream publisher.
    ///   - b: The second upstream publisher.
    ///   - c: The third upstream publisher.
    ///   - d: The fourth upstream publisher.
    ///   - e: The fifth upstream publisher.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let merger = MergingSubscription.merging(subscriber, count: 5)
      a.subscribe(merger.child(0))
      b.subscribe(merger.child(1))
      c.subscribe(merger.child(2))
      d.subscribe(merger.child(3))
      e.subscribe(merger.child(4))
    }

    /// Merges this publisher's upstreams with another publisher into a Merge6.
    ///
    /// ```
    /// this:  -1-|
    /// other: --2|
    /// merge: -12|
    /// ```
    ///
    /// - Parameter z: A publisher.
    /// - Returns: A publisher that merges the elements of all its upstreams.
    @inlinable
    public func merge<Z: Publisher>(
      with z: Z
    ) -> Publishers.Merge6<A, B, C, D, E, Z>
    where
      Z.Failure == Failure,
      Z.Output == Output
    {
      Publishers.Merge6(a, b, c, d, e, z)
    }

    /// Merges this publisher's upstreams with two publishers into a Merge7.
    ///
    /// ```
    /// this:  -1-|
    /// other: --2|
    /// merge: -12|
    /// ```
    ///
    /// - Parameters:
    ///   - z: A publisher.
    ///   - y: A publisher.
    /// - Returns: A publisher that merges the elements of all its upstreams.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(
      with z: Z,
      _ y: Y
    ) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
    where
      Z.Failure == Failure,
      Z.Output == Output,
      Y.Failure == Failure,
      Y.Output == Output
    {
      Publishers.Merge7(a, b, c, d, e, z, y)
    }

    /// Merges this publisher's upstreams with three publishers into a Merge8.
    ///
    /// ```
    /// this:  -1-|
    /// other: --2|
    /// merge: -12|
    /// ```
    ///
    /// - Parameters:
    ///   - z: A publisher.
    ///   - y: A publisher.
    ///   - x: A publisher.
    /// - Returns: A publisher that merges the elements of all its upstreams.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
      with z: Z,
      _ y: Y,
      _ x: X
    ) -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
    where
      Z.Failure == Failure,
      Z.Output == Output,
      Y.Failure == Failure,
      Y.Output == Output,
      X.Failure == Failure,
      X.Output == Output
    {
      Publishers.Merge8(a, b, c, d, e, z, y, x)
    }
  }
}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}

extension Publishers {
  /// A publisher created by applying the merge function to six upstream publishers.
  ///
  /// It asks each upstream for one element at a time (or for `.unlimited` once downstream demand is unlimited).
  /// As in Combine, an element that finds demand reaches the subscriber on the thread that sent it, before that
  /// upstream's call returns, once the subscriber has returned from any other element; one sent from inside the
  /// subscriber arrives at once, nested; one without demand waits until the subscriber asks for more.
  public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
  where
    A.Failure == B.Failure,
    A.Output == B.Output,
    A.Failure == C.Failure,
    A.Output == C.Output,
    A.Failure == D.Failure,
    A.Output == D.Output,
    A.Failure == E.Failure,
    A.Output == E.Output,
    A.Failure == F.Failure,
    A.Output == F.Output
  {
    public typealias Output = A.Output

    public typealias Failure = A.Failure

    /// The first upstream publisher.
    public let a: A

    /// The second upstream publisher.
    public let b: B

    /// The third upstream publisher.
    public let c: C

    /// The fourth upstream publisher.
    public let d: D

    /// The fifth upstream publisher.
    public let e: E

    /// The sixth upstream publisher.
    public let f: F

    /// Creates a publisher created by applying the merge function to six upstream publishers.
    ///
    /// - Parameters:
    ///   - a: The first upstream publisher.
    ///   - b: The second upstream publisher.
    ///   - c: The third upstream publisher.
    ///   - d: The fourth upstream publisher.
    ///   - e: The fifth upstream publisher.
    ///   - f: The sixth upstream publisher.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let merger = MergingSubscription.merging(subscriber, count: 6)
      a.subscribe(merger.child(0))
      b.subscribe(merger.child(1))
      c.subscribe(merger.child(2))
      d.subscribe(merger.child(3))
      e.subscribe(merger.child(4))
      f.subscribe(merger.child(5))
    }

    /// Merges this publisher's upstreams with another publisher into a Merge7.
    ///
    /// ```
    /// this:  -1-|
    /// other: --2|
    /// merge: -12|
    /// ```
    ///
    /// - Parameter z: A publisher.
    /// - Returns: A publisher that merges the elements of all its upstreams.
    @inlinable
    public func merge<Z: Publisher>(
      with z: Z
    ) -> Publishers.Merge7<A, B, C, D, E, F, Z>
    where
      Z.Failure == Failure,
      Z.Output == Output
    {
      Publishers.Merge7(a, b, c, d, e, f, z)
    }

    /// Merges this publisher's upstreams with two publishers into a Merge8.
    ///
    /// ```
    /// this:  -1-|
    /// other: --2|
    /// merge: -12|
    /// ```
    ///
    /// - Parameters:
    ///   - z: A publisher.
    ///   - y: A publisher.
    /// - Returns: A publisher that merges the elements of all its upstreams.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(
      with z: Z,
      _ y: Y
    ) -> Publishers.Merge8<A, B, C, D, E, F, Z, Y>
    where
      Z.Failure == Failure,
      Z.Output == Output,
      Y.Failure == Failure,
      Y.Output == Output
    {
      Publishers.Merge8(a, b, c, d, e, f, z, y)
    }
  }
}

extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}

extension Publishers {
  /// A publisher created by applying the merge function to seven upstream publishers.
  ///
  /// It asks each upstream for one element at a time (or for `.unlimited` once downstream demand is unlimited).
  /// As in Combine, an element that finds demand reaches the subscriber on the thread that sent it, before that
  /// upstream's call returns, once the subscriber has returned from any other element; one sent from inside the
  /// subscriber arrives at once, nested; one without demand waits until the subscriber asks for more.
  public struct Merge7<
    A: Publisher,
    B: Publisher,
    C: Publisher,
    D: Publisher,
    E: Publisher,
    F: Publisher,
    G: Publisher
  >: Publisher
  where
    A.Failure == B.Failure,
    A.Output == B.Output,
    A.Failure == C.Failure,
    A.Output == C.Output,
    A.Failure == D.Failure,
    A.Output == D.Output,
    A.Failure == E.Failure,
    A.Output == E.Output,
    A.Failure == F.Failure,
    A.Output == F.Output,
    A.Failure == G.Failure,
    A.Output == G.Output
  {
    public typealias Output = A.Output

    public typealias Failure = A.Failure

    /// The first upstream publisher.
    public let a: A

    /// The second upstream publisher.
    public let b: B

    /// The third upstream publisher.
    public let c: C

    /// The fourth upstream publisher.
    public let d: D

    /// The fifth upstream publisher.
    public let e: E

    /// The sixth upstream publisher.
    public let f: F

    /// The seventh upstream publisher.
    public let g: G

    /// Creates a publisher created by applying the merge function to seven upstream publishers.
    ///
    /// - Parameters:
    ///   - a: The first upstream publisher.
    ///   - b: The second upstream publisher.
    ///   - c: The third upstream publisher.
    ///   - d: The fourth upstream publisher.
    ///   - e: The fifth upstream publisher.
    ///   - f: The sixth upstream publisher.
    ///   - g: The seventh upstream publisher.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
      self.g = g
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let merger = MergingSubscription.merging(subscriber, count: 7)
      a.subscribe(merger.child(0))
      b.subscribe(merger.child(1))
      c.subscribe(merger.child(2))
      d.subscribe(merger.child(3))
      e.subscribe(merger.child(4))
      f.subscribe(merger.child(5))
      g.subscribe(merger.child(6))
    }

    /// Merges this publisher's upstreams with another publisher into a Merge8.
    ///
    /// ```
    /// this:  -1-|
    /// other: --2|
    /// merge: -12|
    /// ```
    ///
    /// - Parameter z: A publisher.
    /// - Returns: A publisher that merges the elements of all its upstreams.
    @inlinable
    public func merge<Z: Publisher>(
      with z: Z
    ) -> Publishers.Merge8<A, B, C, D, E, F, G, Z>
    where
      Z.Failure == Failure,
      Z.Output == Output
    {
      Publishers.Merge8(a, b, c, d, e, f, g, z)
    }
  }
}

extension Publishers.Merge7: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}

extension Publishers {
  /// A publisher created by applying the merge function to eight upstream publishers.
  ///
  /// It asks each upstream for one element at a time (or for `.unlimited` once downstream demand is unlimited).
  /// As in Combine, an element that finds demand reaches the subscriber on the thread that sent it, before that
  /// upstream's call returns, once the subscriber has returned from any other element; one sent from inside the
  /// subscriber arrives at once, nested; one without demand waits until the subscriber asks for more.
  public struct Merge8<
    A: Publisher,
    B: Publisher,
    C: Publisher,
    D: Publisher,
    E: Publisher,
    F: Publisher,
    G: Publisher,
    H: Publisher
  >: Publisher
  where
    A.Failure == B.Failure,
    A.Output == B.Output,
    A.Failure == C.Failure,
    A.Output == C.Output,
    A.Failure == D.Failure,
    A.Output == D.Output,
    A.Failure == E.Failure,
    A.Output == E.Output,
    A.Failure == F.Failure,
    A.Output == F.Output,
    A.Failure == G.Failure,
    A.Output == G.Output,
    A.Failure == H.Failure,
    A.Output == H.Output
  {
    public typealias Output = A.Output

    public typealias Failure = A.Failure

    /// The first upstream publisher.
    public let a: A

    /// The second upstream publisher.
    public let b: B

    /// The third upstream publisher.
    public let c: C

    /// The fourth upstream publisher.
    public let d: D

    /// The fifth upstream publisher.
    public let e: E

    /// The sixth upstream publisher.
    public let f: F

    /// The seventh upstream publisher.
    public let g: G

    /// The eighth upstream publisher.
    public let h: H

    /// Creates a publisher created by applying the merge function to eight upstream publishers.
    ///
    /// - Parameters:
    ///   - a: The first upstream publisher.
    ///   - b: The second upstream publisher.
    ///   - c: The third upstream publisher.
    ///   - d: The fourth upstream publisher.
    ///   - e: The fifth upstream publisher.
    ///   - f: The sixth upstream publisher.
    ///   - g: The seventh upstream publisher.
    ///   - h: The eighth upstream publisher.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
      self.g = g
      self.h = h
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let merger = MergingSubscription.merging(subscriber, count: 8)
      a.subscribe(merger.child(0))
      b.subscribe(merger.child(1))
      c.subscribe(merger.child(2))
      d.subscribe(merger.child(3))
      e.subscribe(merger.child(4))
      f.subscribe(merger.child(5))
      g.subscribe(merger.child(6))
      h.subscribe(merger.child(7))
    }
  }
}

extension Publishers.Merge8: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}
