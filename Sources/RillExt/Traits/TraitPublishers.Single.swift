extension TraitPublishers {
  /// A single publisher that runs a closure for each subscriber and publishes the result the closure reports.
  ///
  /// ```
  /// TraitPublishers.Single<Int, MarbleError> { promise in
  ///   promise(.success(1))
  ///   return AnyCancellable {}
  /// }:                                           [1|]
  /// ```
  ///
  /// Wrap callback-based work in it:
  ///
  /// ```swift
  /// func namePublisher() -> AnySinglePublisher<String, any Error> {
  ///   TraitPublishers.Single { promise in
  ///     let request = service.fetchName { result in promise(result) }
  ///     return AnyCancellable { request.cancel() }
  ///   }
  ///   .eraseToAnySinglePublisher()
  /// }
  /// ```
  ///
  /// Nothing runs before a subscriber asks for the value: each subscription runs `start` once, at its first
  /// demand, so each subscriber gets its own job (a deferred future). The closure may call `promise` at once or
  /// later, from any thread; only the first call counts. The cancellable it returns is cancelled when the subscriber
  /// cancels before the outcome, and when the outcome arrives, so put the job's clean-up in it.
  ///
  /// To forward another single publisher, return its `sinkSingle(receive: promise)`.
  public struct Single<Output, Failure: Error>: SinglePublisher {
    /// The closure that reports the job's outcome.
    public typealias Promise = (Result<Output, Failure>) -> Void

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

extension TraitPublishers.Single {
  @usableFromInline
  final class Job<Downstream: Subscriber>: TraitSubscriptions.Single<Downstream, Start>
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
