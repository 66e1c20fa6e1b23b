public import Dispatch
public import Foundation

/// An `Operation` that ends when it is given a result or is cancelled, not when `main()` returns.
///
/// An operation queue starts it like any operation; it stays executing until ``finish(with:)`` or `cancel()`, from
/// any thread, so that it can wrap asynchronous work:
///
/// ```swift
/// final class DownloadOperation: AsynchronousOperation<Data, any Error> {
///   override func main() {
///     download { result in self.finish(with: result) }
///   }
/// }
///
/// let operation = DownloadOperation()
/// operation.handleCompletion(onQueue: nil) { result in print(result as Any) }
/// queue.addOperation(operation)
/// ```
///
/// ``blockOperation(_:)`` makes one from a closure instead of a subclass.
///
/// The operation may get its result, or be cancelled, before a queue starts it; it then finishes as soon as it
/// is started, without calling `main()`. ``result`` is `nil` until the operation has a result, and stays `nil`
/// for a cancelled operation. The first of ``finish(with:)`` and `cancel()` wins; later calls do nothing.
///
/// The `isExecuting`, `isFinished` and `isCancelled` changes are announced with `willChangeValue(forKey:)` and
/// `didChangeValue(forKey:)`, which both Darwin's and swift-corelibs-foundation's operation queues watch. They are
/// announced after the state has changed and outside any lock, so an observer may call back into the operation.
/// CombineTraits announces them around the change instead, and calls `main()` and ``didComplete()`` while holding
/// its lock.
// SAFETY: all mutable state lives in `state`; `main()`, `didComplete()` and the change notifications run outside
// the lock.
open class AsynchronousOperation<Output, Failure: Error>: Operation, @unchecked Sendable {
  private enum Phase {
    /// Not started, no result.
    case ready
    /// Started, no result.
    case executing
    /// Given a result or cancelled before being started: finishes when started.
    case completedBeforeStart
    /// Done.
    case finished
  }

  private struct State {
    var phase = Phase.ready
    var result: Result<Output, Failure>?
    var isCancelled = false
  }

  private let state = Locked(State())

  /// The operation's result, or `nil` while it has none and when it was cancelled.
  public var result: Result<Output, Failure>? {
    state.withLock { $0.result }
  }

  /// Finishes the operation with the given result.
  ///
  /// Does nothing if the operation already has a result or was cancelled. Called before a queue starts the
  /// operation, it keeps the result, and the operation finishes when it is started.
  ///
  /// - Parameter result: The operation's result.
  public func finish(with result: Result<Output, Failure>) {
    let wasExecuting: Bool? = state.withLock { state in
      switch state.phase {
      case .ready:
        state.phase = .completedBeforeStart
      case .executing:
        state.phase = .finished
      case .completedBeforeStart, .finished:
        return nil
      }
      state.result = result
      return state.phase == .finished
    }
    guard let wasExecuting else { return }
    if wasExecuting { announceFinished() }
    didComplete()
  }

  /// Cancels the operation, which finishes at once if it is executing, or as soon as it is started otherwise.
  ///
  /// Does nothing if the operation already has a result. Subclasses that override it must call `super.cancel()`.
  override open func cancel() {
    let change: (wasExecuting: Bool, newlyCancelled: Bool)? = state.withLock { state in
      let wasExecuting: Bool
      switch state.phase {
      case .ready:
        state.phase = .completedBeforeStart
        wasExecuting = false
      case .executing:
        state.phase = .finished
        wasExecuting = true
      case .completedBeforeStart, .finished:
        return nil
      }
      defer { state.isCancelled = true }
      return (wasExecuting, !state.isCancelled)
    }
    guard let change else { return }
    if change.newlyCancelled {
      willChangeValue(forKey: "isCancelled")
      didChangeValue(forKey: "isCancelled")
    }
    if change.wasExecuting {
      super.cancel()
      announceFinished()
    }
    didComplete()
  }

  /// Sets the operation's `completionBlock` so that it calls `resultHandler` with the operation's result.
  ///
  /// `resultHandler` runs once the operation is finished, with its result, or with `nil` when it was cancelled.
  /// It runs on `queue`, or right inside the completion block when `queue` is `nil`. It may refer to the operation
  /// without keeping it alive after completion.
  ///
  /// On Linux the main queue runs only when the main thread serves it (`dispatchMain()`, a run loop); pass `nil`
  /// or another queue when it does not.
  ///
  /// - Parameters:
  ///   - queue: The queue that runs `resultHandler`, or `nil` to run it inside the completion block. Defaults to
  ///     the main queue.
  ///   - resultHandler: The closure that receives the operation's result, `nil` if it was cancelled.
  public func handleCompletion(
    onQueue queue: DispatchQueue? = DispatchQueue.main,
    result resultHandler: @escaping (_ result: Result<Output, Failure>?) -> Void
  ) {
    let handler = CompletionHandler(resultHandler)
    completionBlock = { [weak self] in
      guard let self else { return }
      let delivery = CompletionDelivery(handler: handler, result: self.result)
      if let queue {
        queue.async { delivery.run() }
      } else {
        delivery.run()
      }
    }
  }

