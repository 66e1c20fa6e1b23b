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
  ///   - h: A publisher.
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
