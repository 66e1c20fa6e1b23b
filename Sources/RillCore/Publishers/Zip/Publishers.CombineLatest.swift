extension Publisher {
  /// Subscribes to another publisher and publishes a tuple upon receiving output from any of the publishers.
  ///
  /// ```
  /// upstream:           -1-2--|
  /// other:              --a-b-|
  /// combineLatest(...): --ABC-|
  /// ```
  ///
  /// A = (1, a), then each new element replaces its upstream's latest.
  ///
  /// - Parameter other: Another publisher.
  /// - Returns: A publisher that emits tuples of elements from this publisher and the other.
  @inlinable
  public func combineLatest<P: Publisher>(
    _ other: P
  ) -> Publishers.CombineLatest<Self, P>
  where
    Failure == P.Failure
  {
    Publishers.CombineLatest(self, other)
  }

  /// Subscribes to another publisher and invokes a closure upon receiving output from any of the publishers.
  ///
  /// ```
  /// upstream:              -1-2--|
  /// other:                 --a-b-|
  /// combineLatest(..., f): --ABC-|
  /// ```
  ///
  /// A = f(1, a), then each new element replaces its upstream's latest.
  ///
  /// - Parameters:
  ///   - other: Another publisher.
  ///   - transform: A closure that receives the elements and returns a new value to publish.
  /// - Returns: A publisher that publishes the closure's results from this publisher and the other.
  @inlinable
  public func combineLatest<P: Publisher, T>(
    _ other: P,
    _ transform: @escaping (Output, P.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T>
  where
    Failure == P.Failure
  {
    Publishers.CombineLatest(self, other).map(transform)
  }

  /// Subscribes to two other publishers and publishes a tuple upon receiving output from any of the publishers.
  ///
  /// ```
  /// upstream:           -1--2---|
  /// p:                  --a--b--|
  /// q:                  ---x--y-|
  /// combineLatest(...): ---ABCD-|
  /// ```
  ///
  /// A = (1, a, x), then each new element replaces its upstream's latest.
  ///
  /// - Parameters:
  ///   - publisher1: Another publisher to combineLatest with this one.
  ///   - publisher2: A publisher to combineLatest with this one.
  /// - Returns: A publisher that emits tuples of elements from this publisher and the others.
  @inlinable
  public func combineLatest<P: Publisher, Q: Publisher>(
    _ publisher1: P,
    _ publisher2: Q
  ) -> Publishers.CombineLatest3<Self, P, Q>
  where
    Failure == P.Failure,
    P.Failure == Q.Failure
  {
    Publishers.CombineLatest3(self, publisher1, publisher2)
  }

  /// Subscribes to two other publishers and invokes a closure upon receiving output from any of the publishers.
  ///
  /// ```
  /// upstream:              -1--2---|
  /// p:                     --a--b--|
  /// q:                     ---x--y-|
  /// combineLatest(..., f): ---ABCD-|
  /// ```
  ///
  /// A = f(1, a, x), then each new element replaces its upstream's latest.
  ///
  /// - Parameters:
  ///   - publisher1: Another publisher to combineLatest with this one.
  ///   - publisher2: A publisher to combineLatest with this one.
  ///   - transform: A closure that receives the elements and returns a new value to publish.
  /// - Returns: A publisher that publishes the closure's results from this publisher and the others.
  @inlinable
  public func combineLatest<P: Publisher, Q: Publisher, T>(
    _ publisher1: P,
    _ publisher2: Q,
    _ transform: @escaping (Output, P.Output, Q.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
  where
    Failure == P.Failure,
    P.Failure == Q.Failure
  {
    Publishers.CombineLatest3(self, publisher1, publisher2).map(transform)
  }

  /// Subscribes to three other publishers and publishes a tuple upon receiving output from any of the publishers.
  ///
  /// ```
  /// upstream:           -1---2----|
  /// p:                  --a---b---|
  /// q:                  ---x---y--|
  /// r:                  ----u---v-|
  /// combineLatest(...): ----ABCDE-|
  /// ```
  ///
  /// A = (1, a, x, u), then each new element replaces its upstream's latest.
  ///
  /// - Parameters:
  ///   - publisher1: Another publisher to combineLatest with this one.
  ///   - publisher2: A publisher to combineLatest with this one.
  ///   - publisher3: A publisher to combineLatest with this one.
  /// - Returns: A publisher that emits tuples of elements from this publisher and the others.
  @inlinable
  public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
    _ publisher1: P,
    _ publisher2: Q,
    _ publisher3: R
  ) -> Publishers.CombineLatest4<Self, P, Q, R>
  where
    Failure == P.Failure,
    P.Failure == Q.Failure,
    Q.Failure == R.Failure
  {
    Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
  }

  /// Subscribes to three other publishers and invokes a closure upon receiving output from any of the publishers.
  ///
  /// ```
  /// upstream:              -1---2----|
  /// p:                     --a---b---|
  /// q:                     ---x---y--|
  /// r:                     ----u---v-|
  /// combineLatest(..., f): ----ABCDE-|
  /// ```
  ///
  /// A = f(1, a, x, u), then each new element replaces its upstream's latest.
  ///
  /// - Parameters:
  ///   - publisher1: Another publisher to combineLatest with this one.
  ///   - publisher2: A publisher to combineLatest with this one.
  ///   - publisher3: A publisher to combineLatest with this one.
  ///   - transform: A closure that receives the elements and returns a new value to publish.
  /// - Returns: A publisher that publishes the closure's results from this publisher and the others.
  @inlinable
  public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
    _ publisher1: P,
    _ publisher2: Q,
    _ publisher3: R,
    _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
  where
    Failure == P.Failure,
    P.Failure == Q.Failure,
    Q.Failure == R.Failure
  {
    Publishers.CombineLatest4(self, publisher1, publisher2, publisher3).map(transform)
  }
}

extension Publishers {
  /// A publisher that receives and combines the latest elements from two publishers.
  ///
  /// It emits once every upstream has produced an element and then on each new element, while downstream has
  /// demand; it finishes when every upstream has finished and fails when any upstream fails.
  ///
  /// As in Combine, a combination goes downstream on the thread of the upstream whose element made it, before that
  /// upstream's call returns. An element that arrives while a combination is being received, from inside the
  /// subscriber's `receive(_:)` or from another thread, replaces its upstream's latest element without being
  /// published, and its call returns at once; the next combination includes it. A completion from another thread
  /// waits while a combination is being received; one sent from inside `receive(_:)` arrives at once, nested.
  /// `CombineLatest3`, `CombineLatest4` and RillExt's `combineLatest(with:)` behave the same.
  public struct CombineLatest<A: Publisher, B: Publisher>: Publisher
  where
    A.Failure == B.Failure
  {
    public typealias Output = (A.Output, B.Output)

    public typealias Failure = A.Failure

    /// The first upstream publisher.
    public let a: A

    /// The second upstream publisher.
    public let b: B

    /// Creates a publisher that receives and combines the latest elements from two publishers.
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
        mode: .combineLatest,
        count: 2,
        buffers: ZipBuffers2()
      )
      a.subscribe(engine.child(0) { $0.a.replace(with: $1) })
      b.subscribe(engine.child(1) { $0.b.replace(with: $1) })
    }
  }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {
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
  /// A publisher that receives and combines the latest elements from three publishers.
  ///
  /// It emits once every upstream has produced an element and then on each new element, while downstream has
  /// demand; it finishes when every upstream has finished and fails when any upstream fails.
  public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
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

    /// Creates a publisher that receives and combines the latest elements from three publishers.
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
        mode: .combineLatest,
        count: 3,
        buffers: ZipBuffers3()
      )
      a.subscribe(engine.child(0) { $0.a.replace(with: $1) })
      b.subscribe(engine.child(1) { $0.b.replace(with: $1) })
      c.subscribe(engine.child(2) { $0.c.replace(with: $1) })
    }
  }
}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {
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
  /// A publisher that receives and combines the latest elements from four publishers.
  ///
  /// It emits once every upstream has produced an element and then on each new element, while downstream has
  /// demand; it finishes when every upstream has finished and fails when any upstream fails.
  public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
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

    /// Creates a publisher that receives and combines the latest elements from four publishers.
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
        mode: .combineLatest,
        count: 4,
        buffers: ZipBuffers4()
      )
      a.subscribe(engine.child(0) { $0.a.replace(with: $1) })
      b.subscribe(engine.child(1) { $0.b.replace(with: $1) })
      c.subscribe(engine.child(2) { $0.c.replace(with: $1) })
      d.subscribe(engine.child(3) { $0.d.replace(with: $1) })
    }
  }
}

extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {
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