  /// Makes an operation that calls `block` with itself when it starts.
  ///
  /// ```swift
  /// let operation = AsynchronousOperation<Int, Never>.blockOperation { operation in
  ///   compute { value in operation.finish(with: .success(value)) }
  /// }
  /// ```
  ///
  /// The block must eventually finish or cancel the operation it is given.
  ///
  /// - Parameter block: The closure that runs when the operation starts.
  /// - Returns: A new operation.
  public static func blockOperation(
    _ block: @escaping (AsynchronousOperation<Output, Failure>) -> Void
  ) -> AsynchronousOperation<Output, Failure> {
    AsynchronousBlockOperation(block)
  }

  /// Starts the operation; override `main()`, not this method.
  ///
  /// Calls `main()` unless the operation already has a result or was cancelled, in which case it finishes at
  /// once. Starting an operation a second time does nothing.
  override public func start() {
    let shouldRun: Bool? = state.withLock { state in
      switch state.phase {
      case .ready:
        state.phase = .executing
        return true
      case .completedBeforeStart:
        state.phase = .finished
        return false
      case .executing, .finished:
        return nil
      }
    }
    switch shouldRun {
    case true?:
      willChangeValue(forKey: "isExecuting")
      didChangeValue(forKey: "isExecuting")
      main()
    case false?:
      willChangeValue(forKey: "isFinished")
      didChangeValue(forKey: "isFinished")
    case nil:
      break
    }
  }

  /// Called once, after the operation got its result or was cancelled; does nothing unless overridden.
  ///
  /// It may run before the operation is finished: an operation can get its result, or be cancelled, before a queue
  /// starts it.
  open func didComplete() {}

  override public var isAsynchronous: Bool { true }

  override public var isExecuting: Bool {
    state.withLock { $0.phase == .executing }
  }

  override public var isFinished: Bool {
    state.withLock { $0.phase == .finished }
  }

  override public var isCancelled: Bool {
    state.withLock { $0.isCancelled }
  }

  private func announceFinished() {
    willChangeValue(forKey: "isExecuting")
    willChangeValue(forKey: "isFinished")
    didChangeValue(forKey: "isFinished")
    didChangeValue(forKey: "isExecuting")
  }
}

/// The operation of ``AsynchronousOperation/blockOperation(_:)``.
// SAFETY: the block is taken out of `block` under its lock, and called outside it, once.
private final class AsynchronousBlockOperation<Output, Failure: Error>: AsynchronousOperation<Output, Failure>,
  @unchecked Sendable
{
  private let block: Locked<((AsynchronousOperation<Output, Failure>) -> Void)?>

  init(_ block: @escaping (AsynchronousOperation<Output, Failure>) -> Void) {
    self.block = Locked(block)
  }

  override func main() {
    guard let block = block.withLock({ $0.take() }) else { return }
    block(self)
  }
}

/// Carries a result handler into an operation's completion block, and lets go of it once it has run, so that a
/// handler that refers to the operation does not keep it alive.
// SAFETY: the handler lives in `handler` and is taken out of it under its lock, then called outside it, once.
private final class CompletionHandler<Output, Failure: Error>: @unchecked Sendable {
  private let handler: Locked<((Result<Output, Failure>?) -> Void)?>

  init(_ handler: @escaping (Result<Output, Failure>?) -> Void) {
    self.handler = Locked(handler)
  }

  func call(_ result: Result<Output, Failure>?) {
    guard let handler = handler.withLock({ $0.take() }) else { return }
    handler(result)
  }
}

/// An operation's result on its way to the result handler.
// SAFETY: immutable; created in the completion block and run once, on the queue it is handed to.
private final class CompletionDelivery<Output, Failure: Error>: @unchecked Sendable {
  private let handler: CompletionHandler<Output, Failure>
  private let result: Result<Output, Failure>?

  init(handler: CompletionHandler<Output, Failure>, result: Result<Output, Failure>?) {
    self.handler = handler
    self.result = result
  }

  func run() {
    handler.call(result)
  }
}
