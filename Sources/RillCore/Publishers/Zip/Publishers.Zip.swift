extension Publisher {
  /// Combines elements from this publisher with those from another publisher, delivering pairs of elements in order as
  /// tuples.
  ///
  /// ```
  /// upstream: -1-2--|
  /// other:    --a-b-|
  /// zip(...): --A-B-|
  /// ```
  ///
  /// A = (1, a), B = (2, b).
  ///
  /// - Parameter other: Another publisher.
  /// - Returns: A publisher that emits tuples of elements from this publisher and the other.
  @inlinable
  public func zip<P: Publisher>(
    _ other: P
  ) -> Publishers.Zip<Self, P>
  where
    Failure == P.Failure
  {
    Publishers.Zip(self, other)
  }

  /// Combines elements from this publisher with those from another publisher, delivering the result of a closure
  /// applied to each group of elements in order.
  ///
  /// ```
  /// upstream:    -1-2--|
  /// other:       --a-b-|
  /// zip(..., f): --A-B-|
  /// ```
  ///
  /// A = f(1, a), B = f(2, b).
  ///
  /// - Parameters:
  ///   - other: Another publisher.
  ///   - transform: A closure that receives the elements and returns a new value to publish.
  /// - Returns: A publisher that publishes the closure's results from this publisher and the other.
  @inlinable
  public func zip<P: Publisher, T>(
    _ other: P,
    _ transform: @escaping (Output, P.Output) -> T
  ) -> Publishers.Map<Publishers.Zip<Self, P>, T>
  where
    Failure == P.Failure
  {
    Publishers.Zip(self, other).map(transform)
  }

  /// Combines elements from this publisher with those from two other publishers, delivering pairs of elements in order
  /// as tuples.
  ///
  /// ```
  /// upstream: -1--2---|
  /// p:        --a--b--|
  /// q:        ---x--y-|
  /// zip(...): ---A--B-|
  /// ```
  ///
  /// A = (1, a, x), B = (2, b, y).
  ///
  /// - Parameters:
  ///   - publisher1: Another publisher to zip with this one.
  ///   - publisher2: A publisher to zip with this one.
  /// - Returns: A publisher that emits tuples of elements from this publisher and the others.
  @inlinable
  public func zip<P: Publisher, Q: Publisher>(
    _ publisher1: P,
    _ publisher2: Q
  ) -> Publishers.Zip3<Self, P, Q>
  where
    Failure == P.Failure,
    P.Failure == Q.Failure
  {
    Publishers.Zip3(self, publisher1, publisher2)
  }

  /// Combines elements from this publisher with those from two other publishers, delivering the result of a closure
  /// applied to each group of elements in order.
  ///
  /// ```
  /// upstream:    -1--2---|
  /// p:           --a--b--|
  /// q:           ---x--y-|
  /// zip(..., f): ---A--B-|
  /// ```
  ///
  /// A = f(1, a, x), B = f(2, b, y).
  ///
  /// - Parameters:
  ///   - publisher1: Another publisher to zip with this one.
  ///   - publisher2: A publisher to zip with this one.
  ///   - transform: A closure that receives the elements and returns a new value to publish.
  /// - Returns: A publisher that publishes the closure's results from this publisher and the others.
  @inlinable
  public func zip<P: Publisher, Q: Publisher, T>(
    _ publisher1: P,
    _ publisher2: Q,
    _ transform: @escaping (Output, P.Output, Q.Output) -> T
  ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
  where
    Failure == P.Failure,
    P.Failure == Q.Failure
  {
    Publishers.Zip3(self, publisher1, publisher2).map(transform)
  }

  /// Combines elements from this publisher with those from three other publishers, delivering pairs of elements in
  /// order as tuples.
  ///
  /// ```
  /// upstream: -1---2----|
  /// p:        --a---b---|
  /// q:        ---x---y--|
  /// r:        ----u---v-|
  /// zip(...): ----A---B-|
  /// ```
  ///
  /// A = (1, a, x, u), B = (2, b, y, v).
  ///
  /// - Parameters:
  ///   - publisher1: Another publisher to zip with this one.
  ///   - publisher2: A publisher to zip with this one.
  ///   - publisher3: A publisher to zip with this one.
  /// - Returns: A publisher that emits tuples of elements from this publisher and the others.
  @inlinable
  public func zip<P: Publisher, Q: Publisher, R: Publisher>(
    _ publisher1: P,
    _ publisher2: Q,
    _ publisher3: R
  ) -> Publishers.Zip4<Self, P, Q, R>
  where
    Failure == P.Failure,
    P.Failure == Q.Failure,
    Q.Failure == R.Failure
  {
    Publishers.Zip4(self, publisher1, publisher2, publisher3)
  }

  /// Combines elements from this publisher with those from three other publishers, delivering the result of a closure
  /// applied to each group of elements in order.
  ///
  /// ```
  /// upstream:    -1---2----|
  /// p:           --a---b---|
  /// q:           ---x---y--|
  /// r:           ----u---v-|
  /// zip(..., f): ----A---B-|
  /// ```
  ///
  /// A = f(1, a, x, u), B = f(2, b, y, v).
  ///
  /// - Parameters:
  ///   - publisher1: Another publisher to zip with this one.
  ///   - publisher2: A publisher to zip with this one.
  ///   - publisher3: A publisher to zip with this one.
  ///   - transform: A closure that receives the elements and returns a new value to publish.
  /// - Returns: A publisher that publishes the closure's results from this publisher and the others.
  @inlinable
  public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
    _ publisher1: P,
    _ publisher2: Q,
    _ publisher3: R,
    _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
  ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
  where
    Failure == P.Failure,
    P.Failure == Q.Failure,
    Q.Failure == R.Failure
  {
    Publishers.Zip4(self, publisher1, publisher2, publisher3).map(transform)
  }
}

extension Publishers {
  /// A publisher created by applying the zip function to two upstream publishers.
  ///
  /// It emits a tuple as soon as every upstream has produced an element not yet used, and finishes as soon as
  /// an upstream has finished with no unused element left; it fails when any upstream fails.
  ///
  /// As in Combine, a tuple goes downstream on the thread of the upstream whose element completed it, before that
  /// upstream's call returns. An element or completion from another thread waits while a tuple is being received,
  /// then is handled on its own thread; one sent from inside the subscriber's `receive(_:)` is handled at once,
  /// nested, and a tuple it completes arrives nested too (a `.finished` sent from there arrives once `receive(_:)`
  /// has returned). So, as in Combine, a subscriber that waits inside `receive(_:)` for a thread that is sending
  /// to an upstream waits forever. `Zip3`, `Zip4` and RillExt's `zip(with:)` behave the same.
  public struct Zip<A: Publisher, B: Publisher>: Publisher
  where
    A.Failure == B.Failure
  {
    public typealias Output = (A.Output, B.Output)

    public typealias Failure = A.Failure

    /// The first upstream publisher.
    public let a: A

    /// The second upstream publisher.
    public let b: B

    /// Creates a publisher created by applying the zip function to two upstream publishers.
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
      let engine = ZipSubscription<ZipBuffers2<A.Output, B.Output>, S>.start(
        subscriber,
        mode: .zip,
        count: 2,
        buffers: ZipBuffers2()
      )
      a.subscribe(engine.child(0) { $0.a.queue($1) })
      b.subscribe(engine.child(1) { $0.b.queue($1) })
    }
  }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {
  /// Returns a Boolean value that indicates whether two publishers have equal upstreams.
  ///
  /// - Parameters:
  ///   - lhs: A publisher to compare.
  ///   - rhs: Another publisher to compare.
  /// - Returns: `true` if the corresponding upstream publishers are equal.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.a == rhs.a && lhs.b == rhs.b
  }
}

