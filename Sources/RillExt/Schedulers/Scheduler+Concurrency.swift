public import RillCore

extension Scheduler {
  /// Suspends the current task until `duration` has passed on this scheduler.
  ///
  /// The scheduler's thread is not blocked: the task resumes from an action scheduled on it, so on a
  /// ``TestScheduler`` the sleep ends when a test advances the clock past it.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let task = Task { try await scheduler.sleep(for: .seconds(1)) }
  /// await scheduler.advance(by: .seconds(1))   // the task's sleep ends
  /// try await task.value
  /// ```
  ///
  /// - Parameters:
  ///   - duration: How long to sleep.
  ///   - tolerance: How late the task may resume; zero by default.
  ///   - options: Options for the scheduler.
  /// - Throws: `CancellationError` if the task is cancelled, before or during the sleep.
  public func sleep(
    for duration: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride = .zero,
    options: SchedulerOptions? = nil
  ) async throws {
    try Task.checkCancellation()
    // Dropping the stream after its first value ends it, and that cancels the scheduled action.
    _ = await timer(interval: duration, tolerance: tolerance, options: options).first { _ in true }
    try Task.checkCancellation()
  }

  /// Suspends the current task until this scheduler's clock reaches `deadline`.
  ///
  /// ```swift
  /// try await scheduler.sleep(until: scheduler.now.advanced(by: .seconds(1)))
  /// ```
  ///
  /// - Parameters:
  ///   - deadline: The time to resume at; a time in the past resumes on the scheduler's next turn.
  ///   - tolerance: How late the task may resume; zero by default.
  ///   - options: Options for the scheduler.
  /// - Throws: `CancellationError` if the task is cancelled, before or during the sleep.
  public func sleep(
    until deadline: SchedulerTimeType,
    tolerance: SchedulerTimeType.Stride = .zero,
    options: SchedulerOptions? = nil
  ) async throws {
    try await sleep(for: now.distance(to: deadline), tolerance: tolerance, options: options)
  }

  /// Returns an asynchronous stream of this scheduler's time, one value every `interval`.
  ///
  /// The first value comes one interval after the stream is made. The stream never finishes by itself; it ends,
  /// and its action on the scheduler is cancelled, when the task iterating it is cancelled or when the stream is
  /// no longer used (a `break` out of the loop, or `prefix(_:)` having taken what it needs).
  ///
  /// ```swift
  /// for await instant in scheduler.timer(interval: .seconds(1)) {
  ///   print("tick at", instant)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between values.
  ///   - tolerance: How late each value may be; zero by default.
  ///   - options: Options for the scheduler.
  /// - Returns: A stream of the scheduler's time, sent every `interval`.
  public func timer(
    interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride = .zero,
    options: SchedulerOptions? = nil
  ) -> AsyncStream<SchedulerTimeType> {
    AsyncStream { continuation in
      let repetition = ScheduledRepetition(
        schedule(after: self.now.advanced(by: interval), interval: interval, tolerance: tolerance, options: options) {
          // The time is read on the scheduler, for the stream alone: nothing else holds on to it.
          nonisolated(unsafe) let instant = self.now
          continuation.yield(instant)
        }
      )
      repetition.cancel(when: continuation)
    }
  }

  /// Returns how much time passed on this scheduler while `work` ran.
  ///
  /// On a ``TestScheduler``, that is how far `work` advanced the clock:
  ///
  /// ```swift
  /// let elapsed = scheduler.measure { scheduler.advance(by: .seconds(3)) }   // .seconds(3)
  /// ```
  ///
  /// - Parameter work: The code to time.
  /// - Returns: The time between the scheduler's `now` before and after `work`.
  /// - Throws: What `work` throws.
  public func measure(_ work: () throws -> Void) rethrows -> SchedulerTimeType.Stride {
    let start = now
    try work()
    return start.distance(to: now)
  }
}

/// The cancellable of a repeating action, cancelled when a stream ends, whichever thread that happens on.
// SAFETY: immutable; Combine requires `cancel()` to be safe to call from any thread.
private struct ScheduledRepetition: @unchecked Sendable {
  let cancellable: any Cancellable

  init(_ cancellable: any Cancellable) {
    self.cancellable = cancellable
  }

  /// Cancels the repeating action when the stream that `continuation` feeds ends.
  func cancel<Element>(when continuation: AsyncStream<Element>.Continuation) {
    continuation.onTermination = { _ in cancellable.cancel() }
  }
}
