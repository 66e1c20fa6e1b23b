extension SinglePublisher {
  /// Makes an operation that subscribes to this publisher when it starts, and finishes with its outcome.
  ///
  /// ```
  /// upstream:   --1--|        -----^
  /// operation:  --'finished with success(1)'  -----'finished with failure'
  /// ```
  ///
  /// ```swift
  /// let operation = downloadPublisher.makeOperation()
  /// operation.handleCompletion(onQueue: nil) { result in print(result as Any) }
  /// queue.addOperation(operation)
  /// ```
  ///
  /// The publisher is subscribed on the thread that starts the operation; use `subscribe(on:options:)` to choose
  /// another. Cancelling the operation cancels the subscription.
  ///
  /// - Returns: An operation that has not started yet.
  public func makeOperation() -> SinglePublisherOperation<Self> {
    SinglePublisherOperation(self)
  }
}

/// An operation that subscribes to a single publisher when it starts, and finishes with the publisher's outcome.
///
/// Make one with ``SinglePublisher/makeOperation()``. Its ``AsynchronousOperation/result`` is the publisher's
/// value or failure once the operation is finished, and `nil` if it was cancelled. Cancelling the operation cancels
/// the subscription; an operation cancelled before it starts never subscribes.
// SAFETY: the mutable state is in `state`; the publisher is subscribed, and the subscription cancelled, outside the
// lock.
public final class SinglePublisherOperation<Upstream: SinglePublisher>:
  AsynchronousOperation<Upstream.Output, Upstream.Failure>, @unchecked Sendable
{
  private struct State {
    var upstream: Upstream?
    var subscription: AnyCancellable?
    var isCancelled = false
  }

  private let state: Locked<State>

  init(_ upstream: Upstream) {
    state = Locked(State(upstream: upstream))
  }

  /// Subscribes to the publisher; an operation queue calls it through `start()`.
  override public func main() {
    guard let upstream = state.withLock({ $0.upstream.take() }) else { return }
    let subscription = upstream.sinkSingle { [weak self] result in
      self?.finish(with: result)
    }
    let cancelledMeanwhile: Bool = state.withLock { state in
      if state.isCancelled { return true }
      state.subscription = subscription
      return false
    }
    if cancelledMeanwhile { subscription.cancel() }
  }

  /// Cancels the operation and the subscription to the publisher.
  override public func cancel() {
    super.cancel()
    let change = state.withLock { state in
      state.isCancelled = true
      return (state.upstream.take(), state.subscription.take())
    }
    // The publisher is released, and the subscription cancelled, outside the lock.
    change.1?.cancel()
    _ = change.0
  }
}