extension Publishers {
  /// A publisher created by applying the zip function to three upstream publishers.
  ///
  /// It emits a tuple as soon as every upstream has produced an element not yet used, and finishes as soon as
  /// an upstream has finished with no unused element left; it fails when any upstream fails.
  public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where
    A.Failure == B.Failure,
    B.Failure == C.Failure
  {
    public typealias Output = (A.Output, B.Output, C.Output)

    public typealias Failure = A.Failure

    /// The first upstream publisher.
    public let a: A

    /// The second upstream publisher.
    public let b: B

    /// The third upstream publisher.
    public let c: C

    /// Creates a publisher created by applying the zip function to three upstream publishers.
    ///
    /// - Parameters:
    ///   - a: The first upstream publisher.
    ///   - b: The second upstream publisher.
    ///   - c: The third upstream publisher.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = ZipSubscription<ZipBuffers3<A.Output, B.Output, C.Output>, S>.start(
        subscriber,
        mode: .zip,
        count: 3,
        buffers: ZipBuffers3()
      )
      a.subscribe(engine.child(0) { $0.a.queue($1) })
      b.subscribe(engine.child(1) { $0.b.queue($1) })
      c.subscribe(engine.child(2) { $0.c.queue($1) })
    }
  }
}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {
  /// Returns a Boolean value that indicates whether two publishers have equal upstreams.
  ///
  /// - Parameters:
  ///   - lhs: A publisher to compare.
  ///   - rhs: Another publisher to compare.
  /// - Returns: `true` if the corresponding upstream publishers are equal.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c
  }
}

extension Publishers {
  /// A publisher created by applying the zip function to four upstream publishers.
  ///
  /// It emits a tuple as soon as every upstream has produced an element not yet used, and finishes as soon as
  /// an upstream has finished with no unused element left; it fails when any upstream fails.
  public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where
    A.Failure == B.Failure,
    B.Failure == C.Failure,
    C.Failure == D.Failure
  {
    public typealias Output = (A.Output, B.Output, C.Output, D.Output)

    public typealias Failure = A.Failure

    /// The first upstream publisher.
    public let a: A

    /// The second upstream publisher.
    public let b: B

    /// The third upstream publisher.
    public let c: C

    /// The fourth upstream publisher.
    public let d: D

    /// Creates a publisher created by applying the zip function to four upstream publishers.
    ///
    /// - Parameters:
    ///   - a: The first upstream publisher.
    ///   - b: The second upstream publisher.
    ///   - c: The third upstream publisher.
    ///   - d: The fourth upstream publisher.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let engine = ZipSubscription<ZipBuffers4<A.Output, B.Output, C.Output, D.Output>, S>.start(
        subscriber,
        mode: .zip,
        count: 4,
        buffers: ZipBuffers4()
      )
      a.subscribe(engine.child(0) { $0.a.queue($1) })
      b.subscribe(engine.child(1) { $0.b.queue($1) })
      c.subscribe(engine.child(2) { $0.c.queue($1) })
      d.subscribe(engine.child(3) { $0.d.queue($1) })
    }
  }
}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {
  /// Returns a Boolean value that indicates whether two publishers have equal upstreams.
  ///
  /// - Parameters:
  ///   - lhs: A publisher to compare.
  ///   - rhs: Another publisher to compare.
  /// - Returns: `true` if the corresponding upstream publishers are equal.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d
  }
}
