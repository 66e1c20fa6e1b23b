extension TraitPublishers {
  /// A maybe publisher that runs a closure for each subscriber and publishes the outcome the closure reports.
  ///
  /// ```
  /// TraitPublishers.Maybe<Int, MarbleError> { promise in
  ///   promise(.finished)
  ///   return AnyCancellable {}
  /// }:                                           |
  /// ```
  ///
  /// It works as ``TraitPublishers/Single`` does, with a ``MaybeResult`` for the outcome: `.success(value)` publishes
  /// the value then finishes, `.finished` finishes without a value, `.failure(error)` fails.
  ///
  /// ```swift
  /// func cachedNamePublisher() -> AnyMaybePublisher<String, Never> {
  ///   TraitPublishers.Maybe { promise in
  ///     cache.lookUpName { name in promise(name.map { .success($0) } ?? .finished) }
  ///     return AnyCancellable {}
  ///   }
  ///   .eraseToAnyMaybePublisher()
  /// }
  /// ```
  ///
  /// To forward another maybe publisher, return its `sinkMaybe(receive: promise)`.
  public struct Maybe<Output, Failure: Error>: MaybePublisher {
    /// The closure that reports the job's outcome.
    public typealias Promise = (MaybeResult<Output, Failure>) -> Void

    @usableFromInline typealias Start = (@escaping Promise) -> AnyCancellable

    @usableFromInline let start: Start

    /// Creates a publisher that runs `start` for each subscriber.
    ///
    /// - Parameter start: A closure that begins the job, calls the promise with its outcome, and returns a
    ///   cancellable that stops the job or cleans up after it.
    public init(_ start: @escaping (@escaping Promise) -> AnyCancellable) {
      self.start = start
    }

    @inlinable
    public func receive<S>(subscriber: S) where S: Subscriber, S.Input == Output, S.Failure == Failure {
      subscriber.receive(subscription: Job(downstream: subscriber, context: start))
    }
  }
}

extension TraitPublishers.Maybe {
  @usableFromInline
  final class Job<Downstream: Subscriber>: TraitSubscriptions.Maybe<Downstream, Start>
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline let cleanup = TraitJobCleanup()

    @inlinable
    override func start(with start: @escaping Start) {
      cleanup.started(start { result in self.receive(result) })
    }

    @inlinable
    override func didCancel(with start: @escaping Start) {
      cleanup.end()
    }

    @inlinable
    override func didComplete(with start: @escaping Start) {
      cleanup.end()
    }
  }
}
