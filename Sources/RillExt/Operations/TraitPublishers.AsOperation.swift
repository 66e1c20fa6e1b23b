public import Foundation

extension SinglePublisher {
  /// Runs this publisher in an operation of `operationQueue`, one operation per subscription.
  ///
  /// ```
  /// upstream:     --1--|
  /// asOperation:  --1|        (once the queue starts the operation)
  /// ```
  ///
  /// When it gets demand, the subscription adds a ``SinglePublisherOperation`` to the queue; the operation
  /// subscribes to this publisher when the queue starts it, and the subscription publishes the operation's outcome.
  /// On a queue whose `maxConcurrentOperationCount` is 1, this runs single publishers one after the other:
  ///
  /// ```swift
  /// let serialQueue = OperationQueue(qualityOfService: .utility, maxConcurrentOperationCount: 1)
  /// let first = upload(a).asOperation(in: serialQueue)
  /// let second = upload(b).asOperation(in: serialQueue)  // starts when the first upload is done
  /// ```
  ///
  /// Cancelling the subscription cancels the operation, which cancels its subscription to this publisher. If the
  /// operation is cancelled by other means (such as the queue's `cancelAllOperations()`), the subscription ends
  /// without a completion. Use `receive(on:options:)` to choose the thread of the outcome, which is otherwise the
  /// operation's.
  ///
  /// - Parameters:
  ///   - operationQueue: The queue that runs the operations.
  ///   - queuePriority: The priority of the operations in the queue. Defaults to `.normal`.
  /// - Returns: A single publisher of this publisher's outcome.
  public func asOperation(
    in operationQueue: OperationQueue,
    queuePriority: Operation.QueuePriority = .normal
  ) -> TraitPublishers.AsOperation<Self> {
    TraitPublishers.AsOperation(upstream: self, operationQueue: operationQueue, queuePriority: queuePriority)
  }
}

extension TraitPublishers {
  /// A single publisher that runs its upstream single publisher in an operation of an operation queue.
  ///
  /// Made by ``SinglePublisher/asOperation(in:queuePriority:)``.
  public struct AsOperation<Upstream: SinglePublisher>: SinglePublisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher each operation subscribes to.
    public let upstream: Upstream

    /// The queue that runs the operations.
    public let operationQueue: OperationQueue

    /// The priority of the operations in the queue.
    public let queuePriority: Operation.QueuePriority

    /// Creates a publisher that runs `upstream` in an operation of `operationQueue` for each subscription.
    ///
    /// - Parameters:
    ///   - upstream: The publisher each operation subscribes to.
    ///   - operationQueue: The queue that runs the operations.
    ///   - queuePriority: The priority of the operations in the queue.
    public init(upstream: Upstream, operationQueue: OperationQueue, queuePriority: Operation.QueuePriority) {
      self.upstream = upstream
      self.operationQueue = operationQueue
      self.queuePriority = queuePriority
    }

    public func receive<S>(subscriber: S) where S: Subscriber, S.Input == Output, S.Failure == Failure {
      subscriber.receive(subscription: Inner(self, downstream: subscriber))
    }
  }
}

extension TraitPublishers.AsOperation: Sendable where Upstream: Sendable {}

extension TraitPublishers.AsOperation {
  /// The subscription: adds an operation on the first demand, and publishes its outcome.
  // SAFETY: the mutable state is in `state`; the queue, the operation and downstream are called outside the lock.
  private final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    private enum State {
      case awaitingDemand(TraitPublishers.AsOperation<Upstream>, Downstream)
      case running(SinglePublisherOperation<Upstream>, Downstream)
      case terminal
    }

    private let state: Locked<State>

    init(_ publisher: TraitPublishers.AsOperation<Upstream>, downstream: Downstream) {
      state = Locked(.awaitingDemand(publisher, downstream))
    }

    var description: String { "AsOperation" }

    func request(_ demand: Subscribers.Demand) {
      guard demand > .none else { return }
      let start: (TraitPublishers.AsOperation<Upstream>, SinglePublisherOperation<Upstream>)? = state.withLock {
        state in
        guard case .awaitingDemand(let publisher, let downstream) = state else { return nil }
        let operation = publisher.upstream.makeOperation()
        state = .running(operation, downstream)
        return (publisher, operation)
      }
      guard let (publisher, operation) = start else { return }
      operation.queuePriority = publisher.queuePriority
      operation.handleCompletion(onQueue: nil) { [weak self] result in
        self?.operationDidComplete(with: result)
      }
      publisher.operationQueue.addOperation(operation)
    }

    func cancel() {
      // The previous state leaves the lock, so that downstream and the operation are released outside it.
      let previous = terminate()
      if case .running(let operation, _) = previous { operation.cancel() }
    }

    private func operationDidComplete(with result: Result<Output, Failure>?) {
      guard case .running(_, let downstream) = terminate() else { return }
      switch result {
      case .success(let value)?:
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
      case .failure(let error)?:
        downstream.receive(completion: .failure(error))
      case nil:
        // The operation was cancelled without this subscription being cancelled: end silently.
        break
      }
    }

    private func terminate() -> State {
      state.withLock { state in
        defer { state = .terminal }
        return state
      }
    }
  }
}
