extension Publisher {
  /// Transforms elements from the upstream publisher by providing the current element to a closure along with
  /// the last value returned by the closure.
  ///
  /// ```
  /// upstream:        -1-2-3-|
  /// scan(0) { $0 + $1 }: -1-3-6-|
  /// ```
  ///
  /// Each subscription keeps its own running result, starting from `initialResult`.
  ///
  /// - Parameters:
  ///   - initialResult: The previous result returned by the `nextPartialResult` closure.
  ///   - nextPartialResult: A closure that takes as its arguments the previous value returned by the closure
  ///     and the next element emitted from the upstream publisher.
  /// - Returns: A publisher that transforms elements by applying a closure that receives its previous return
  ///   value and the next element from the upstream publisher.
  @inlinable
  public func scan<T>(
    _ initialResult: T,
    _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Publishers.Scan<Self, T> {
    Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }

  /// Transforms elements from the upstream publisher by providing the current element to an error-throwing
  /// closure along with the last value returned by the closure.
  ///
  /// ```
  /// upstream:                       -1-2-3-|
  /// tryScan(0) { try add($0, $1) }: -1-3-^
  /// ```
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
  ///
  /// - Parameters:
  ///   - initialResult: The previous result returned by the `nextPartialResult` closure.
  ///   - nextPartialResult: An error-throwing closure that takes as its arguments the previous value returned by
  ///     the closure and the next element emitted from the upstream publisher.
  /// - Returns: A publisher that transforms elements by applying a closure that receives its previous return
  ///   value and the next element from the upstream publisher.
  public func tryScan<T>(
    _ initialResult: T,
    _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryScan<Self, T> {
    Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }
}

extension Publishers {
  /// A publisher that transforms elements by applying a closure to each, along with the closure's previous result.
  public struct Scan<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The previous result returned by the `nextPartialResult` closure.
    public let initialResult: Output

    /// An error-throwing closure that takes as its arguments the previous value returned by the closure and the
    /// next element emitted from the upstream publisher.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// Creates a publisher that transforms elements by applying a closure that receives its previous return value
    /// and the next element from the upstream publisher.
    public init(
      upstream: Upstream,
      initialResult: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
      upstream.subscribe(Inner(downstream: subscriber, initialResult: initialResult, next: nextPartialResult))
    }
  }
}

extension Publishers {
  /// A publisher that transforms elements by applying an error-throwing closure to each, along with the closure's
  /// previous result.
  public struct TryScan<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The previous result returned by the `nextPartialResult` closure.
    public let initialResult: Output

    /// An error-throwing closure that takes as its arguments the previous value returned by the closure and the
    /// next element emitted from the upstream publisher.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// Creates a publisher that transforms elements by applying an error-throwing closure that receives its
    /// previous return value and the next element from the upstream publisher.
    public init(
      upstream: Upstream,
      initialResult: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
      let next = nextPartialResult
      upstream.subscribe(
        FilteringInner(
          "TryScan",
          downstream: subscriber,
          memory: initialResult,
          traits: FilteringTraits(forwardsEveryElement: true, earlyCancelEndsLink: false) { downstream, result, link in
            [("downstream", downstream), ("status", link), ("result", result)]
          },
          convertFailure: { $0 }
        ) {
          result,
          input in
          do {
            result = try next(result, input)
            return .send(result)
          } catch {
            return .fail(error)
          }
        }
      )
    }
  }
}

extension Publishers.Scan {
  // SAFETY: the running result is in `result`; the closure and downstream are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let next: (Output, Upstream.Output) -> Output
    @usableFromInline let result: Locked<Output>

    @inlinable
    init(downstream: Downstream, initialResult: Output, next: @escaping (Output, Upstream.Output) -> Output) {
      self.downstream = downstream
      self.next = next
      result = Locked(initialResult)
    }

    @usableFromInline var description: String { "Scan" }

    @usableFromInline var customMirror: Mirror {
      Mirror(self, children: ["downstream": downstream, "result": result.withLock { $0 }])
    }

    @inlinable
    func receive(subscription: any Subscription) {
      downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let previous = result.withLock { $0 }
      let value = next(previous, input)
      // The result it replaces is handed back and released after unlocking.
      let replaced = result.withLock { result in
        defer { result = value }
        return result
      }
      _ = replaced
      return downstream.receive(value)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      downstream.receive(completion: completion)
    }
  }
}
