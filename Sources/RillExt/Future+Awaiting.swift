extension Future where Failure == Never, Output: Sendable {
  /// Creates a future whose result is the value an async closure returns.
  ///
  /// ```
  /// Future(awaiting: { 1 }):   -1|
  /// ```
  ///
  /// Like any `Future`, it starts its work at once, in a new task, and runs it to the end: a future is shared
  /// by its subscribers and has no owner to cancel it. A subscriber that cancels stops waiting for the result.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - operation: The async work whose result the future publishes.
  public convenience init(
    priority: TaskPriority? = nil,
    awaiting operation: @escaping @Sendable () async -> Output
  ) {
    self.init { promise in
      let fulfil = FuturePromiseHandoff(promise)
      Task(priority: priority) {
        let value = await operation()
        fulfil.call(.success(value))
      }
    }
  }
}

extension Future where Failure == any Error, Output: Sendable {
  /// Creates a future whose result is the value an async throwing closure returns, or the error it throws.
  ///
  /// ```
  /// Future(awaiting: { throw e }):   -^
  /// ```
  ///
  /// Like any `Future`, it starts its work at once: the operation runs in a new task.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - operation: The async work whose result the future publishes.
  public convenience init(
    priority: TaskPriority? = nil,
    awaiting operation: @escaping @Sendable () async throws -> Output
  ) {
    self.init { promise in
      let fulfil = FuturePromiseHandoff(promise)
      Task(priority: priority) {
        do {
          fulfil.call(.success(try await operation()))
        } catch {
          fulfil.call(.failure(error))
        }
      }
    }
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
