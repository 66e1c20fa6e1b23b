extension Publisher {
  /// Combines elements from this publisher with those from one other publisher, delivering an interleaved
  /// sequence of elements.
  ///
  /// ```
  /// upstream:  -1--|
  /// b:         --2-|
  /// merge:     -12-|
  /// ```
  ///
  /// - Parameter other: Another publisher.
  /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
  @inlinable
  public func merge<P: Publisher>(
    with other: P
  ) -> Publishers.Merge<Self, P>
  where
    Failure == P.Failure,
    Output == P.Output
  {
    Publishers.Merge(self, other)
  }

  /// Combines elements from this publisher with those from two other publishers, delivering an interleaved
  /// sequence of elements.
  ///
  /// ```
  /// upstream:  -1---|
  /// b:         --2--|
  /// c:         ---3-|
  /// merge:     -123-|
  /// ```
  ///
  /// - Parameters:
  ///   - b: Another publisher.
  ///   - c: A publisher.
  /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
  @inlinable
  public func merge<B: Publisher, C: Publisher>(
    with b: B,
    _ c: C
  ) -> Publishers.Merge3<Self, B, C>
  where
    Failure == B.Failure,
    Output == B.Output,
    Failure == C.Failure,
    Output == C.Output
  {
    Publishers.Merge3(self, b, c)
  }

  /// Combines elements from this publisher with those from three other publishers, delivering an interleaved
  /// sequence of elements.
  ///
  /// ```
  /// upstream:  -1----|
  /// b:         --2---|
  /// c:         ---3--|
  /// d:         ----4-|
  /// merge:     -1234-|
  /// ```
  ///
  /// - Parameters:
  ///   - b: Another publisher.
  ///   - c: A publisher.
  ///   - d: A publisher.
  /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
  @inlinable
  public func merge<B: Publisher, C: Publisher, D: Publisher>(
    with b: B,
    _ c: C,
    _ d: D
  ) -> Publishers.Merge4<Self, B, C, D>
  where
    Failure == B.Failure,
    Output == B.Output,
    Failure == C.Failure,
    Output == C.Output,
    Failure == D.Failure,
    Output == D.Output
  {
    Publishers.Merge4(self, b, c, d)
  }

  /// Combines elements from this publisher with those from four other publishers, delivering an interleaved
  /// sequence of elements.
  ///
  /// ```
  /// upstream:  -1-----|
  /// b:         --2----|
  /// c:         ---3---|
  /// d:         ----4--|
  /// e:         -----5-|
  /// merge:     -12345-|
  /// ```
  ///
  /// - Parameters:
  ///   - b: Another publisher.
  ///   - c: A publisher.
  ///   - d: A publisher.
  ///   - e: A publisher.
  /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
  @inlinable
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
    with b: B,
    _ c: C,
    _ d: D,
    _ e: E
  ) -> Publishers.Merge5<Self, B, C, D, E>
  where
    Failure == B.Failure,
    Output == B.Output,
    Failure == C.Failure,
    Output == C.Output,
    Failure == D.Failure,
    Output == D.Output,
    Failure == E.Failure,
    Output == E.Output
  {
    Publishers.Merge5(self, b, c, d, e)
  }

  /// Combines elements from this publisher with those from five other publishers, delivering an interleaved
  /// sequence of elements.
  ///
  /// ```
  /// upstream:  -1------|
  /// b:         --2-----|
  /// c:         ---3----|
  /// d:         ----4---|
  /// e:         -----5--|
  /// f:         ------6-|
  /// merge:     -123456-|
  /// ```
  ///
  /// - Parameters:
  ///   - b: Another publisher.
  ///   - c: A publisher.
  ///   - d: A publisher.
  ///   - e: A publisher.
  ///   - f: A publisher.
  /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
  @inlinable
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
    with b: B,
    _ c: C,
    _ d: D,
    _ e: E,
    _ f: F
  ) -> Publishers.Merge6<Self, B, C, D, E, F>
  where
    Failure == B.Failure,
    Output == B.Output,
    Failure == C.Failure,
    Output == C.Output,
    Failure == D.Failure,
    Output == D.Output,
    Failure == E.Failure,
    Output == E.Output,
    Failure == F.Failure,
    Output == F.Output
  {
    Publishers.Merge6(self, b, c, d, e, f)
  }

  /// Combines elements from this publisher with those from six other publishers, delivering an interleaved
  /// sequence of elements.
  ///
  /// ```
  /// upstream:  -1-------|
  /// b:         --2------|
  /// c:         ---3-----|
  /// d:         ----4----|
  /// e:         -----5---|
  /// f:         ------6--|
  /// g:         -------7-|
  /// merge:     -1234567-|
  /// ```
  ///
  /// - Parameters:
  ///   - b: Another publisher.
  ///   - c: A publisher.
  ///   - d: A publisher.
  ///   - e: A publisher.
  ///   - f: A publisher.
  ///   - g: A publisher.
  /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
  @inlinable
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
    with b: B,
    _ c: C,
    _ d: D,
    _ e: E,
    _ f: F,
    _ g: G
  ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
  where
    Failure == B.Failure,
    Output == B.Output,
    Failure == C.Failure,
    Output == C.Output,
    Failure == D.Failure,
    Output == D.Output,
    Failure == E.Failure,
    Output == E.Output,
    Failure == F.Failure,
    Output == F.Output,
    Failure == G.Failure,
    Output == G.Output
  {
    Publishers.Merge7(self, b, c, d, e, f, g)
  }

  /// Combines elements from this publisher with those from seven other publishers, delivering an interleaved
  /// sequence of elements.
  ///
  /// ```
  /// upstream:  -1--------|
  /// b:         --2-------|
  /// c:         ---3------|
  /// d:         ----4-----|
  /// e:         -----5----|
  /// f:         ------6---|
  /// g:         -------7--|
  /// h:         --------8-|
  /// merge:     -12345678-|
  /// ```
  ///
  /// - Parameters:
  ///   - b: Another publisher.
  ///   - c: A publisher.
  ///   - d: A publisher.
  ///   - e: A publisher.
  ///   - f: A publisher.
  ///   - g: A publisher.
  ///   - h: An publisher.
  /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
  @inlinable
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
    with b: B,
    _ c: C,
    _ d: D,
    _ e: E,
    _ f: F,
    _ g: G,
    _ h: H
  ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
  where
    Failure == B.Failure,
    Output == B.Output,
    Failure == C.Failure,
    Output == C.Output,
    Failure == D.Failure,
    Output == D.Output,
    Failure == E.Failure,
    Output == E.Output,
    Failure == F.Failure,
    Output == F.Output,
    Failure == G.Failure,
    Output == G.Output,
    Failure == H.Failure,
    Output == H.Output
  {
    Publishers.Merge8(self, b, c, d, e, f, g, h)
  }
}

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
