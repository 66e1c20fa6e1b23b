extension Future where Failure == Never, Output: Sendable {
  /// Creates a future whose result is the value an async closure returns.
  ///
  /// ```
  /// Future(awaiting: { 1 }):   -1|
  /// ```
  ///
  /// Like any `Future`, it starts its work at once, in a new task, and shares its one result among all its
  /// subscribers. The work stops when nobody can receive its result any more: once every subscriber that
  /// attached has cancelled before the result arrived, the task is cancelled, which the operation sees through
  /// `Task.isCancelled`, `Task.checkCancellation()` or `withTaskCancellationHandler`. Whatever the operation
  /// then returns becomes the result that later subscribers receive. A future nobody subscribes to runs its
  /// work to the end.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - operation: The async work whose result the future publishes.
  public convenience init(
    priority: TaskPriority? = nil,
    awaiting operation: @escaping @Sendable () async -> Output
  ) {
    let handle = FutureTaskHandle()
    self.init { promise in
      let fulfil = FuturePromiseHandoff(promise)
      handle.task = Task(priority: priority) {
        let value = await operation()
        fulfil.call(.success(value))
      }
    }
    whenAbandoned(handle.cancel)
  }
}

extension Future where Failure == any Error, Output: Sendable {
  /// Creates a future whose result is the value an async throwing closure returns, or the error it throws.
  ///
  /// ```
  /// Future(awaiting: { throw e }):   -^
  /// ```
  ///
  /// Like any `Future`, it starts its work at once, in a new task, and shares its one result among all its
  /// subscribers. The work stops when nobody can receive its result any more: once every subscriber that
  /// attached has cancelled before the result arrived, the task is cancelled, which the operation sees through
  /// `Task.isCancelled`, `Task.checkCancellation()` or `withTaskCancellationHandler`. What the operation then
  /// returns or throws, typically `CancellationError`, becomes the result that later subscribers receive. A
  /// future nobody subscribes to runs its work to the end.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - operation: The async work whose result the future publishes.
  public convenience init(
    priority: TaskPriority? = nil,
    awaiting operation: @escaping @Sendable () async throws -> Output
  ) {
    let handle = FutureTaskHandle()
    self.init { promise in
      let fulfil = FuturePromiseHandoff(promise)
      handle.task = Task(priority: priority) {
        do {
          fulfil.call(.success(try await operation()))
        } catch {
          fulfil.call(.failure(error))
        }
      }
    }
    whenAbandoned(handle.cancel)
  }
}

/// Carries a future's promise into the task that fulfils it.
// SAFETY: the promise is thread-safe: `Future` keeps the first result and ignores later calls.
private final class FuturePromiseHandoff<Output, Failure: Error>: @unchecked Sendable {
  private let promise: (Result<Output, Failure>) -> Void

  init(_ promise: @escaping (Result<Output, Failure>) -> Void) {
    self.promise = promise
  }

  func call(_ result: Result<Output, Failure>) {
    promise(result)
  }
}

/// The task of an awaiting future, kept for the future's abandonment hook.
// SAFETY: `task` is written once, inside `Future.init`, before the future exists for anyone else, so before
// the abandonment hook can run and read it.
private final class FutureTaskHandle: @unchecked Sendable {
  var task: Task<Void, Never>?

  @Sendable func cancel() {
    task?.cancel()
  }
}
