extension Publishers {
  /// A publisher created by applying the merge function to two upstream publishers.
  ///
  /// It asks each upstream for one element at a time (or for `.unlimited` once downstream demand is unlimited).
  /// As in Combine, an element that finds demand reaches the subscriber on the thread that sent it, before that
  /// upstream's call returns, once the subscriber has returned from any other element; one sent from inside the
  /// subscriber arrives at once, nested; one without demand waits until the subscriber asks for more.
  public struct Merge<A: Publisher, B: Publisher>: Publisher
  where
    A.Failure == B.Failure,
    A.Output == B.Output
  {
    public typealias Output = A.Output

    public typealias Failure = A.Failure

    /// The first upstream publisher.
    public let a: A

    /// The second upstream publisher.
    public let b: B

    /// Creates a publisher created by applying the merge function to two upstream publishers.
    ///
    /// - Parameters:
    ///   - a: The first upstream publisher.
    ///   - b: The second upstream publisher.
    @inlinable
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let merger = MergingSubscription.merging(subscriber, count: 2)
      a.subscribe(merger.child(0))
      b.subscribe(merger.child(1))
    }

    /// Merges this publisher's upstreams with another publisher into a Merge3.
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
    ) -> Publishers.Merge3<A, B, Z>
    where
      Z.Failure == Failure,
      Z.Output == Output
    {
      Publishers.Merge3(a, b, z)
    }

    /// Merges this publisher's upstreams with two publishers into a Merge4.
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
    ) -> Publishers.Merge4<A, B, Z, Y>
    where
      Z.Failure == Failure,
      Z.Output == Output,
      Y.Failure == Failure,
      Y.Output == Output
    {
      Publishers.Merge4(a, b, z, y)
    }

    /// Merges this publisher's upstreams with three publishers into a Merge5.
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
    ) -> Publishers.Merge5<A, B, Z, Y, X>
    where
      Z.Failure == Failure,
      Z.Output == Output,
      Y.Failure == Failure,
      Y.Output == Output,
      X.Failure == Failure,
      X.Output == Output
    {
      Publishers.Merge5(a, b, z, y, x)
    }

    /// Merges this publisher's upstreams with four publishers into a Merge6.
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
    ///   - w: A publisher.
    /// - Returns: A publisher that merges the elements of all its upstreams.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
      with z: Z,
      _ y: Y,
      _ x: X,
      _ w: W
    ) -> Publishers.Merge6<A, B, Z, Y, X, W>
    where
      Z.Failure == Failure,
      Z.Output == Output,
      Y.Failure == Failure,
      Y.Output == Output,
      X.Failure == Failure,
      X.Output == Output,
      W.Failure == Failure,
      W.Output == Output
    {
      Publishers.Merge6(a, b, z, y, x, w)
    }

    /// Merges this publisher's upstreams with five publishers into a Merge7.
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
    ///   - w: A publisher.
    ///   - v: A publisher.
    /// - Returns: A publisher that merges the elements of all its upstreams.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
      with z: Z,
      _ y: Y,
      _ x: X,
      _ w: W,
      _ v: V
    ) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
    where
      Z.Failure == Failure,
      Z.Output == Output,
      Y.Failure == Failure,
      Y.Output == Output,
      X.Failure == Failure,
      X.Output == Output,
      W.Failure == Failure,
      W.Output == Output,
      V.Failure == Failure,
      V.Output == Output
    {
      Publishers.Merge7(a, b, z, y, x, w, v)
    }

    /// Merges this publisher's upstreams with six publishers into a Merge8.
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
    ///   - w: A publisher.
    ///   - v: A publisher.
    ///   - u: A publisher.
    /// - Returns: A publisher that merges the elements of all its upstreams.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher>(
      with z: Z,
      _ y: Y,
      _ x: X,
      _ w: W,
      _ v: V,
      _ u: U
    ) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
    where
      Z.Failure == Failure,
      Z.Output == Output,
      Y.Failure == Failure,
      Y.Output == Output,
      X.Failure == Failure,
      X.Output == Output,
      W.Failure == Failure,
      W.Output == Output,
      V.Failure == Failure,
      V.Output == Output,
      U.Failure == Failure,
      U.Output == Output
    {
      Publishers.Merge8(a, b, z, y, x, w, v, u)
    }
  }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
