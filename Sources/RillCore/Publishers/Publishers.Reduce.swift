extension Publisher {
  /// Applies a closure that collects each element of a stream and publishes a final result upon completion.
  ///
  /// ```
  /// upstream:              -1-2-3-|
  /// reduce(0) { $0 + $1 }: -------[6|]
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value that the closure receives the first time it's called.
  ///   - nextPartialResult: A closure that produces a new value by taking the previously-accumulated value and the
  ///     next element it receives from the upstream publisher.
  /// - Returns: A publisher that applies the closure to all received elements and produces an accumulated value
  ///   when the upstream publisher finishes. If `reduce(_:_:)` receives an error from the upstream publisher, the
  ///   operator delivers it to the downstream subscriber, the publisher terminates and publishes no value.
  @inlinable
  public func reduce<T>(
    _ initialResult: T,
    _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Publishers.Reduce<Self, T> {
    Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }

  /// Applies an error-throwing closure that collects each element of a stream and publishes a final result upon
  /// completion.
  ///
  /// ```
  /// upstream:                 -1-2-3-|
  /// tryReduce(0) { $0 + $1 }: -------[6|]
  /// tryReduce(0) { throw e }: -^
  /// ```
  ///
  /// When the closure throws, the operator cancels upstream and fails with the thrown error.
  ///
  /// - Parameters:
  ///   - initialResult: The value that the closure receives the first time it's called.
  ///   - nextPartialResult: An error-throwing closure that takes the previously-accumulated value and the next
  ///     element from the upstream publisher to produce a new value.
  /// - Returns: A publisher that applies the closure to all received elements and produces an accumulated value
  ///   when the upstream publisher finishes.
  @inlinable
  public func tryReduce<T>(
    _ initialResult: T,
    _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryReduce<Self, T> {
    Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }
}

extension Publishers {
  /// A publisher that applies a closure to all received elements and produces an accumulated value when the
  /// upstream publisher finishes.
  public struct Reduce<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The initial value provided on the first invocation of the closure.
    public let initial: Output

    /// A closure that takes the previously-accumulated value and the next element from the upstream publisher to
    /// produce a new value.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// Creates a publisher that applies a closure to all received elements and produces an accumulated value when
    /// the upstream publisher finishes.
    @inlinable
    public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
      let rule = ReduceRule<Upstream.Output, Output, Failure>(initial: initial, next: nextPartialResult)
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }

  /// A publisher that applies an error-throwing closure to all received elements and produces an accumulated value
  /// when the upstream publisher finishes.
  public struct TryReduce<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The initial value provided on the first invocation of the closure.
    public let initial: Output

    /// An error-throwing closure that takes the previously-accumulated value and the next element from the upstream
    /// to produce a new value.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// Creates a publisher that applies an error-throwing closure to all received elements and produces an
    /// accumulated value when the upstream publisher finishes.
    @inlinable
    public init(
      upstream: Upstream,
      initial: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
      let rule = TryReduceRule<Upstream.Output, Output, Upstream.Failure>(initial: initial, next: nextPartialResult)
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }
}

@usableFromInline
struct ReduceRule<Input, Output, Failure: Error>: ReducingRule {
  @usableFromInline typealias UpstreamFailure = Failure

  @usableFromInline let initial: Output
  @usableFromInline let next: (Output, Input) -> Output

  @inlinable
  init(initial: Output, next: @escaping (Output, Input) -> Output) {
    self.initial = initial
    self.next = next
  }

  @usableFromInline var name: String { "Reduce" }

  @inlinable
  func fold(_ partial: inout Output, _ input: Input) -> ReducingStep<Failure> {
    partial = next(partial, input)
    return .proceed
  }

  @inlinable
  func result(_ partial: consuming Output) -> Output? { partial }
}

@usableFromInline
struct TryReduceRule<Input, Output, UpstreamFailure: Error>: ReducingRule {
  @usableFromInline typealias Failure = any Error

  @usableFromInline let initial: Output
  @usableFromInline let next: (Output, Input) throws -> Output

  @inlinable
  init(initial: Output, next: @escaping (Output, Input) throws -> Output) {
    self.initial = initial
    self.next = next
  }

  @usableFromInline var name: String { "TryReduce" }

  @inlinable
  func fold(_ partial: inout Output, _ input: Input) -> ReducingStep<any Error> {
    do {
      partial = try next(partial, input)
      return .proceed
    } catch {
      return .fail(error)
    }
  }

  @inlinable
  func result(_ partial: consuming Output) -> Output? { partial }

  @inlinable
  func failure(_ error: UpstreamFailure) -> any Error { error }
}
